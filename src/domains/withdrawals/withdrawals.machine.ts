import { defineMachine } from '../../kernel/machine.js';
import { WITHDRAWAL_STATUSES } from './withdrawals.schema.js';

export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** PROCESSING → SUCCESSFUL | FAILED. */
export const withdrawalMachine = defineMachine('withdrawal', WITHDRAWAL_STATUSES, {
  complete: { from: ['PROCESSING'], to: 'SUCCESSFUL' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
});

export type WithdrawalEvent = (typeof withdrawalMachine.events)[number];
