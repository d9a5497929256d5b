import type { Tenant } from '../../engine/tenancy/tenant.js';
import { defineResource, recordResource } from '../../engine/registry/resource.js';
import { throughProcessing } from '../settlement/settlement.js';
import type { DomainModule } from '../module.js';
import { bulkJobs, ensureDemo, presentBulk, type BulkRecord } from './bulk.service.js';
import { bulkDisbursement, transfer } from './transfers.machine.js';
import { transferRoutes, transfersTag } from './transfers.routes.js';
import { transferSandbox } from './transfers.sandbox.js';
import { getTransfer, moveTransfer, present, transferJobs, transfers } from './transfers.service.js';

export const transferResource = recordResource(transfer, {
  present,
  move: (t, id, event, reason) => {
    ensureDemo(t);
    throughProcessing(getTransfer(t, id).status, event, () => moveTransfer(t, id, 'process'));
    return moveTransfer(t, id, event, reason);
  },
  jobs: transferJobs,
  ownedBy: { field: 'bulkId', owner: bulkDisbursement },
});

/** A bulk file as uploaded, with how many of its rows are in each state. */
function bulkView(t: Tenant, b: BulkRecord): Record<string, unknown> {
  const store = transfers(t);
  const statuses: Record<string, number> = {};
  for (const ref of b.references) {
    const s = store.get(ref)?.status;
    if (s) statuses[s] = (statuses[s] ?? 0) + 1;
  }
  return { ...presentBulk(b), statuses };
}

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
