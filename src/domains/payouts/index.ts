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
        // complete and fail walk a PENDING payout through PROCESSING, so the lifecycle keeps its order.
        if ((event === 'complete' || event === 'fail') && getPayout(t, id).status === 'PENDING') movePayout(t, id, 'process');
        return present(movePayout(t, id, event as never, body.reason as string | undefined));
      },
    },
  },
};
