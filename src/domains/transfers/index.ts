import { defineResource, recordResource } from '../../engine/registry/resource.js';
import type { DomainModule } from '../module.js';
import { bulkJobs, bulkView, simulateTransfer, type BulkRecord } from './bulk.service.js';
import { bulkDisbursement, transfer } from './transfers.machine.js';
import { transferRoutes, transfersTag } from './transfers.routes.js';
import { transferSandbox } from './transfers.sandbox.js';
import { present, transferJobs } from './transfers.service.js';

export const transferResource = recordResource(transfer, {
  present,
  move: simulateTransfer,
  jobs: transferJobs,
  ownedBy: { field: 'bulkId', owner: bulkDisbursement },
});

export const bulkDisbursementResource = defineResource(bulkDisbursement, {
  id: (r: BulkRecord) => r.id,
  status: () => null,
  view: bulkView,
  jobs: bulkJobs,
  owns: { field: 'references', owned: transfer },
});

export const transfersDomain = {
  routes: transferRoutes,
  tags: [transfersTag],
  sandbox: transferSandbox,
  resources: [transferResource, bulkDisbursementResource],
} satisfies DomainModule;
