// One fiat currency to another (GHS→NGN), with USDT as the settlement layer: the cross of the two
// fiat–USDT markets. A cross pool pairs a pool paid in the source fiat for USDT (GHS→USDT) with a
// pool paying USDT out in the destination fiat (USDT→NGN) on the same chain, so that the allocation
// engine fills a fiat pair from cross pools as it fills any pair from pools (allocation.ts).
//
// - Rate: destination units per one source unit, the destination pool's rate over the source
//   pool's (both fiat per USDT), rounded down to 8 significant digits (in the pools' favour).
// - Pairing: per chain, both sides best first, as two order books cross: the best source pool is
//   paired with the best destination pool for as much USDT as the smaller of the two can move, then
//   the one used up gives way to the next of its side. A pool's USDT is never in two cross pools.
// - Balance: destination units the pairing delivers (its USDT times the destination pool's rate),
//   rounded down to the destination's scale.
// - The provider and account of a cross pool (clientId, poolAccountId of an allocation) are the
//   destination pool's, which pays the partner; its id is derived from the two pools' ids.
import { derivedUuid } from '../../kernel/ids.js';
import { Decimal, scaleOf } from '../../kernel/money.js';
import { isFiatPair, isToken, perPools, poolsForPair, RATE_DECIMALS } from './allocation.js';
import type { Pool } from './pools.js';

/** The token a fiat pair settles in. */
export const SETTLEMENT_TOKEN = 'USDT' as const;

// Working precision of the pairing: far more digits than any amount needs.
const X = Decimal.clone({ precision: 60 });
const x = (v: Decimal.Value): Decimal => new X(v);

/** Significant digits of a cross rate (as of every market price). */
const RATE_DIGITS = 8;

/** A cross pool: a pool as the engine sees it, with the two pools it pairs. */
export interface CrossPool extends Pool {
  legs: { source: Pool; destination: Pool };
}

export const isCrossPool = (p: Pool): p is CrossPool => 'legs' in p;

/** The token a pair moves: its token side, or USDT for a fiat pair. */
export const tokenOf = (source: string, destination: string) =>
  isToken(source) ? source.toUpperCase() : isToken(destination) ? destination.toUpperCase() : SETTLEMENT_TOKEN;

/** The cross rate of a source-fiat rate and a destination-fiat rate (both fiat per USDT): destination per one source,
 * and never more than RATE_DECIMALS places (the FX interface's Rate type allows 10: NGN→USD is 0.0006321417, not 0.00063214172). */
export const crossRate = (sourceRate: Decimal.Value, destinationRate: Decimal.Value) =>
  new Decimal(destinationRate).div(sourceRate).toSignificantDigits(RATE_DIGITS, Decimal.ROUND_DOWN).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_DOWN);

/**
 * The pools to allocate a pair from: `pools` themselves for a fiat/token pair (no extra work), the
 * cross pools of `pools` for a fiat pair. Kept per array of pools and pair, as poolsForPair is.
 */
export function pairPools(pools: readonly Pool[], source: string, destination: string): readonly Pool[] {
  if (!isFiatPair(source, destination)) return pools;
  const s = source.toUpperCase();
  const d = destination.toUpperCase();
  return perPools(pools, `cross:${s}>${d}`, () => crossPools(pools, s, d));
}

