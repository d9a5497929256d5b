import { throughProcessing } from '../../admin/simulators.js';
import type { DomainModule } from '../module.js';
import { bulkJobs, ensureDemo } from './bulk.service.js';
import { transferMachine } from './transfers.machine.js';
import { transferRoutes } from './transfers.routes.js';
import { getTransfer, moveTransfer, present, transferJobs } from './transfers.service.js';

export const transfersModule: DomainModule = {
  routes: transferRoutes,
  jobs: { ...transferJobs, ...bulkJobs },
  simulators: {
    transfers: {
      events: transferMachine.events,
      apply: (t, id, event, body) => {
        ensureDemo(t);
        throughProcessing(getTransfer(t, id).status, event, () => moveTransfer(t, id, 'process'));
        return present(moveTransfer(t, id, event as never, body.reason as string | undefined));
      },
    },
  },
};
