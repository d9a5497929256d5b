// Every domain of the API, in the order their routes are mounted.
import type { DomainModule } from './module.js';
import { fxModule } from './fx/index.js';
import { quotesModule } from './quotes/index.js';
import { payoutsModule } from './payouts/index.js';
import { transfersModule } from './transfers/index.js';
import { walletPayoutsModule } from './wallet-payouts/index.js';
import { withdrawalsModule } from './withdrawals/index.js';

export const domains: DomainModule[] = [payoutsModule, walletPayoutsModule, withdrawalsModule, transfersModule, quotesModule, fxModule];
