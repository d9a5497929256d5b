import { recordResource } from '../../engine/registry/resource.js';
import type { DomainModule } from '../module.js';
import { withdrawal } from './withdrawals.machine.js';
import { withdrawalRoutes, withdrawalsTag } from './withdrawals.routes.js';
import { moveWithdrawal, present, withdrawalJobs } from './withdrawals.service.js';

export const withdrawalResource = recordResource(withdrawal, { present, move: moveWithdrawal, jobs: withdrawalJobs });

export const withdrawalsDomain = { routes: withdrawalRoutes, tags: [withdrawalsTag], resources: [withdrawalResource] } satisfies DomainModule;
