import { recordResource } from '../../engine/registry/resource.js';
import type { DomainModule } from '../module.js';
import { throughProcessing } from '../settlement/settlement.js';
import { payout } from './payouts.machine.js';
import { payoutRoutes, payoutsTag } from './payouts.routes.js';
import { getPayout, movePayout, payoutJobs, present } from './payouts.service.js';

export const payoutResource = recordResource(payout, {
  present,
  move: (t, id, event, reason) => {
    throughProcessing(getPayout(t, id).status, event, () => movePayout(t, id, 'process'));
    return movePayout(t, id, event, reason);
  },
  jobs: payoutJobs,
});

export const payoutsDomain = { routes: payoutRoutes, tags: [payoutsTag], resources: [payoutResource] } satisfies DomainModule;
