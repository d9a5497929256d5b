// Single disbursement transfers: create, read, timed moves and simulated moves. Rows of bulk files
// are transfers too (bulk.service.ts); they share the store, the machine and the events.
import { notFound, SandboxError } from '../../kernel/errors.js';
import { toNumber } from '../../kernel/money.js';
import type { Outcome } from '../../engine/registry/behaviour.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { checkPayee } from '../reference/banks.service.js';
import { payoutFee } from '../reference/fees.js';
import { transfer, transferMachine, type TransferEvent, type TransferStatus } from './transfers.machine.js';
import type { BulkRow, CreateTransferRequest, Transfer } from './transfers.schema.js';

/** A transfer as stored: the response fields plus how its lifecycle ends. */
export interface TransferRecord extends Transfer {
  outcome: Outcome;
  scenario?: string;
  /** Bulk rows move with their file's shared schedule until a simulated move detaches them. */
  ownSchedule?: boolean;
}

/** Counts changes to a tenant's transfers, so a cached filtered page knows when it is stale. */
const versions = new WeakMap<Tenant, number>();
export const versionOf = (t: Tenant) => versions.get(t) ?? 0;
export const bumpVersion = (t: Tenant) => void versions.set(t, versionOf(t) + 1);
export const transfers = (t: Tenant) => t.store.collection<TransferRecord>(transfer.collection);

export function present(r: TransferRecord): Transfer {
  const { outcome: _o, scenario: _s, ownSchedule: _d, ...view } = r;
  return view;
}

/** Live rules: a BANK transfer pays a bank account as a payout does (checkPayee: a listed bank, an
 * account that resolves, in its name); WALLET and MOBILE_MONEY destinations are not bank accounts
 * and are not checked. `field` names a field of the request in errors (a bulk row's is `items[i].…`). */
export function checkLiveBank(t: Tenant, req: CreateTransferRequest, field: (name: string) => string = (name) => name): void {
  const d = req.destination;
  if (req.type !== 'BANK' || d.bankCode === undefined) return;
  const at = { accountNumber: field('destination.accountNumber'), accountName: field('destination.accountName'), bankCode: field('destination.bankCode') };
  checkPayee(t.mode, req.currency, { accountNumber: d.accountNumber, accountName: d.accountName, bankCode: d.bankCode }, at);
}

/** A new PENDING transfer record (not stored). */
export function newTransfer(
  t: Tenant,
  req: CreateTransferRequest | BulkRow,
  extra: { serviceSource: string; bulkId: string | null; scenario?: string },
): TransferRecord {
  const now = t.nowIso();
  return {
    id: `trf_${t.random.hex(24)}`,
    reference: req.reference,
    amount: req.amount,
    currency: req.currency,
    type: req.type,
    source: { accountNumber: req.source.accountNumber },
    destination: { ...req.destination },
    ...(req.narrations !== undefined ? { narrations: req.narrations } : {}),
    status: 'PENDING',
    fee: toNumber(payoutFee(req.currency, req.amount), req.currency),
    serviceSource: extra.serviceSource,
    category: 'category' in req ? req.category : null,
    bulkId: extra.bulkId,
    failureReason: null,
    createdAt: now,
    updatedAt: now,
    outcome: transfer.outcome(t.behaviour(extra.scenario), req),
    ...(extra.scenario ? { scenario: extra.scenario } : {}),
  };
}

export function createTransfer(t: Tenant, req: CreateTransferRequest, serviceSource: string, scenario?: string): TransferRecord {
  t.checkRoom();
  checkLiveBank(t, req);
  if (transfers(t).has(req.reference)) {
    throw new SandboxError(
      'IDEMPOTENCY_CONFLICT',
      `The reference '${req.reference}' already belongs to a transfer of a bulk file. Use a new UUID as the reference.`,
      [{ field: 'reference', issue: 'already used by another transfer' }],
    );
  }
  const record = newTransfer(t, req, { serviceSource, bulkId: null, scenario });
  transfers(t).put(record.reference, record);
  transfer.retime(t, record.reference, 'PENDING', t.behaviour(scenario), undefined, record.outcome);
  transfer.emit(t, 'PENDING', record, present);
  return record;
}

export function getTransfer(t: Tenant, reference: string): TransferRecord {
  const r = transfers(t).get(reference) ?? transfers(t).get(reference.toLowerCase());
  if (!r) throw notFound('transfer', reference);
  return r;
}

/** Change state and record the event; no scheduling. */
export function applyMove(t: Tenant, r: TransferRecord, event: TransferEvent, reason?: string, ownSchedule = r.ownSchedule): TransferRecord {
  const status: TransferStatus = transferMachine.next(r.status, event, r.reference);
  const failureReason = status === 'FAILED' ? (reason ?? r.outcome.reason ?? 'Transfer failed at the beneficiary institution') : null;
  const next: TransferRecord = { ...r, status, failureReason, updatedAt: t.nowIso(), ...(ownSchedule ? { ownSchedule } : {}) };
  transfers(t).put(r.reference, next);
  bumpVersion(t);
  transfer.emit(t, status, next, present);
  return next;
}

/** A move of one transfer (simulated, or its own timed move), with its next timed move. */
export function moveTransfer(t: Tenant, reference: string, event: TransferEvent, reason?: string): TransferRecord {
  const r = getTransfer(t, reference);
  const next = applyMove(t, r, event, reason, true);
  transfer.retime(t, r.reference, next.status, t.behaviour(r.scenario), undefined, r.outcome);
  return next;
}

/** A transfer's own timed moves (single transfers, and bulk rows a simulated move took off their file's schedule). */
export const transferJobs = transfer.timerJobs((t, ref) => transfers(t).get(ref), moveTransfer);
