import { defineMachine } from '../../kernel/machine.js';
import { defineLifecycle } from '../../engine/lifecycle.js';
import { PAYOUT_STATUSES, type CreatePayoutRequest } from './payouts.schema.js';

export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** PENDING → PROCESSING → SUCCESSFUL | FAILED. */
export const payoutMachine = defineMachine('payout', PAYOUT_STATUSES, {
  process: { from: ['PENDING'], to: 'PROCESSING' },
  complete: { from: ['PROCESSING'], to: 'SUCCESSFUL' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
});

export type PayoutEvent = (typeof payoutMachine.events)[number];

/** PENDING 30 s, PROCESSING 270 s, then the end the scenario picks; the rules match the create request. */
export const payout = defineLifecycle({
  name: 'payout',
  machine: payoutMachine,
  timed: ['PENDING', 'PROCESSING'],
  outcomes: { states: ['SUCCESSFUL', 'FAILED'], success: 'SUCCESSFUL' },
  durations: { PENDING: 30, PROCESSING: 270 },
  match: (req: CreatePayoutRequest) => req,
});
