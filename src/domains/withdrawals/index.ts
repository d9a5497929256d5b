import { defineResource } from '../../engine/resource.js';
import type { DomainModule } from '../module.js';
import { withdrawal } from './withdrawals.machine.js';
import { withdrawalRoutes } from './withdrawals.routes.js';
import { moveWithdrawal, present, withdrawalJobs, type WithdrawalRecord } from './withdrawals.service.js';

export const withdrawalResource = defineResource(withdrawal, {
  id: (r: WithdrawalRecord) => r.reference,
  status: (r) => r.status,
  view: (_t, r) => present(r),
  simulate: {
    events: withdrawal.machine.events,
    apply: (t, id, event, body) => present(moveWithdrawal(t, id, event, body.reason as string | undefined)),
  },
  jobs: withdrawalJobs,
});

export const withdrawalsDomain = { routes: withdrawalRoutes, resources: [withdrawalResource] } satisfies DomainModule;
