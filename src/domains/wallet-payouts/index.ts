import { defineResource } from '../../engine/resource.js';
import type { DomainModule } from '../module.js';
import { walletPayout } from './wallet-payouts.machine.js';
import { walletPayoutRoutes } from './wallet-payouts.routes.js';
import { moveWalletPayout, present, walletPayoutJobs, type WalletPayoutRecord } from './wallet-payouts.service.js';

export const walletPayoutResource = defineResource(walletPayout, {
  id: (r: WalletPayoutRecord) => r.reference,
  status: (r) => r.status,
  view: (_t, r) => present(r),
  simulate: {
    events: walletPayout.machine.events,
    apply: (t, id, event, body) => present(moveWalletPayout(t, id, event, body.reason as string | undefined)),
  },
  jobs: walletPayoutJobs,
});

export const walletPayoutsDomain = { routes: walletPayoutRoutes, resources: [walletPayoutResource] } satisfies DomainModule;
