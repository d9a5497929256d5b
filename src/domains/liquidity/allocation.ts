// The liquidity-pool allocation engine: splits one conversion across the marketplace pools,
// best rate first. Pure code, shared by the marketplace quotes and the XML FX trade interface.
//
// Conventions (facts of the live service):
// - A pool's rate is fiat units per one token in BOTH directions. Fiat to token delivers
//   source / rate, token to fiat delivers source * rate.
// - Best rate first: the lowest rate for fiat to token, the highest for token to fiat.
// - One fiat to another (GHS→NGN) goes through USDT: its pools are the cross pools of cross.ts, whose
//   rate is destination units per one source unit, so they convert as token to fiat does (source *
//   rate, the highest rate first).
// - availableBalance is in destination units; an allocation never takes more than it.
//
// Rounding: amounts are kept to the currency's scale (2 fiat, 6 tokens). The fixed side is cut
// into grid-aligned pieces, so it sums to the request exactly. The computed side is rounded in
// the pools' favour, per allocation: a computed destination is rounded down (never more than
// the exact conversion, so never more than the pool holds), a computed source is rounded up
// (never zero). Totals are the plain sums of the allocations.
import { SandboxError } from '../../kernel/errors.js';
import { Decimal, scaleOf } from '../../kernel/money.js';
import { FIAT_CURRENCIES, TOKEN_CURRENCIES } from './pools.js';

export type AmountDirection = 'source' | 'destination';

/** What the engine needs of a pool; a fixture Pool fits, and so does a live copy with Decimals. */
export interface LiquidityPool {
  id: string;
  accountId: string;
  clientId: string;
  source: string;
  destination: string;
  /** Fiat units per one token. */
  rate: Decimal.Value;
  /** Destination units the pool can still deliver. */
  availableBalance: Decimal.Value;
}

export interface AllocationInput {
  source: string;
  destination: string;
  /** The fixed amount, in source or destination units depending on amountDirection. */
  amount: Decimal.Value;
  amountDirection: AmountDirection;
  /** Optional proposed rate (fiat per token): pools worse than it are left out. */
  rate?: Decimal.Value;
  pools: readonly LiquidityPool[];
  /** Caps every amount's decimals below its currency's own (the FX interface writes at most 5). */
  maxDecimals?: number;
}

export interface Allocation {
  poolId: string;
  poolAccountId: string;
  clientId: string;
  /** The pool's rate, fiat per token. */
  rate: Decimal;
  /** Source units the partner pays into this pool. */
  sourceAmount: Decimal;
  /** Destination units this pool delivers. */
  allocatedAmount: Decimal;
}

export interface AllocationResult {
  source: string;
  destination: string;
  amountDirection: AmountDirection;
  /** Sum of the allocations' sourceAmount. */
  totalSourceAmount: Decimal;
  /** Sum of the allocations' allocatedAmount. */
  totalDestinationAmount: Decimal;
  /** Total fiat / total token (fiat to fiat: total destination / total source), at most 10 decimals, within the best and worst rate used. */
  weightedAverageRate: Decimal;
  /** Best rate first. */
  allocations: Allocation[];
}

/** Rate decimals of weightedAverageRate. */
export const RATE_DECIMALS = 10;

// Working precision for conversions: far more digits than any amount needs, so the only
// rounding that matters is the explicit one to the currency's scale.
const X = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const x = (v: Decimal.Value): Decimal => new X(v);
const out = (v: Decimal): Decimal => new Decimal(v);

/** The smallest amount at a scale (0.01 at 2), by scale: worked out once. */
const units: Decimal[] = [];
const unitOf = (scale: number): Decimal => (units[scale] ??= x(1).div(x(10).pow(scale)));

const TOKENS: ReadonlySet<string> = new Set(TOKEN_CURRENCIES);
const known = [...FIAT_CURRENCIES, ...TOKEN_CURRENCIES].join(', ');
const FIATS: ReadonlySet<string> = new Set(FIAT_CURRENCIES);

