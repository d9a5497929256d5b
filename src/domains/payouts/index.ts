import { recordResource } from '../../engine/registry/resource.js';
import type { DomainModule } from '../module.js';
import { payout } from './payouts.machine.js';
import { payoutRoutes, payoutsTag } from './payouts.routes.js';
import { payoutJobs, present, simulatePayout } from './payouts.service.js';

export const payoutResource = recordResource(payout, { present, move: simulatePayout, jobs: payoutJobs });

export const payoutsDomain = { routes: payoutRoutes, tags: [payoutsTag], resources: [payoutResource] } satisfies DomainModule;
