import { defineLifecycle, resourceNames } from '../../engine/registry/lifecycle.js';
import { defineMachine } from '../../kernel/machine.js';
import { fiatMagic } from '../reference/magic-values.js';
import { SETTLEMENT_MOVES, SETTLEMENT_TIMING } from '../reference/settlement.js';
import { CreateTransferRequest, TRANSFER_CATEGORIES, TRANSFER_STATUSES, type BulkRow } from './transfers.schema.js';

export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** As a fiat payout's: PENDING → PROCESSING → SUCCESSFUL | FAILED. */
export const transferMachine = defineMachine('transfer', TRANSFER_STATUSES, SETTLEMENT_MOVES);

export type TransferEvent = (typeof transferMachine.events)[number];

/** PENDING 30 s, PROCESSING 270 s, then the end the scenario picks; its rules match the request (or bulk row). */
export const transfer = defineLifecycle({
  name: 'transfer',
  machine: transferMachine,
  ...SETTLEMENT_TIMING,
  // The request itself, as a payout's: rules and test values only read it (a copy cost a spread per create).
  match: (req: CreateTransferRequest | BulkRow): Record<string, unknown> => req,
  rules: { request: CreateTransferRequest, added: { category: TRANSFER_CATEGORIES } },
  magic: fiatMagic('destination.accountNumber'),
});

/** Bulk files have no states of their own: each row is a transfer. */
export const bulkDisbursement = resourceNames('bulk_disbursement');
