// Marketplace quote use cases: create from the pools, read, remove an allocation, and the moves
// of the quote machine with their side effects (expiry timer, pay-in timer, pools drawn down).
import { iso } from '../../kernel/clock.js';
import { notFound, SandboxError } from '../../kernel/errors.js';
import { dec, scaleOf } from '../../kernel/money.js';
import type { Job } from '../../engine/scheduler.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { allocate, checkPair, poolsForPair } from '../liquidity/allocation.js';
import { pairPools, poolDraws, tokenOf } from '../liquidity/cross.js';
import type { Pool } from '../liquidity/pools.js';
import { drawDown, tenantPools } from '../liquidity/pools.service.js';
import {
  allocationViews,
  chatMetadata,
  clientIdOf,
  eventView,
  expiresAtMs,
  newDeposit,
  newOrderReference,
  orderView,
  paymentQuote,
  quoteOf,
  quoteView,
  type QuoteRecord,
  type StoredQuote,
} from './quotes.build.js';
import { quote, quoteMachine, type QuoteEvent } from './quotes.machine.js';
import type { CreateIntentRequest, MarketplaceQuote, PaymentQuote } from './quotes.schema.js';

const EXPIRE = 'quote.expire';
const PAY_IN = 'quote.pay_in';
export const quotes = (t: Tenant) => t.store.collection<StoredQuote>(quote.collection);

function checkIntent(req: CreateIntentRequest): void {
  const { sourceCurrency: s, destinationCurrency: d } = req;
  checkPair(s, d, ['sourceCurrency', 'destinationCurrency']);
  const currency = req.amountDirection === 'source' ? s : d;
  const scale = scaleOf(currency);
  const amount = dec(req.amount);
  if (amount.decimalPlaces() > scale) {
    // The nearest amount the currency can carry, or its smallest unit when that rounds to nothing.
    const near = amount.toDecimalPlaces(scale);
    const example = (near.isZero() ? dec(10).pow(-scale) : near).toFixed(scale);
    const message = `The amount is in ${currency}, which takes at most ${scale} decimal places; got ${amount.toFixed()}. Send it with at most ${scale} decimal places, e.g. ${example}.`;
    throw new SandboxError('VALIDATION_ERROR', message, [
      { field: 'amount', issue: `must have at most ${scale} decimal places for ${currency}` },
    ]);
  }
}

/** How a quote is made besides its request: express quotes, and the pools of one chain only. */
export interface QuoteOptions {
  quoteType?: 'quote' | 'express';
  /** Only pools on this chain (the partner named a network). */
  chain?: string;
  /** The payment-specific quote a quote made as one carries from creation (POST /api/v1/quotes),
   * attached before its first event so that event's total is the one the partner is answered. */
  withPayment?: (q: QuoteRecord) => PaymentQuote;
}

