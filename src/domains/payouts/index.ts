import { throughProcessing } from '../../admin/simulators.js';
import type { DomainModule } from '../module.js';
import { payoutMachine } from './payouts.machine.js';
import { payoutRoutes } from './payouts.routes.js';
import { getPayout, movePayout, payoutJobs, present } from './payouts.service.js';

export const payoutsModule: DomainModule = {
  routes: payoutRoutes,
  jobs: payoutJobs,
  simulators: {
    payouts: {
      events: payoutMachine.events,
      apply: (t, id, event, body) => {
        throughProcessing(getPayout(t, id).status, event, () => movePayout(t, id, 'process'));
        return present(movePayout(t, id, event as never, body.reason as string | undefined));
      },
    },
  },
};
