// The pieces of a marketplace quote: allocations as the API shows them, totals, pay-in details,
// chat metadata and the event payload. No state of its own; ids come from the tenant's seeded random.
import { hash as oneShot } from 'node:crypto';
import { derivedUuid } from '../../kernel/ids.js';
import { Decimal, dec, toNumber } from '../../kernel/money.js';
import type { Outcome } from '../../engine/registry/behaviour.js';
import type { TenantRandom } from '../../kernel/random.js';
import type { Mode, Tenant } from '../../engine/tenancy/tenant.js';
import { isFiatPair, isToken, RATE_DECIMALS, type AllocationResult, type AmountDirection } from '../liquidity/allocation.js';
import { isCrossPool, settlementOf, SETTLEMENT_TOKEN, tokenOf, type CrossPool } from '../liquidity/cross.js';
import type { Pool } from '../liquidity/pools.js';
import { MARKETPLACE_PAY_IN_STATUS, type CompleteQuoteRequest, type MarketplaceQuote, type PaymentQuote, type QuoteStatus } from './quotes.schema.js';

/**
 * A quote as stored: what its view cannot be worked out from, plus what its lifecycle needs. The view
 * (`quoteView`) is built when read: its chain, totals, bank pay-in and most of the deposit address
 * block follow from these fields and the key, so a quote keeps one object and its allocations instead
 * of the whole answer (about a third of the bytes).
 */
export interface QuoteRecord {
  quoteId: string;
  status: QuoteStatus;
  source: string;
  destination: string;
  amount: number;
  clientId: string;
  ttl: number;
  /** As the view shows them; the first one's chain is the quote's. */
  allocations: QuoteAllocationView[];
  /** The deposit address block's own values (the rest follows from the quote). */
  addressId: string;
  address: string;
  virtualAccountId: string;
  derivationIndex: number;
  chatMetadata: MarketplaceQuote['chatMetadata'];
  amountDirection: AmountDirection;
  createdAt: string;
  expiresAt: string;
  updatedAt: string;
  completedAt: string | null;
  /** The service's reference of the order: HPR- plus 32 hex; also the bank pay-in reference. */
  orderReference: string;
  outcome: Outcome;
  scenario?: string;
  /** The payment-specific quote, once completed with a destination. */
  payment: PaymentQuote | null;
  /** The destination that fits the destination currency, once completed. */
  payoutTo: CompleteQuoteRequest['destination'] | null;
  /** The fingerprint of the request that completed it: the same request again is a replay. */
  completion?: string;
  /** The ids of the allocations removed, in order: removing one again is a replay. */
  removed?: string[];
  /** express: the pools were chosen for the partner (POST .../express/quote). */
  quoteType?: 'quote' | 'express';
}

/** A quote as the version before stored it: the whole view, and the lifecycle's fields beside it. */
interface EarlierQuoteRecord extends Omit<QuoteRecord, 'quoteId' | 'status' | 'source' | 'destination' | 'amount' | 'clientId' | 'ttl' | 'allocations' | 'addressId' | 'address' | 'virtualAccountId' | 'derivationIndex' | 'chatMetadata'> {
  view: MarketplaceQuote;
}

/** A quote as the store may hold it: this version's form, or the one before (files and rows written by it). */
export type StoredQuote = QuoteRecord | EarlierQuoteRecord;

/** The chat metadata of a quote made without a proposed rate: one object for all of them. */
export const NO_CHAT: MarketplaceQuote['chatMetadata'] = Object.freeze({});

/** A stored quote in this version's form: one the version before wrote is read from its view. */
export function quoteOf(r: StoredQuote): QuoteRecord {
  if (!('view' in r)) return r;
  const v = r.view;
  const c = v.metadata.cryptoPayIn;
  return {
    quoteId: v.quoteId,
    status: v.status,
    source: v.source,
    destination: v.destination,
    amount: v.amount,
    clientId: v.clientId,
    ttl: v.ttl,
    allocations: v.allocationResult.allocations,
    addressId: c.addressId,
    address: c.address,
    virtualAccountId: c.virtualAccountId,
    derivationIndex: c.derivationIndex,
    chatMetadata: v.chatMetadata,
    amountDirection: r.amountDirection,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    updatedAt: r.updatedAt,
    completedAt: r.completedAt,
    orderReference: r.orderReference,
    outcome: r.outcome,
    ...(r.scenario !== undefined ? { scenario: r.scenario } : {}),
    payment: r.payment,
    payoutTo: r.payoutTo,
    ...(r.completion !== undefined ? { completion: r.completion } : {}),
    ...(r.removed !== undefined ? { removed: r.removed } : {}),
    ...(r.quoteType !== undefined ? { quoteType: r.quoteType } : {}),
  };
}