export function isToken(currency: string): boolean {
  return TOKENS.has(currency.toUpperCase());
}

export function isFiat(currency: string): boolean {
  return FIATS.has(currency.toUpperCase());
}

/** One fiat to another (GHS→NGN): priced as the cross of their two USDT markets (cross.ts). */
export function isFiatPair(source: string, destination: string): boolean {
  return isFiat(source) && isFiat(destination) && source.toUpperCase() !== destination.toUpperCase();
}

/** Pools convert between one fiat and one token, either way, and one fiat to another through USDT. */
export function isSupportedPair(source: string, destination: string): boolean {
  return (isFiat(source) && isToken(destination)) || (isToken(source) && isFiat(destination)) || isFiatPair(source, destination);
}

/**
 * The pools of `pools` that convert source to destination, best rate first (ties: larger
 * balance first, then id). Pass the tenant's pools to see live balances.
 */
export function poolsForPair<P extends LiquidityPool>(pools: readonly P[], source: string, destination: string): readonly P[] {
  const s = source.toUpperCase();
  const d = destination.toUpperCase();
  return perPools(pools, `${s}>${d}`, () => orderedPools(pools, s, d));
}

/**
 * What depends only on an array of pools and a key (a pair's order, its cross pools), worked out
 * once per array: the same pools (the market's of one minute, while the key has drawn on none) are
 * looked at by every request.
 */
export function perPools<T>(pools: readonly LiquidityPool[], key: string, work: () => T): T {
  let kept = byPools.get(pools);
  if (kept === undefined) byPools.set(pools, (kept = new Map()));
  let found = kept.get(key) as T | undefined;
  if (found === undefined) kept.set(key, (found = work()));
  return found;
}

const byPools = new WeakMap<readonly LiquidityPool[], Map<string, unknown>>();