function crossPools(pools: readonly Pool[], source: string, destination: string): CrossPool[] {
  const usable = (p: Pool) => new Decimal(p.rate).gt(0) && new Decimal(p.availableBalance).gt(0);
  const sources = poolsForPair(pools, source, SETTLEMENT_TOKEN).filter(usable);
  const destinations = poolsForPair(pools, SETTLEMENT_TOKEN, destination).filter(usable);
  const scale = scaleOf(destination);
  const out: CrossPool[] = [];
  for (const chain of new Set(sources.map((p) => p.chain))) {
    const a = sources.filter((p) => p.chain === chain);
    const b = destinations.filter((p) => p.chain === chain);
    let i = 0;
    let j = 0;
    // What each side's current pool can still move: USDT on the source side, destination units on the other.
    let leftA = a.length > 0 ? x(a[0].availableBalance) : x(0);
    let leftB = b.length > 0 ? x(b[0].availableBalance) : x(0);
    while (i < a.length && j < b.length) {
      const rate = x(b[j].rate);
      const fromA = leftA.mul(rate);
      const moved = X.min(fromA, leftB);
      const balance = moved.toDecimalPlaces(scale, Decimal.ROUND_DOWN);
      if (balance.gt(0)) out.push(cross(a[i], b[j], balance));
      // The side that had less is used up and gives way to the next pool of its side (both, when equal).
      const cmp = fromA.cmp(leftB);
      if (cmp > 0) leftA = leftA.minus(leftB.div(rate));
      else leftB = leftB.minus(fromA);
      if (cmp <= 0 && ++i < a.length) leftA = x(a[i].availableBalance);
      if (cmp >= 0 && ++j < b.length) leftB = x(b[j].availableBalance);
    }
  }
  return out;
}

function cross(source: Pool, destination: Pool, balance: Decimal): CrossPool {
  return {
    id: derivedUuid(`cross-pool:${source.id}:${destination.id}`),
    name: `${source.name} + ${destination.name}`,
    source: source.source,
    destination: destination.destination,
    rate: crossRate(source.rate, destination.rate).toFixed(),
    availableBalance: balance.toFixed(),
    chain: destination.chain,
    accountId: destination.accountId,
    clientId: destination.clientId,
    tradesCount: Math.min(source.tradesCount, destination.tradesCount),
    completionRate: Decimal.min(source.completionRate, destination.completionRate).toFixed(),
    legs: { source, destination },
  };
}

/** How an allocation from a cross pool settles: the USDT moved from its source pool to its destination pool, and the two pools. */
export interface Settlement {
  token: typeof SETTLEMENT_TOKEN;
  /** USDT the destination pool takes to pay the allocated amount: allocatedAmount / destinationRate, rounded up (the
   * source pool delivers at least that for the source amount, the cross rate being rounded down). */
  tokenAmount: Decimal;
  sourcePoolId: string;
  /** Source units per one USDT. */
  sourceRate: string;
  destinationPoolId: string;
  /** Destination units per one USDT. */
  destinationRate: string;
}

/** The settlement of `allocatedAmount` paid out by a cross pool; the token amount has at most `maxDecimals` (default the token's 6). */
export function settlementOf(pool: CrossPool, allocatedAmount: Decimal.Value, maxDecimals = scaleOf(SETTLEMENT_TOKEN)): Settlement {
  const { source, destination } = pool.legs;
  return {
    token: SETTLEMENT_TOKEN,
    tokenAmount: new Decimal(allocatedAmount).div(destination.rate).toDecimalPlaces(Math.min(maxDecimals, scaleOf(SETTLEMENT_TOKEN)), Decimal.ROUND_UP),
    sourcePoolId: source.id,
    sourceRate: source.rate,
    destinationPoolId: destination.id,
    destinationRate: destination.rate,
  };
}

/** What settling an allocation takes out of the pools: its own pool's allocated amount, or, for a
 * cross pool's, the USDT from the source pool and the allocated amount from the destination pool. */
export function poolDraws(a: {
  poolId: string;
  allocatedAmount: Decimal.Value;
  settlement?: { tokenAmount: Decimal.Value; sourcePoolId: string; destinationPoolId: string };
}): { poolId: string; allocatedAmount: Decimal }[] {
  const s = a.settlement;
  if (!s) return [{ poolId: a.poolId, allocatedAmount: new Decimal(a.allocatedAmount) }];
  return [
    { poolId: s.sourcePoolId, allocatedAmount: new Decimal(s.tokenAmount) },
    { poolId: s.destinationPoolId, allocatedAmount: new Decimal(a.allocatedAmount) },
  ];
}
