import { defineMachine } from '../../kernel/machine.js';
import { WALLET_PAYOUT_STATUSES } from './wallet-payouts.schema.js';

export type WalletPayoutStatus = (typeof WALLET_PAYOUT_STATUSES)[number];

/** PENDING → PROCESSING (broadcast) → COMPLETED | FAILED; CANCELLED only before broadcast. */
export const walletPayoutMachine = defineMachine('wallet payout', WALLET_PAYOUT_STATUSES, {
  broadcast: { from: ['PENDING'], to: 'PROCESSING' },
  complete: { from: ['PROCESSING'], to: 'COMPLETED' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
  cancel: { from: ['PENDING'], to: 'CANCELLED' },
});

export type WalletPayoutEvent = (typeof walletPayoutMachine.events)[number];