function orderedPools<P extends LiquidityPool>(pools: readonly P[], s: string, d: string): readonly P[] {
  const fiatToToken = isToken(d);
  return pools
    .filter((p) => p.source.toUpperCase() === s && p.destination.toUpperCase() === d)
    .sort((a, b) => {
      // Number() is monotonic, so differing doubles order the decimals alike; equal ones may be
      // different decimals, which the exact comparison tells apart.
      const ra = Number(a.rate);
      const rb = Number(b.rate);
      const byRate = ra < rb ? -1 : ra > rb ? 1 : x(a.rate).cmp(b.rate);
      if (byRate !== 0) return fiatToToken ? byRate : -byRate;
      const byBalance = x(b.availableBalance).cmp(a.availableBalance);
      if (byBalance !== 0) return byBalance;
      return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
}

/** Whether `rate` is worse for the partner than `limit` (fiat to token: higher; token to fiat and fiat to fiat: lower). */
export function isWorseRate(destination: string, rate: Decimal.Value, limit: Decimal.Value): boolean {
  return isToken(destination) ? x(rate).gt(limit) : x(rate).lt(limit);
}

interface Leg {
  pool: LiquidityPool;
  rate: Decimal;
  /** Destination units the pool holds, on the destination grid. */
  balance: Decimal;
  /** The most this pool takes of the fixed side, on the fixed side's grid. */
  capacity: Decimal;
}

function positive(value: Decimal.Value, field: string, what: string): Decimal {
  let d: Decimal;
  try {
    d = x(value);
  } catch {
    throw new SandboxError('VALIDATION_ERROR', `The ${what} '${String(value)}' is not a decimal number.`, [
      { field, issue: 'must be a decimal number' },
    ]);
  }
  if (!d.isFinite() || d.lte(0)) {
    throw new SandboxError('VALIDATION_ERROR', `The ${what} must be greater than zero; got ${String(value)}.`, [
      { field, issue: 'must be greater than zero' },
    ]);
  }
  return d;
}

/**
 * Split a conversion across the pools, best rate first. The fixed side (amountDirection) totals
 * exactly the requested amount rounded half-up to its currency's scale.
 *
 * Throws SandboxError: UNSUPPORTED_CURRENCY (neither a fiat/token pair nor two fiats), VALIDATION_ERROR (amount or
 * rate not positive, or too small to convert), INSUFFICIENT_LIQUIDITY (the eligible pools cannot
 * fill it).
 */
export function allocate(input: AllocationInput): AllocationResult {
  const source = input.source.toUpperCase();
  const destination = input.destination.toUpperCase();
  const { amountDirection } = input;
  checkPair(source, destination);

  const fiatToToken = isToken(destination);
  const scale = (currency: string) => Math.min(scaleOf(currency), input.maxDecimals ?? Infinity);
  const srcScale = scale(source);
  const dstScale = scale(destination);
  const fixedBySource = amountDirection === 'source';
  const fixedCurrency = fixedBySource ? source : destination;
  const otherCurrency = fixedBySource ? destination : source;
  const fixedScale = fixedBySource ? srcScale : dstScale;

  const requested = positive(input.amount, 'amount', 'amount').toDecimalPlaces(fixedScale, Decimal.ROUND_HALF_UP);
  if (requested.isZero()) {
    throw new SandboxError(
      'VALIDATION_ERROR',
      `The amount ${String(input.amount)} ${fixedCurrency} rounds to zero at ${fixedScale} decimal places. ` +
        `Send at least ${new Decimal(10).pow(-fixedScale).toFixed(fixedScale)} ${fixedCurrency}.`,
      [{ field: 'amount', issue: `rounds to zero at ${fixedScale} decimal places` }],
    );
  }
  const limit = input.rate === undefined ? undefined : positive(input.rate, 'rate', 'rate');

  const toDest = (amount: Decimal, rate: Decimal) => (fiatToToken ? amount.div(rate) : amount.mul(rate));
  const toSource = (amount: Decimal, rate: Decimal) => (fiatToToken ? amount.mul(rate) : amount.div(rate));
  // The computed side of a fixed-side piece, rounded in the pool's favour.
  const counterpart = (fixed: Decimal, rate: Decimal) =>
    fixedBySource
      ? toDest(fixed, rate).toDecimalPlaces(dstScale, Decimal.ROUND_DOWN)
      : toSource(fixed, rate).toDecimalPlaces(srcScale, Decimal.ROUND_UP);

  // The source a pool takes when the source is fixed and the pool is filled: the least source
  // that delivers the most the pool can. The most source whose rounded-down destination still
  // fits the balance is the last grid step strictly below toSource(balance + one destination
  // unit); what that delivers is the pool's reachable maximum (usually its whole balance), and
  // the least source that rounds down to that maximum is what the pool is filled with.
  const srcUnit = unitOf(srcScale);
  const dstUnit = unitOf(dstScale);
  const sourceCapacity = (balance: Decimal, rate: Decimal) => {
    const bound = toSource(balance.plus(dstUnit), rate);
    const below = bound.toDecimalPlaces(srcScale, Decimal.ROUND_DOWN);
    const most = below.eq(bound) ? below.minus(srcUnit) : below;
    if (most.lte(0)) return x(0);
    const reachable = toDest(most, rate).toDecimalPlaces(dstScale, Decimal.ROUND_DOWN);
    return toSource(reachable, rate).toDecimalPlaces(srcScale, Decimal.ROUND_UP);
  };

  const candidates = poolsForPair(input.pools, source, destination);
  // Pools are looked at best first only until they can fill the request: the picks below never
  // reach further, and only a request they cannot fill needs every pool (for the refusal's totals).
  const legs: Leg[] = [];
  let available = x(0);
  for (const pool of candidates) {
    if (available.gte(requested)) break;
    const rate = x(pool.rate);
    if (!rate.isFinite() || rate.lte(0)) continue;
    if (limit && isWorseRate(destination, rate, limit)) continue;
    const balance = x(pool.availableBalance).toDecimalPlaces(dstScale, Decimal.ROUND_DOWN);
    if (!balance.isFinite() || balance.lte(0)) continue;
    const capacity = fixedBySource ? sourceCapacity(balance, rate) : balance;
    // A pool whose whole capacity converts to nothing on the other side cannot be used.
    if (capacity.lte(0) || counterpart(capacity, rate).lte(0)) continue;
    legs.push({ pool, rate, balance, capacity });
    available = available.plus(capacity);
  }

  if (available.lt(requested)) {
    throw insufficient({
      source,
      destination,
      fixedCurrency,
      otherCurrency,
      fixedScale,
      requested,
      available,
      availableOther: legs.reduce((sum, l) => sum.plus(counterpart(l.capacity, l.rate)), x(0)),
      otherScale: fixedBySource ? dstScale : srcScale,
      limit,
      bestOnOffer: candidates.find((p) => x(p.availableBalance).gt(0) && x(p.rate).gt(0))?.rate,
    });
  }

  const picked: { leg: Leg; sourceAmount: Decimal; allocatedAmount: Decimal }[] = [];
  let remaining = requested;
  for (const leg of legs) {
    if (remaining.isZero()) break;
    const take = X.min(leg.capacity, remaining);
    remaining = remaining.minus(take);
    const other = counterpart(take, leg.rate);
    if (other.gt(0)) {
      picked.push(
        fixedBySource
          ? { leg, sourceAmount: take, allocatedAmount: other }
          : { leg, sourceAmount: other, allocatedAmount: take },
      );
      continue;
    }
    // Only a source-fixed remainder too small to deliver anything gets here (a computed source
    // is rounded up, so it is never zero). Fold it into the previous allocation: the partner
    // pays that dust to a pool with a better rate, which delivers whatever more it now can
    // without going past its balance.
    const last = picked[picked.length - 1];
    if (!last) {
      throw new SandboxError(
        'VALIDATION_ERROR',
        `The amount ${requested.toFixed(fixedScale)} ${fixedCurrency} converts to less than the smallest ${destination} unit (${dstUnit.toFixed(dstScale)}).`,
        [{ field: 'amount', issue: `too small to deliver any ${destination}` }],
      );
    }
    last.sourceAmount = last.sourceAmount.plus(take);
    last.allocatedAmount = X.min(last.leg.balance, counterpart(last.sourceAmount, last.leg.rate));
  }

  const totalSource = picked.reduce((sum, p) => sum.plus(p.sourceAmount), x(0));
  const totalDestination = picked.reduce((sum, p) => sum.plus(p.allocatedAmount), x(0));
  const fixedTotal = fixedBySource ? totalSource : totalDestination;
  if (!fixedTotal.eq(requested)) {
    // Unreachable by construction; a loud failure beats a silently wrong trade.
    throw new SandboxError('INTERNAL_ERROR', 'Allocation total does not match the requested amount.');
  }

  const rates = picked.map((p) => p.leg.rate);
  const totalFiat = fiatToToken ? totalSource : totalDestination;
  const totalToken = fiatToToken ? totalDestination : totalSource;
  const weightedAverageRate = averageRate(totalFiat, totalToken, X.min(...rates), X.max(...rates));

  return {
    source,
    destination,
    amountDirection,
    totalSourceAmount: out(totalSource),
    totalDestinationAmount: out(totalDestination),
    weightedAverageRate: out(weightedAverageRate),
    allocations: picked.map((p) => ({
      poolId: p.leg.pool.id,
      poolAccountId: p.leg.pool.accountId,
      clientId: p.leg.pool.clientId,
      rate: out(p.leg.rate),
      sourceAmount: out(p.sourceAmount),
      allocatedAmount: out(p.allocatedAmount),
    })),
  };
}

/**
 * totalFiat / totalToken to RATE_DECIMALS places, kept within [min, max] of the rates used:
 * per-allocation rounding can push the plain quotient a hair outside (a single pool at 1580.5
 * gives 50000 / 31.635558 = 1580.50001...), and the reported rate must be one actually offered.
 */
function averageRate(totalFiat: Decimal, totalToken: Decimal, min: Decimal, max: Decimal): Decimal {
  const raw = x(totalFiat).div(totalToken).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_HALF_UP);
  const lo = x(min).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_UP);
  const hi = x(max).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_DOWN);
  if (lo.gt(hi)) return x(min).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_HALF_UP); // one rate finer than 10 places
  return raw.lt(lo) ? lo : raw.gt(hi) ? hi : raw;
}

