import { defineLifecycle } from '../../engine/registry/lifecycle.js';
import { defineMachine } from '../../kernel/machine.js';
import { fiatMagic } from '../reference/magic-values.js';
import { SETTLEMENT_MOVES, SETTLEMENT_TIMING } from '../reference/settlement.js';
import { CreatePayoutRequest, PAYOUT_STATUSES } from './payouts.schema.js';

export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** PENDING → PROCESSING → SUCCESSFUL | FAILED. */
export const payoutMachine = defineMachine('payout', PAYOUT_STATUSES, SETTLEMENT_MOVES);

export type PayoutEvent = (typeof payoutMachine.events)[number];

/** PENDING 30 s, PROCESSING 270 s, then the end the scenario picks; its rules match the create request. */
export const payout = defineLifecycle({
  name: 'payout',
  machine: payoutMachine,
  ...SETTLEMENT_TIMING,
  match: (req: CreatePayoutRequest) => req,
  rules: { request: CreatePayoutRequest },
  magic: fiatMagic('destination.accountNumber'),
});