export function createQuote(t: Tenant, req: CreateIntentRequest, scenario?: string, opts: QuoteOptions = {}): QuoteRecord {
  t.checkRoom();
  checkIntent(req);
  const all = pairPools(tenantPools(t), req.sourceCurrency, req.destinationCurrency);
  const pools = opts.chain ? poolsOnChain(all, req, opts.chain) : all;
  const allocation = () =>
    allocate({
      source: req.sourceCurrency,
      destination: req.destinationCurrency,
      amount: dec(req.amount),
      amountDirection: req.amountDirection,
      ...(req.rate !== undefined ? { rate: dec(req.rate) } : {}),
      pools,
    });
  const result = opts.chain ? onChain(allocation, opts.chain) : allocation();
  const behaviour = t.behaviour(scenario);
  const ttl = quote.ttlOf(behaviour);
  const now = t.now();
  const createdAt = iso(now);
  const expiresAt = iso(now + ttl * 1000);
  const quoteId = t.random.uuid();
  const orderReference = newOrderReference(t.random);
  const allocations = allocationViews(t, result, pools, orderReference);
  const best = allocations[0];
  const deposit = newDeposit(t);
  // One shape for every quote (docs/architecture.md, "Records of one shape"); the view is built when read.
  const record: QuoteRecord = {
    quoteId,
    status: 'pending',
    source: result.source,
    destination: result.destination,
    amount: req.amount,
    clientId: clientIdOf(t),
    ttl,
    allocations,
    addressId: deposit.addressId,
    address: deposit.address,
    virtualAccountId: deposit.virtualAccountId,
    derivationIndex: deposit.derivationIndex,
    chatMetadata: chatMetadata(createdAt, req.rate, { poolId: best.poolId, rate: pools.find((p) => p.id === best.poolId)!.rate }, t),
    amountDirection: req.amountDirection,
    createdAt,
    expiresAt,
    updatedAt: createdAt,
    completedAt: null,
    orderReference,
    // A quote's chain and token come from its pools, its reference is the order's.
    outcome: quote.outcome(behaviour, {
      req,
      chain: best.metadata.chain,
      token: tokenOf(result.source, result.destination),
      reference: orderReference,
    }),
    ...(scenario ? { scenario } : {}),
    payment: null,
    payoutTo: null,
    ...(opts.quoteType === 'express' ? { quoteType: 'express' as const } : {}),
  };
  if (opts.withPayment) record.payment = opts.withPayment(record);
  quotes(t).put(quoteId, record);
  t.scheduler.enqueue(EXPIRE, quoteId, now + ttl * 1000);
  quote.emit(t, 'pending', record, eventView[t.mode]);
  return record;
}

/** The pools of the request's pair on one chain; none there is 400 naming the chains that have some. */
function poolsOnChain(pools: readonly Pool[], req: CreateIntentRequest, chain: string): Pool[] {
  const pair = poolsForPair(pools, req.sourceCurrency, req.destinationCurrency);
  const on = pair.filter((p) => p.chain === chain);
  if (on.length === 0) {
    const chains = [...new Set(pair.map((p) => p.chain))].join(', ');
    throw new SandboxError(
      'VALIDATION_ERROR',
      `No ${req.sourceCurrency}→${req.destinationCurrency} pool is on ${chain}. Send destinationNetwork as one of ${chains}, or leave it out for the best pools on any chain.`,
      [{ field: 'destinationNetwork', issue: `must be one of ${chains} for ${req.sourceCurrency}→${req.destinationCurrency}` }],
    );
  }
  return on;
}

/** Liquidity refused on one chain says so, and names destinationNetwork: the pools of the other chains were not looked at. */
function onChain<R>(allocation: () => R, chain: string): R {
  try {
    return allocation();
  } catch (e) {
    if (!(e instanceof SandboxError) || e.code !== 'INSUFFICIENT_LIQUIDITY') throw e;
    throw new SandboxError(
      e.code,
      `${e.message.replace(' liquidity', ` liquidity on ${chain}`)} Only the pools on ${chain} were used, as destinationNetwork asks; leave it out to fill from every chain.`,
      [...e.details, { field: 'destinationNetwork', issue: `leaves out the pools on every chain but ${chain}` }],
    );
  }
}

export function getQuote(t: Tenant, id: string): QuoteRecord {
  // Quote ids are stored lower case (the case a UUID is made in); one sent in upper case names the same quote.
  const q = quotes(t).get(id.toLowerCase());
  if (!q) throw notFound('marketplace quote', id, 'quoteId', undefined, 'id');
  return quoteOf(q);
}

/**
 * Drop one allocation of a pending quote; the freed amount is not re-allocated. The same PUT again
 * (a retry, which HTTP clients may send on their own for an idempotent method) answers the quote as
 * it stands, marked replayed, in any state.
 */