/** 400 UNSUPPORTED_CURRENCY unless source → destination is a fiat/token pair or two fiats, and 400
 * VALIDATION_ERROR for one fiat on both sides; `fields` name the two in the request (the maker rates
 * take them as from and to, quotes as sourceCurrency and destinationCurrency). */
export function checkPair(source: string, destination: string, fields: readonly [string, string] = ['source', 'destination']): void {
  for (const [field, code] of [
    [fields[0], source],
    [fields[1], destination],
  ] as const) {
    if (!isFiat(code) && !isToken(code)) {
      throw new SandboxError('UNSUPPORTED_CURRENCY', `Currency '${code}' is not supported; use one of ${known}.`, [
        { field, issue: `must be one of ${known}` },
      ]);
    }
  }
  if (isSupportedPair(source, destination)) return;
  if (isFiat(source)) {
    const others = FIAT_CURRENCIES.filter((c) => c !== source.toUpperCase());
    throw new SandboxError(
      'VALIDATION_ERROR',
      `${fields[0]} and ${fields[1]} are both ${source.toUpperCase()}: there is nothing to convert. Send another currency as ${fields[1]}: a token ` +
        `(${TOKEN_CURRENCIES.join(', ')}) or another fiat currency (${others.join(', ')}).`,
      [
        { field: fields[0], issue: `must differ from ${fields[1]}` },
        { field: fields[1], issue: `must differ from ${fields[0]}` },
      ],
    );
  }
  throw new SandboxError(
    'UNSUPPORTED_CURRENCY',
    `Converting ${source.toUpperCase()} to ${destination.toUpperCase()} is not supported: pools convert between a fiat currency ` +
      `(${FIAT_CURRENCIES.join(', ')}) and a token (${TOKEN_CURRENCIES.join(', ')}), either way, and one fiat currency to another; ` +
      `never one token to another. Send a fiat currency as ${fields[1]}.`,
    [{ field: fields[1], issue: `must be a fiat currency (${FIAT_CURRENCIES.join(', ')}) when ${fields[0]} is ${source.toUpperCase()}` }],
  );
}