/** A quote's chain: its best allocation's. */
export const chainOf = (q: QuoteRecord) => q.allocations[0].metadata.chain;

/** The quote as the API shows it, built from the record field by field in the answer's order. */
export function quoteView(t: Tenant, q: QuoteRecord): MarketplaceQuote {
  const totals = totalsOf(q.allocations, q.source, q.destination);
  const chain = chainOf(q);
  // What the payer sends to the deposit address: the source total, plus the fees once the quote has a
  // payment-specific quote (which charges them in source units).
  const payIn = isToken(q.source) ? (q.payment?.totalAmount ?? totals.totalSourceAmount) : 0;
  return {
    quoteId: q.quoteId,
    status: q.status,
    source: q.source,
    destination: q.destination,
    chain,
    amount: q.amount,
    totalSourceAmount: totals.totalSourceAmount,
    totalDestinationAmount: totals.totalDestinationAmount,
    clientId: q.clientId,
    mode: t.mode,
    ttl: q.ttl,
    allocationResult: {
      totalSourceAmount: totals.totalSourceAmount,
      totalDestinationAmount: totals.totalDestinationAmount,
      weightedAverageRate: totals.weightedAverageRate,
      allocations: q.allocations,
    },
    metadata: {
      bankPayIn: bankPayIn(t, q.orderReference),
      cryptoPayIn: {
        addressId: q.addressId,
        address: q.address,
        chain,
        token: tokenOf(q.source, q.destination),
        addressType: 'deposit',
        expectedAmount: payIn,
        externalReference: q.quoteId,
        status: MARKETPLACE_PAY_IN_STATUS[q.status],
        createdAt: q.createdAt,
        expiresAt: q.expiresAt,
        virtualAccountId: q.virtualAccountId,
        derivationIndex: q.derivationIndex,
        warningMessage: cryptoWarning(q.source, payIn, chain, q.expiresAt),
      },
    },
    chatMetadata: q.chatMetadata,
  };
}

export type QuoteAllocationView = MarketplaceQuote['allocationResult']['allocations'][number];

/** The service's reference of an order: HPR- plus 32 hex digits (also the bank pay-in reference). */
export const newOrderReference = (r: TenantRandom) => `HPR-${r.hex(32)}`;

/** A payment-specific quote's reference: HR-REF- plus 6 digits. */
export const newHyperRailReference = (r: TenantRandom) => `HR-REF-${r.digits(6)}`;

export const PAY_IN_BANK = { accountName: 'Payments Sandbox Ltd', bankName: 'Access Bank' } as const;
export const PROCESSING_FEE = { name: 'Processing Fee', amount: 0.5, feeType: 'FLAT' as const };

function hash(text: string): string {
  return oneShot('sha256', text, 'hex');
}

/** A value fixed per API key, worked out once per tenant (two hashes per quote otherwise). */
function perTenant<V>(of: (t: Tenant) => V): (t: Tenant) => V {
  const kept = new WeakMap<Tenant, V>();
  return (t) => {
    let v = kept.get(t);
    if (v === undefined) kept.set(t, (v = of(t)));
    return v;
  };
}

/** The partner's client id (merchantId on payment quotes): fixed per API key. */
export const clientIdOf = perTenant((t) => derivedUuid(`marketplace-client:${t.id}`));

/** The collection account a fiat pay-in goes to: one 10-digit account per API key. */
const payInAccountNumber = perTenant((t) =>
  (BigInt(`0x${hash(`pay-in-account:${t.id}`).slice(0, 15)}`) % 10_000_000_000n).toString().padStart(10, '0'),
);

/** The deposit address of derivation index n: an EVM address fixed per API key and index. */
function depositAddress(t: Tenant, index: number): string {
  return `0x${hash(`deposit-address:${t.id}:${index}`).slice(0, 40)}`;
}

const meta = (t: Tenant) => t.store.collection<number>('quote_meta');

/** The next deposit-address derivation index of this key: 0, 1, 2... */
export function nextDerivationIndex(t: Tenant): number {
  const n = meta(t).get('derivationIndex') ?? 0;
  meta(t).put('derivationIndex', n + 1);
  return n;
}

