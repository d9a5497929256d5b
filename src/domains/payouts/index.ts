import { defineResource, throughProcessing } from '../../engine/resource.js';
import type { DomainModule } from '../module.js';
import { payout } from './payouts.machine.js';
import { payoutRoutes } from './payouts.routes.js';
import { getPayout, movePayout, payoutJobs, present, type PayoutRecord } from './payouts.service.js';

export const payoutResource = defineResource(payout, {
  id: (r: PayoutRecord) => r.reference,
  status: (r) => r.status,
  view: (_t, r) => present(r),
  simulate: {
    events: payout.machine.events,
    apply: (t, id, event, body) => {
      throughProcessing(getPayout(t, id).status, event, () => movePayout(t, id, 'process'));
      return present(movePayout(t, id, event, body.reason as string | undefined));
    },
  },
  jobs: payoutJobs,
});

export const payoutsDomain = { routes: payoutRoutes, resources: [payoutResource] } satisfies DomainModule;