function insufficient(a: {
  source: string;
  destination: string;
  fixedCurrency: string;
  otherCurrency: string;
  fixedScale: number;
  otherScale: number;
  requested: Decimal;
  available: Decimal;
  availableOther: Decimal;
  limit?: Decimal;
  bestOnOffer?: Decimal.Value;
}): SandboxError {
  const pair = `${a.source} to ${a.destination}`;
  const atRate = a.limit ? ` at a rate of ${a.limit.toFixed()} or better` : '';
  const req = `${a.requested.toFixed(a.fixedScale)} ${a.fixedCurrency}`;
  const avail = `${a.available.toFixed(a.fixedScale)} ${a.fixedCurrency}`;
  let message: string;
  if (a.available.isZero()) {
    message =
      `No ${pair} liquidity is available${atRate}, so ${req} cannot be filled.` +
      (a.limit && a.bestOnOffer !== undefined
        ? ` The best rate on offer is ${x(a.bestOnOffer).toFixed()}; send that rate or none instead.`
        : ' Try again later or choose another currency pair.');
  } else {
    message =
      `Not enough ${pair} liquidity${atRate}: ${req} was requested but at most ${avail} ` +
      `(${a.availableOther.toFixed(a.otherScale)} ${a.otherCurrency}) can be filled. ` +
      `Send ${avail} or less instead` +
      (a.limit ? ', or propose a less strict rate.' : '.');
  }
  return new SandboxError('INSUFFICIENT_LIQUIDITY', message, [
    { field: 'amount', issue: `exceeds the available liquidity of ${avail}` },
    ...(a.limit ? [{ field: 'rate', issue: 'leaves out every pool with a worse rate' }] : []),
  ]);
}
