import { defineMachine } from '../../kernel/machine.js';
import { PAYOUT_STATUSES } from './payouts.schema.js';

export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** PENDING → PROCESSING → SUCCESSFUL | FAILED. */
export const payoutMachine = defineMachine('payout', PAYOUT_STATUSES, {
  process: { from: ['PENDING'], to: 'PROCESSING' },
  complete: { from: ['PROCESSING'], to: 'SUCCESSFUL' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
});

export type PayoutEvent = (typeof payoutMachine.events)[number];