export function removeAllocation(t: Tenant, id: string, itemId: string): { quote: MarketplaceQuote; replayed: boolean } {
  const q = getQuote(t, id);
  const item = itemId.toLowerCase();
  if (q.removed?.includes(item)) return { quote: quoteView(t, q), replayed: true };
  quoteMachine.next(q.status, 'remove', id);
  const all = q.allocations;
  const kept = all.filter((a) => a.id !== item);
  if (kept.length === all.length) {
    throw new SandboxError('RESOURCE_NOT_FOUND', `Quote '${id}' has no allocation '${itemId}'. Use an id from allocationResult.allocations.`, [
      { field: 'itemId', issue: 'is not an allocation of this quote' },
    ]);
  }
  if (kept.length === 0) {
    throw new SandboxError(
      'INVALID_STATE_TRANSITION',
      `Allocation '${itemId}' is the last one of quote '${id}'; a quote keeps at least one. Create a new intent for the amount you want instead; this quote expires at the end of its ttl.`,
    );
  }
  // The chain, totals and deposit address block follow from the allocations left.
  const next: QuoteRecord = { ...q, allocations: kept, removed: [...(q.removed ?? []), item], updatedAt: t.nowIso() };
  // A quote made as a payment-specific one (POST /api/v1/quotes) has it already: its amounts, rate,
  // provider and network follow the allocations left; its reference and instant stay.
  if (q.payment) next.payment = paymentQuote(t, next, q.payment.createdAt, q.payment.HyperRailReference);
  quotes(t).put(q.quoteId, next);
  return { quote: quoteView(t, next), replayed: false };
}

/** Apply one move of the machine with its side effects, and emit quote.<state>. */
export function moveQuote(t: Tenant, id: string, event: QuoteEvent, patch: Partial<QuoteRecord> = {}): QuoteRecord {
  const q = getQuote(t, id);
  const status = quoteMachine.next(q.status, event, id);
  const now = t.nowIso();
  // Copied into a fresh object: a patch's new fields (completion) added to a spread copy cost V8 a new map each time.
  let next: QuoteRecord = Object.assign({}, q, patch, { status, updatedAt: now });
  if (status === 'completed') next = { ...next, completedAt: now };
  if (quoteMachine.isTerminal(status)) t.scheduler.cancelFor(q.quoteId);
  quotes(t).put(q.quoteId, next);
  if (status === 'completed') {
    const { allocations } = next;
    drawDown(t, allocations.flatMap((a) => poolDraws({ ...a, settlement: a.metadata.settlement })));
  }
  quote.emit(t, status, next, eventView[t.mode]);
  if (status === 'completed') quote.emitExtra(t, 'order.successful', next, orderView[t.mode]);
  return next;
}

/**
 * After completion: the pay-in arrives after the scenario's awaiting_payment time, or, when its
 * outcome rule says `after`, that many seconds after creation (at once for a quote completed later),
 * unless the ttl runs out first.
 */
export function schedulePayIn(t: Tenant, q: QuoteRecord): void {
  if (!q.outcome.succeed) return;
  const now = t.now();
  const { after } = q.outcome;
  const due = after === undefined ? now + quote.duration(t.behaviour(q.scenario), 'awaiting_payment') * 1000 : Math.max(now, Date.parse(q.createdAt) + after * 1000);
  if (due < expiresAtMs(q)) t.scheduler.enqueue(PAY_IN, q.quoteId, due);
}

function onExpire(t: Tenant, job: Job): void {
  const q = quotes(t).get(job.ref);
  if (q && quoteMachine.can(quoteOf(q).status, 'expire')) moveQuote(t, job.ref, 'expire');
}

function onPayIn(t: Tenant, job: Job): void {
  const q = quotes(t).get(job.ref);
  if (q && quoteMachine.can(quoteOf(q).status, 'pay-in')) moveQuote(t, job.ref, 'pay-in');
}

export const quoteJobs = { [EXPIRE]: onExpire, [PAY_IN]: onPayIn };
