// Crypto wallet payout use cases: create (holding amount plus gas), read, timed moves, simulated moves.
import { iso } from '../../kernel/clock.js';
import { dec, toNumber } from '../../kernel/money.js';
import type { TenantRandom } from '../../kernel/random.js';
import type { Outcome } from '../../engine/registry/behaviour.js';
import { recordsOf } from '../../engine/registry/records.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { credit, debit } from '../reference/balances.service.js';
import { walletPayout, type WalletPayoutEvent } from './wallet-payouts.machine.js';
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

const payouts = recordsOf(walletPayout, { view: eventData, failure: 'The transaction reverted on chain' });

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
  return payouts.save(t, record, pendingFor, now);
}

export const getWalletPayout = payouts.get;

/** Apply one move of the machine with its side effects: hash on broadcast, hold released on FAILED or CANCELLED. */
export function moveWalletPayout(t: Tenant, reference: string, event: WalletPayoutEvent, reason?: string): WalletPayoutRecord {
  const p = payouts.get(t, reference);
  const status = payouts.next(p, event);
  const now = t.now();
  let next: WalletPayoutRecord = { ...p, status, updatedAt: iso(now) };
  if (status === 'PROCESSING') {
    const completesAt = now + p.processingFor * 1000;
    next = { ...next, transactionHash: transactionHash(t.random), estimatedCompletionAt: iso(completesAt) };
  }
  if (status === 'FAILED') next = { ...next, failureReason: payouts.failure(p, reason) };
  if (status === 'CANCELLED') next = { ...next, failureReason: reason ?? 'Cancelled before broadcast' };
  if (status === 'FAILED' || status === 'CANCELLED') {
    credit(t, balanceKey(p.chain, p.token), dec(p.amount).plus(p.estimatedFee));
  }
  // Once broadcast, it stays PROCESSING as long as was fixed at creation.
  return payouts.save(t, next, p.processingFor, now);
}

/** The timed moves: PENDING → PROCESSING (broadcast), then PROCESSING → the planned outcome. */
export const walletPayoutJobs = payouts.jobs(moveWalletPayout);

function eventData(p: WalletPayoutRecord): Record<string, unknown> {
  const extra = { ...(p.memo !== undefined ? { memo: p.memo } : {}), failureReason: p.failureReason, updatedAt: p.updatedAt };
  return { ...present(p), ...extra };
}
