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
import type { CompleteQuoteRequest, MarketplaceQuote, PaymentQuote } from './quotes.schema.js';

/** A quote as stored: the response plus what its lifecycle needs. */
export interface QuoteRecord {
  view: MarketplaceQuote;
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
  /** express: the pools were chosen for the partner (POST .../express/quote). */
  quoteType?: 'quote' | 'express';
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

/** The deposit address block: active while the quote can be paid; it expects tokens only when the source is a token. */
export function cryptoPayIn(
  t: Tenant,
  q: { quoteId: string; source: string; destination: string; chain: string; totalSourceAmount: number; createdAt: string; expiresAt: string },
): MarketplaceQuote['metadata']['cryptoPayIn'] {
  const index = nextDerivationIndex(t);
  const bySource = isToken(q.source);
  const token = tokenOf(q.source, q.destination);
  return {
    addressId: t.random.uuid(),
    address: depositAddress(t, index),
    chain: q.chain,
    token,
    addressType: 'deposit',
    expectedAmount: bySource ? q.totalSourceAmount : 0,
    externalReference: q.quoteId,
    status: 'active',
    createdAt: q.createdAt,
    expiresAt: q.expiresAt,
    virtualAccountId: derivedUuid(`virtual-account:${t.id}:${index}`),
    derivationIndex: index,
    warningMessage: cryptoWarning(q.source, q.totalSourceAmount, q.chain, q.expiresAt),
  };
}

export function cryptoWarning(source: string, amount: number, chain: string, expiresAt: string): string {
  return isToken(source)
    ? `Send exactly ${amount} ${source} on ${chain} to this address before ${expiresAt}; any other token, chain or amount is not credited.`
    : 'This quote is paid in by bank transfer to the bankPayIn account; do not send tokens to this address.';
}

/** The negotiation of a proposed rate; without one, an empty object (no field is ever null). */
export function chatMetadata(createdAt: string, proposedRate: number | undefined, best: { poolId: string; rate: string } | undefined, t: Tenant): MarketplaceQuote['chatMetadata'] {
  if (proposedRate === undefined || !best) return {};
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
  const v = q.view;
  return {
    quoteId: v.quoteId,
    merchantId: v.clientId,
    sourceCurrency: v.source,
    destinationCurrency: v.destination,
    // A fiat to fiat order names no chain, as the live service's do: the partner pays and is paid by bank.
    chain: isFiatPair(v.source, v.destination) ? null : v.chain,
    reference: q.orderReference,
    status: v.status,
    mode: mode === 'sandbox' ? 'test' : 'live',
    amount: v.totalSourceAmount,
    receiveAmount: v.totalDestinationAmount,
    totalAmount: q.payment?.totalAmount ?? v.totalSourceAmount,
    createdAt: q.createdAt,
    expiresAt: q.expiresAt,
    completedAt: q.completedAt,
    rate: v.allocationResult.weightedAverageRate,
    quoteType: q.quoteType ?? 'quote',
  };
};

/** The event view of a key's quotes, by the key's mode. */
export const eventView: Record<Mode, (q: QuoteRecord) => Record<string, unknown>> = { sandbox: eventData('sandbox'), live: eventData('live') };