export function allocationViews(t: Tenant, result: AllocationResult, pools: readonly Pool[], orderReference: string): QuoteAllocationView[] {
  return result.allocations.map((a, i) => {
    // One to a few allocations over at most 40 pools: a search each, not a map of every pool.
    const pool = pools.find((p) => p.id === a.poolId)!;
    return {
      id: t.random.uuid(),
      clientId: a.clientId,
      poolId: a.poolId,
      poolAccountId: a.poolAccountId,
      allocatedAmount: toNumber(a.allocatedAmount, result.destination),
      sourceAmount: toNumber(a.sourceAmount, result.source),
      rate: a.rate.toNumber(),
      reference: `${orderReference}-${i + 1}`,
      metadata: { poolName: pool.name, chain: pool.chain, ...(isCrossPool(pool) ? { settlement: settlementView(pool, a.allocatedAmount) } : {}) },
    };
  });
}

/** How an allocation of a cross pool settles, as the quote shows it. */
function settlementView(pool: CrossPool, allocatedAmount: Decimal) {
  const s = settlementOf(pool, allocatedAmount);
  return {
    token: SETTLEMENT_TOKEN,
    tokenAmount: toNumber(s.tokenAmount, SETTLEMENT_TOKEN),
    sourcePoolId: s.sourcePoolId,
    sourceRate: Number(s.sourceRate),
    destinationPoolId: s.destinationPoolId,
    destinationRate: Number(s.destinationRate),
  };
}

/** The payment-specific quote of a quote, built once: at completion (made then), or by POST
 * /api/v1/quotes (made with the quote, at its instant, so it expires its ttl after its creation); made
 * again, with its reference and instant, when an allocation is removed before completion. */
export function paymentQuote(t: Tenant, q: QuoteRecord, createdAt = t.nowIso(), reference?: string): PaymentQuote {
  const v = quoteView(t, q);
  const best = v.allocationResult.allocations[0];
  // The pay-in block without its status, which goes last: set on the copy, not spread into a new
  // object (V8 is slow to add a field to an object made by a spread).
  const { status: _s, ...crypto } = v.metadata.cryptoPayIn;
  const totalAmount = toNumber(dec(v.totalSourceAmount).plus(PROCESSING_FEE.amount), v.source);
  // A token source is paid in at the deposit address: the amount with its fees, totalAmount, is what
  // completes the quote (the view's figure may be a payment-specific quote's made before a removal).
  if (isToken(v.source)) Object.assign(crypto, { expectedAmount: totalAmount, warningMessage: cryptoWarning(v.source, totalAmount, v.chain, q.expiresAt) });
  const cryptoPayIn: PaymentQuote['metadata']['cryptoPayIn'] = Object.assign(crypto, { addressType: 'EVM' as const, status: 'AWAITING_PAYMENT' as const });
  return {
    quoteId: v.quoteId,
    merchantId: v.clientId,
    sourceCurrency: v.source,
    destinationCurrency: v.destination,
    destinationNetwork: isToken(v.destination) ? v.chain : 'BANK',
    rate: v.allocationResult.weightedAverageRate,
    providerId: best.clientId,
    providerBalanceId: best.poolAccountId,
    amount: v.totalSourceAmount,
    receiveAmount: v.totalDestinationAmount,
    totalAmount,
    expiresAt: q.expiresAt,
    createdAt,
    HyperRailReference: reference ?? newHyperRailReference(t.random),
    status: 'PENDING',
    metadata: {
      bankPayIn: v.metadata.bankPayIn,
      cryptoPayIn,
    },
    fees: [{ ...PROCESSING_FEE }],
  };
}

/** Totals of some allocations: the plain sums, and total fiat over total token (fiat to fiat: total
 * destination over total source) kept within the rates used. */
