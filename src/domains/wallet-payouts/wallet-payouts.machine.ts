import { defineMachine } from '../../kernel/machine.js';
import { defineLifecycle } from '../../engine/registry/lifecycle.js';
import { WALLET_MAGIC } from '../reference/magic-values.js';
import { ASSETS, CreateWalletPayoutRequest, WALLET_PAYOUT_STATUSES } from './wallet-payouts.schema.js';

export type WalletPayoutStatus = (typeof WALLET_PAYOUT_STATUSES)[number];

/** PENDING → PROCESSING (broadcast) → COMPLETED | FAILED; CANCELLED only before broadcast. */
export const walletPayoutMachine = defineMachine('wallet payout', WALLET_PAYOUT_STATUSES, {
  broadcast: { from: ['PENDING'], to: 'PROCESSING' },
  complete: { from: ['PROCESSING'], to: 'COMPLETED' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
  cancel: { from: ['PENDING'], to: 'CANCELLED' },
});

export type WalletPayoutEvent = (typeof walletPayoutMachine.events)[number];

/** PENDING 30 s until broadcast, PROCESSING 150 s, then the end the scenario picks. */
export const walletPayout = defineLifecycle({
  name: 'wallet_payout',
  machine: walletPayoutMachine,
  timed: ['PENDING', 'PROCESSING'],
  outcomes: { states: ['COMPLETED', 'FAILED'], success: 'COMPLETED' },
  durations: { PENDING: 30, PROCESSING: 150 },
  timedMoves: { PENDING: 'broadcast', PROCESSING: { succeed: 'complete', fail: 'fail' } },
  // The request names the token `asset`; the scenario predicate is `token`.
  // token first, then the request's fields (it has no token): see the quote's match.
  match: (req: CreateWalletPayoutRequest) => ({ token: req.asset, ...req }),
  rules: { request: CreateWalletPayoutRequest, added: { token: ASSETS } },
  magic: WALLET_MAGIC,
});
