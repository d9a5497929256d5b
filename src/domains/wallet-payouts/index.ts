import type { DomainModule } from '../module.js';
import { walletPayoutMachine } from './wallet-payouts.machine.js';
import { walletPayoutRoutes } from './wallet-payouts.routes.js';
import { moveWalletPayout, present, walletPayoutJobs } from './wallet-payouts.service.js';

export const walletPayoutsModule: DomainModule = {
  routes: walletPayoutRoutes,
  jobs: walletPayoutJobs,
  simulators: {
    'wallet-payouts': {
      events: walletPayoutMachine.events,
      apply: (t, id, event, body) => present(moveWalletPayout(t, id, event as never, body.reason as string | undefined)),
    },
  },
};
