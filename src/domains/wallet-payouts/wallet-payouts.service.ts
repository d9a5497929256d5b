// Crypto wallet payout use cases: create (holding amount plus gas), read, timed moves, simulated moves.
import { iso } from '../../kernel/clock.js';
import { notFound } from '../../kernel/errors.js';
import { dec, toNumber } from '../../kernel/money.js';
import type { TenantRandom } from '../../kernel/random.js';
import type { Outcome } from '../../engine/registry/behaviour.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { credit, debit } from '../reference/balances.service.js';
import { walletPayout, walletPayoutMachine, type WalletPayoutEvent, type WalletPayoutStatus } from './wallet-payouts.machine.js';
import type { CreateWalletPayoutRequest, WalletPayout } from './wallet-payouts.schema.js';
import { balanceKey, gasFee, walletId } from './wallets.js';

/** A blockchain transaction hash: 0x plus 64 hex digits. */
const transactionHash = (r: TenantRandom) => `0x${r.hex(64)}`;

/** A payout as stored: the response fields plus what its lifecycle needs. */
export interface WalletPayoutRecord extends WalletPayout {
  memo?: string;
  failureReason: string | null;
  updatedAt: string;
  /** Seconds it stays PROCESSING once broadcast, fixed at creation. */
  processingFor: number;
  outcome: Outcome;
  scenario?: string;
}

const payouts = (t: Tenant) => t.store.collection<WalletPayoutRecord>(walletPayout.collection);

export function present(p: WalletPayoutRecord): WalletPayout {
  const { memo: _m, failureReason: _f, updatedAt: _u, processingFor: _p, outcome: _o, scenario: _s, ...view } = p;
  return view;
}

export function createWalletPayout(t: Tenant, req: CreateWalletPayoutRequest, scenario?: string): WalletPayoutRecord {
  t.checkRoom();
  const fee = gasFee(req.chain, req.asset);
  debit(t, balanceKey(req.chain, req.asset), dec(req.amount).plus(fee));
  const behaviour = t.behaviour(scenario);
  const now = t.now();
  const outcome = walletPayout.outcome(behaviour, req);
  const pendingFor = walletPayout.duration(behaviour, 'PENDING', outcome);
  const processingFor = walletPayout.duration(behaviour, 'PROCESSING', outcome);
  const record: WalletPayoutRecord = {
    reference: req.reference,
    withdrawalId: t.random.uuid(),
    walletId: walletId(t.id, req.chain, req.asset),
    chain: req.chain,
    token: req.asset,
    amount: req.amount,
    estimatedFee: toNumber(fee, req.asset),
    toAddress: req.toAddress,
    status: 'PENDING',
    transactionHash: null,
    createdAt: iso(now),
    estimatedCompletionAt: iso(now + (pendingFor + processingFor) * 1000),
    ...(req.memo !== undefined ? { memo: req.memo } : {}),
    failureReason: null,
    updatedAt: iso(now),
    processingFor,
    outcome,
    ...(scenario ? { scenario } : {}),
  };
  payouts(t).put(record.reference, record);
  walletPayout.retime(t, record.reference, 'PENDING', pendingFor, now);
  walletPayout.emit(t, 'PENDING', record, eventData);
  return record;
}

export function getWalletPayout(t: Tenant, reference: string): WalletPayoutRecord {
  const p = payouts(t).get(reference);
  if (!p) throw notFound('wallet payout', reference);
  return p;
}

/** Apply one move of the machine with its side effects: hash on broadcast, hold released on FAILED or CANCELLED. */
export function moveWalletPayout(t: Tenant, reference: string, event: WalletPayoutEvent, reason?: string): WalletPayoutRecord {
  const p = getWalletPayout(t, reference);
  const status: WalletPayoutStatus = walletPayoutMachine.next(p.status, event, reference);
  const now = t.now();
  let next: WalletPayoutRecord = { ...p, status, updatedAt: iso(now) };
  if (status === 'PROCESSING') {
    const completesAt = now + p.processingFor * 1000;
    next = { ...next, transactionHash: transactionHash(t.random), estimatedCompletionAt: iso(completesAt) };
  }
  if (status === 'FAILED') next = { ...next, failureReason: reason ?? p.outcome.reason ?? 'The transaction reverted on chain' };
  if (status === 'CANCELLED') next = { ...next, failureReason: reason ?? 'Cancelled before broadcast' };
  payouts(t).put(reference, next);
  if (status === 'FAILED' || status === 'CANCELLED') {
    credit(t, balanceKey(p.chain, p.token), dec(p.amount).plus(p.estimatedFee));
  }
  // Once broadcast, it stays PROCESSING as long as was fixed at creation.
  walletPayout.retime(t, reference, status, p.processingFor, now);
  walletPayout.emit(t, status, next, eventData);
  return next;
}

/** The timed moves: PENDING → PROCESSING (broadcast), then PROCESSING → the planned outcome. */
export const walletPayoutJobs = walletPayout.timerJobs((t, ref) => payouts(t).get(ref), moveWalletPayout);

function eventData(p: WalletPayoutRecord): Record<string, unknown> {
  const extra = { ...(p.memo !== undefined ? { memo: p.memo } : {}), failureReason: p.failureReason, updatedAt: p.updatedAt };
  return { ...present(p), ...extra };
}
