import { recordResource } from '../../engine/registry/resource.js';
import type { DomainModule } from '../module.js';
import { walletPayout } from './wallet-payouts.machine.js';
import { walletPayoutRoutes, walletPayoutsTag } from './wallet-payouts.routes.js';
import { moveWalletPayout, present, walletPayoutJobs } from './wallet-payouts.service.js';

export const walletPayoutResource = recordResource(walletPayout, { present, move: moveWalletPayout, reasonOn: ['fail', 'cancel'], jobs: walletPayoutJobs });

export const walletPayoutsDomain = { routes: walletPayoutRoutes, tags: [walletPayoutsTag], resources: [walletPayoutResource] } satisfies DomainModule;
