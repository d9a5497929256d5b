import { resourceNames } from '../../engine/registry/lifecycle.js';
import { fiatMagic } from '../reference/magic-values.js';
import { settlementLifecycle, type SettlementEvent, type SettlementStatus } from '../settlement/settlement.js';
import { CreateTransferRequest, TRANSFER_CATEGORIES, type BulkRow } from './transfers.schema.js';

export type TransferStatus = SettlementStatus;
export type TransferEvent = SettlementEvent;

/** As fiat payouts: PENDING → PROCESSING → SUCCESSFUL | FAILED; the scenario rules match the request (or bulk row). */
export const transfer = settlementLifecycle('transfer', (req: CreateTransferRequest | BulkRow) => ({ ...req }), { request: CreateTransferRequest, added: { category: TRANSFER_CATEGORIES } }, fiatMagic('destination.accountNumber'));
export const transferMachine = transfer.machine;

/** Bulk files have no states of their own: each row is a transfer. */
export const bulkDisbursement = resourceNames('bulk_disbursement');