export function totalsOf(allocations: readonly QuoteAllocationView[], source: string, destination: string) {
  if (allocations.length === 1) {
    // One allocation, the usual quote: its amounts are already rounded to their currencies' scales
    // (so each sum is the amount itself), and the average is held to its one rate.
    const [a] = allocations;
    return { totalSourceAmount: a.sourceAmount, totalDestinationAmount: a.allocatedAmount, weightedAverageRate: a.rate };
  }
  const src = allocations.reduce((s, a) => s.plus(a.sourceAmount), dec(0));
  const dst = allocations.reduce((s, a) => s.plus(a.allocatedAmount), dec(0));
  const [fiat, token] = isToken(destination) ? [src, dst] : [dst, src];
  const rates = allocations.map((a) => dec(a.rate));
  const lo = Decimal.min(...rates);
  const hi = Decimal.max(...rates);
  const raw = fiat.div(token).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_HALF_UP);
  const rate = raw.lt(lo) ? lo : raw.gt(hi) ? hi : raw;
  return {
    totalSourceAmount: toNumber(src, source),
    totalDestinationAmount: toNumber(dst, destination),
    weightedAverageRate: rate.toNumber(),
  };
}

export function bankPayIn(t: Tenant, reference: string): MarketplaceQuote['metadata']['bankPayIn'] {
  return { accountName: PAY_IN_BANK.accountName, accountNumber: payInAccountNumber(t), bankName: PAY_IN_BANK.bankName, reference };
}

/** The deposit address of a new quote: the key's next derivation index, its address and virtual
 * account, and a fresh address id. */
export function newDeposit(t: Tenant): Pick<QuoteRecord, 'addressId' | 'address' | 'virtualAccountId' | 'derivationIndex'> {
  const index = nextDerivationIndex(t);
  return {
    addressId: t.random.uuid(),
    address: depositAddress(t, index),
    virtualAccountId: derivedUuid(`virtual-account:${t.id}:${index}`),
    derivationIndex: index,
  };
}

export function cryptoWarning(source: string, amount: number, chain: string, expiresAt: string): string {
  return isToken(source)
    ? `Send exactly ${amount} ${source} on ${chain} to this address before ${expiresAt}; any other token, chain or amount is not credited.`
    : 'This quote is paid in by bank transfer to the bankPayIn account; do not send tokens to this address.';
}

/** The negotiation of a proposed rate; without one, an empty object (no field is ever null). */
export function chatMetadata(createdAt: string, proposedRate: number | undefined, best: { poolId: string; rate: string } | undefined, t: Tenant): MarketplaceQuote['chatMetadata'] {
  if (proposedRate === undefined || !best) return NO_CHAT;
  return {
    conversationId: t.random.uuid(),
    chatQuoteId: t.random.uuid(),
    listingId: best.poolId,
    initialListingRate: best.rate,
    negotiationStartedAt: createdAt,
    quoteSentAt: createdAt,
  };
}

/** expiresAt as ms, for the scheduler. */
export const expiresAtMs = (q: QuoteRecord) => Date.parse(q.expiresAt);

/** The live service's order payload (quote.* and order.*) of a quote of a sandbox or live key; the
 * event log gives it snake_case keys. */
const eventData = (mode: Mode) => (q: QuoteRecord): Record<string, unknown> => {
  const totals = totalsOf(q.allocations, q.source, q.destination);
  return {
    quoteId: q.quoteId,
    merchantId: q.clientId,
    sourceCurrency: q.source,
    destinationCurrency: q.destination,
    // A fiat to fiat order names no chain, as the live service's do: the partner pays and is paid by bank.
    chain: isFiatPair(q.source, q.destination) ? null : chainOf(q),
    reference: q.orderReference,
    status: q.status,
    mode: mode === 'sandbox' ? 'test' : 'live',
    amount: totals.totalSourceAmount,
    receiveAmount: totals.totalDestinationAmount,
    totalAmount: q.payment?.totalAmount ?? totals.totalSourceAmount,
    createdAt: q.createdAt,
    expiresAt: q.expiresAt,
    completedAt: q.completedAt,
    rate: totals.weightedAverageRate,
    quoteType: q.quoteType ?? 'quote',
  };
};

/** The event view of a key's quotes, by the key's mode. */
export const eventView: Record<Mode, (q: QuoteRecord) => Record<string, unknown>> = { sandbox: eventData('sandbox'), live: eventData('live') };

/** The view order.successful carries: the order's status, `successful`, as the live service names an
 * order's statuses (pending, successful, expired, insufficient-balance, failed), where the quote.*
 * events carry the quote's own. */
const orderData = (mode: Mode) => {
  const data = eventData(mode);
  return (q: QuoteRecord): Record<string, unknown> => ({ ...data(q), status: 'successful' });
};
export const orderView: Record<Mode, (q: QuoteRecord) => Record<string, unknown>> = { sandbox: orderData('sandbox'), live: orderData('live') };
