import { defineMachine } from '../../kernel/machine.js';
import { defineLifecycle, resourceNames } from '../../engine/lifecycle.js';
import { TRANSFER_STATUSES, type BulkRow, type CreateTransferRequest } from './transfers.schema.js';

export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** PENDING → PROCESSING → SUCCESSFUL | FAILED, as fiat payouts. */
export const transferMachine = defineMachine('transfer', TRANSFER_STATUSES, {
  process: { from: ['PENDING'], to: 'PROCESSING' },
  complete: { from: ['PROCESSING'], to: 'SUCCESSFUL' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
});

export type TransferEvent = (typeof transferMachine.events)[number];

/** PENDING 30 s, PROCESSING 270 s, then the end the scenario picks; the rules match the create request (or bulk row). */
export const transfer = defineLifecycle({
  name: 'transfer',
  machine: transferMachine,
  timed: ['PENDING', 'PROCESSING'],
  outcomes: { states: ['SUCCESSFUL', 'FAILED'], success: 'SUCCESSFUL' },
  durations: { PENDING: 30, PROCESSING: 270 },
  match: (req: CreateTransferRequest | BulkRow) => ({ ...req }),
});

/** Bulk files have no states of their own: each row is a transfer. */
export const bulkDisbursement = resourceNames('bulk_disbursement');
