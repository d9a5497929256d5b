import { defineMachine } from '../../kernel/machine.js';
import { TRANSFER_STATUSES } from './transfers.schema.js';

export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** PENDING → PROCESSING → SUCCESSFUL | FAILED, as fiat payouts. */
export const transferMachine = defineMachine('transfer', TRANSFER_STATUSES, {
  process: { from: ['PENDING'], to: 'PROCESSING' },
  complete: { from: ['PROCESSING'], to: 'SUCCESSFUL' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
});

export type TransferEvent = (typeof transferMachine.events)[number];
