import type { DomainModule } from '../module.js';
import { withdrawalMachine } from './withdrawals.machine.js';
import { withdrawalRoutes } from './withdrawals.routes.js';
import { moveWithdrawal, present, withdrawalJobs } from './withdrawals.service.js';

export const withdrawalsModule: DomainModule = {
  routes: withdrawalRoutes,
  jobs: withdrawalJobs,
  simulators: {
    withdrawals: {
      events: withdrawalMachine.events,
      apply: (t, id, event, body) => present(moveWithdrawal(t, id, event as never, body.reason as string | undefined)),
    },
  },
};
