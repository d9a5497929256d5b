// Fiat payout use cases: create, read, timed moves and simulated moves.
import { iso } from '../../kernel/clock.js';
import { dec } from '../../kernel/money.js';
import type { TenantRandom } from '../../kernel/random.js';
import type { Outcome } from '../../engine/registry/behaviour.js';
import { recordsOf } from '../../engine/registry/records.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { credit, debit } from '../reference/balances.service.js';
import { bankName, checkPayee } from '../reference/banks.service.js';
import { payoutFee } from '../reference/fees.js';
import { payout, type PayoutEvent } from './payouts.machine.js';
import type { CreatePayoutRequest, Payout } from './payouts.schema.js';
import { throughProcessing } from '../reference/settlement.js';

/** The service's own reference of a payout: HPR-TRSF- plus 24 hex digits. */
const transactionReference = (r: TenantRandom) => `HPR-TRSF-${r.hex(24, 'upper')}`;

/** A payout as stored: the response fields plus how its lifecycle ends. */
export interface PayoutRecord extends Payout {
  outcome: Outcome;
  scenario?: string;
}

const payouts = recordsOf(payout, { view: present, failure: 'Payout failed at the beneficiary bank' });

/** The response view, one shape for every payout (docs/architecture.md, "Records of one shape"); an
 * optional field left undefined is not written to JSON. */
export function present(p: PayoutRecord): Payout {
  return {
    reference: p.reference,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    fee: p.fee,
    destination: p.destination,
    narration: p.narration,
    transactionReference: p.transactionReference,
    failureReason: p.failureReason,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    estimatedCompletionAt: p.estimatedCompletionAt,
  };
}

export const envelope = (message: string, p: PayoutRecord) => ({ status: 'success' as const, message, data: present(p) });

export function createPayout(t: Tenant, req: CreatePayoutRequest, scenario?: string): PayoutRecord {
  t.checkRoom();
  checkPayee(t.mode, req.currency, req.destination, 'destination.');
  const amount = dec(req.amount);
  const fee = payoutFee(req.currency, amount);
  const behaviour = t.behaviour(scenario);
  const now = t.now();
  const nowIso = iso(now);
  const outcome = payout.outcome(behaviour, req);
  const pendingFor = payout.duration(behaviour, 'PENDING', outcome);
  const processingFor = payout.duration(behaviour, 'PROCESSING', outcome);
  // One shape for every record and destination, not a spread of the request (docs/architecture.md, "Records of one shape").
  const d = req.destination;
  const name = bankName(req.currency, d.bankCode);
  const destination: PayoutRecord['destination'] =
    d.branchCode === undefined
      ? { accountNumber: d.accountNumber, accountName: d.accountName, bankCode: d.bankCode, bankName: name }
      : { accountNumber: d.accountNumber, accountName: d.accountName, bankCode: d.bankCode, branchCode: d.branchCode, bankName: name };
  const record: PayoutRecord = {
    reference: req.reference,
    amount: req.amount,
    currency: req.currency,
    status: 'PENDING',
    fee: fee.toNumber(),
    destination,
    narration: req.narration,
    transactionReference: transactionReference(t.random),
    failureReason: null,
    createdAt: nowIso,
    updatedAt: nowIso,
    estimatedCompletionAt: iso(now + (pendingFor + processingFor) * 1000),
    outcome,
    scenario,
  };
  // The debit is the first write: whatever could refuse the payout has run by now.
  debit(t, req.currency, amount.plus(fee));
  return payouts.save(t, record, pendingFor, now);
}

export const getPayout = payouts.get;

/** Apply one move of the machine, with its side effects (refund on failure, next timed move). */
export function movePayout(t: Tenant, reference: string, event: PayoutEvent, reason?: string): PayoutRecord {
  const p = payouts.get(t, reference);
  const status = payouts.next(p, event);
  const now = t.now();
  const next: PayoutRecord = { ...p, status, failureReason: status === 'FAILED' ? payouts.failure(p, reason) : null, updatedAt: iso(now) };
  if (status === 'FAILED') credit(t, p.currency, dec(p.amount).plus(p.fee));
  if (status !== 'PROCESSING') return payouts.save(t, next);
  // PROCESSING takes its time from the scenario when it is entered (a simulated move enters it early),
  // and the planned end follows it.
  const processingFor = payout.duration(t.behaviour(p.scenario), 'PROCESSING', p.outcome);
  return payouts.save(t, { ...next, estimatedCompletionAt: iso(now + processingFor * 1000) }, processingFor, now);
}

/**
 * A move /_sandbox/simulate pushes: `complete` or `fail` on a PENDING payout runs `process` first,
 * so the end is one call and the events keep the lifecycle's order.
 */
export function simulatePayout(t: Tenant, reference: string, event: PayoutEvent, reason?: string): PayoutRecord {
  return throughProcessing(getPayout(t, reference).status, (e) => movePayout(t, reference, e, e === event ? reason : undefined), event);
}

/** The timed moves: PENDING → PROCESSING, then PROCESSING → the planned outcome. */
export const payoutJobs = payouts.jobs(movePayout);
