import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../kernel/errors.js';
import { Decimal, dec, scaleOf } from '../../kernel/money.js';
import {
  allocate,
  isFiat,
  isSupportedPair,
  isToken,
  isWorseRate,
  poolsForPair,
  RATE_DECIMALS,
  type AllocationResult,
  type AmountDirection,
  type LiquidityPool,
} from './allocation.js';
import { CHAINS, FIAT_CURRENCIES, initialPools, poolById, POOLS, TOKEN_CURRENCIES } from './pools.js';

// Conversions checked at the engine's own working precision, so the check never rounds first.
const Exact = Decimal.clone({ precision: 60 });
const exact = (v: Decimal.Value): Decimal => new Exact(v);

let seq = 0;
function pool(source: string, destination: string, rate: Decimal.Value, availableBalance: Decimal.Value): LiquidityPool {
  seq += 1;
  const n = String(seq).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${n}`,
    accountId: `10000000-0000-4000-8000-${n}`,
    clientId: `20000000-0000-4000-8000-${n}`,
    source,
    destination,
    rate,
    availableBalance,
  };
}

function thrown(fn: () => unknown): SandboxError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxError);
    return e as SandboxError;
  }
  throw new Error('expected a SandboxError');
}

const plain = (r: AllocationResult) => ({
  totalSourceAmount: r.totalSourceAmount.toFixed(),
  totalDestinationAmount: r.totalDestinationAmount.toFixed(),
  weightedAverageRate: r.weightedAverageRate.toFixed(),
  allocations: r.allocations.map((a) => [a.poolId, a.rate.toFixed(), a.sourceAmount.toFixed(), a.allocatedAmount.toFixed()]),
});

describe('allocate: examples', () => {
  it('50000 NGN to USDT from one pool at 1580.5 gives 31.635558 USDT', () => {
    const p = pool('NGN', 'USDT', '1580.5', '1000');
    const r = allocate({ source: 'NGN', destination: 'USDT', amount: '50000', amountDirection: 'source', pools: [p] });
    expect(plain(r)).toEqual({
      totalSourceAmount: '50000',
      totalDestinationAmount: '31.635558',
      weightedAverageRate: '1580.5',
      allocations: [[p.id, '1580.5', '50000', '31.635558']],
    });
    expect(r.allocations[0]).toMatchObject({ poolAccountId: p.accountId, clientId: p.clientId });
  });

  it('10 USDT to NGN at 1575 gives 15750 NGN', () => {
    const p = pool('USDT', 'NGN', '1575', '1000000');
    const r = allocate({ source: 'USDT', destination: 'NGN', amount: '10', amountDirection: 'source', pools: [p] });
    expect(plain(r)).toMatchObject({ totalSourceAmount: '10', totalDestinationAmount: '15750', weightedAverageRate: '1575' });
  });

  it('a fixed destination computes the source, rounded up to the source scale', () => {
    const p = pool('NGN', 'USDT', '1580.5', '1000');
    const r = allocate({ source: 'NGN', destination: 'USDT', amount: '100', amountDirection: 'destination', pools: [p] });
    expect(plain(r)).toMatchObject({ totalSourceAmount: '158050', totalDestinationAmount: '100' });
    // 0.333333 USDT at 1580.5 is 526.8328065 NGN: the partner pays 526.84
    const r2 = allocate({ source: 'NGN', destination: 'USDT', amount: '0.333333', amountDirection: 'destination', pools: [p] });
    expect(plain(r2)).toMatchObject({ totalSourceAmount: '526.84', totalDestinationAmount: '0.333333' });
    // token to fiat with a fixed fiat destination: 100 GHS at 15.41 is 6.4892926... USDT, paid as 6.489293
    const q = pool('USDT', 'GHS', '15.41', '5000');
    const r3 = allocate({ source: 'USDT', destination: 'GHS', amount: '100', amountDirection: 'destination', pools: [q] });
    expect(plain(r3)).toMatchObject({ totalSourceAmount: '6.489293', totalDestinationAmount: '100' });
  });

  it('rounds a ten-digit computed source up by less than one unit', () => {
    // 999999999.95 NGN at 0.500005 is 1999980000.0999990000099999... USDT: paid as 1999980000.1
    const a = pool('USDT', 'NGN', '0.500005', '999999999.95');
    const b = pool('USDT', 'NGN', '0.5', '0.01');
    const r = allocate({ source: 'USDT', destination: 'NGN', amount: '999999999.96', amountDirection: 'destination', pools: [a, b] });
    expect(plain(r)).toMatchObject({ totalSourceAmount: '1999980000.12', totalDestinationAmount: '999999999.96' });
    expect(r.allocations.map((x) => x.sourceAmount.toFixed())).toEqual(['1999980000.1', '0.02']);
  });

  it('spans pools best rate first (fiat to token: lowest rate first)', () => {
    const worse = pool('NGN', 'USDT', '1590', '100');
    const better = pool('NGN', 'USDT', '1580', '10');
    const r = allocate({ source: 'NGN', destination: 'USDT', amount: '20', amountDirection: 'destination', pools: [worse, better] });
    expect(plain(r)).toEqual({
      totalSourceAmount: '31700',
      totalDestinationAmount: '20',
      weightedAverageRate: '1585',
      allocations: [
        [better.id, '1580', '15800', '10'],
        [worse.id, '1590', '15900', '10'],
      ],
    });
    const s = allocate({ source: 'NGN', destination: 'USDT', amount: '31700', amountDirection: 'source', pools: [worse, better] });
    expect(plain(s)).toEqual(plain(r));
  });

  it('spans pools best rate first (token to fiat: highest rate first)', () => {
    const worse = pool('USDC', 'GHS', '15.12', '100000');
    const better = pool('USDC', 'GHS', '15.39', '1539');
    const r = allocate({ source: 'USDC', destination: 'GHS', amount: '200', amountDirection: 'source', pools: [worse, better] });
    expect(plain(r)).toEqual({
      totalSourceAmount: '200',
      totalDestinationAmount: '3051',
      weightedAverageRate: '15.255',
      allocations: [
        [better.id, '15.39', '100', '1539'],
        [worse.id, '15.12', '100', '1512'],
      ],
    });
  });

  it('a proposed rate leaves out worse pools', () => {
    const a = pool('NGN', 'USDT', '1580', '10');
    const b = pool('NGN', 'USDT', '1590', '100');
    const r = allocate({ source: 'NGN', destination: 'USDT', amount: '5', amountDirection: 'destination', rate: '1585', pools: [a, b] });
    expect(r.allocations.map((x) => x.poolId)).toEqual([a.id]);
    const e = thrown(() =>
      allocate({ source: 'NGN', destination: 'USDT', amount: '20', amountDirection: 'destination', rate: '1585', pools: [a, b] }),
    );
    expect(e.code).toBe('INSUFFICIENT_LIQUIDITY');
    expect(e.message).toContain('at most 10.000000 USDT (15800.00 NGN)');
    expect(e.message).toContain('Send 10.000000 USDT or less');
    // token to fiat: a pool below the proposed rate is worse
    const c = pool('USDT', 'NGN', '1575', '1000');
    const d = pool('USDT', 'NGN', '1560', '100000');
    const t = allocate({ source: 'USDT', destination: 'NGN', amount: '50', amountDirection: 'source', rate: '1560', pools: [c, d] });
    expect(t.allocations.map((x) => x.poolId)).toEqual([c.id, d.id]);
    const u = thrown(() =>
      allocate({ source: 'USDT', destination: 'NGN', amount: '50', amountDirection: 'source', rate: '1570', pools: [c, d] }),
    );
    expect(u.code).toBe('INSUFFICIENT_LIQUIDITY');
  });

  it('says when no pool meets the proposed rate, and what the best rate is', () => {
    const e = thrown(() =>
      allocate({ source: 'NGN', destination: 'USDT', amount: '1000', amountDirection: 'source', rate: '1500', pools: POOLS }),
    );
    expect(e.code).toBe('INSUFFICIENT_LIQUIDITY');
    expect(e.message).toContain('The best rate on offer is 1580.5');
  });

  it('fails with INSUFFICIENT_LIQUIDITY, saying what is available, when the pools cannot fill it', () => {
    const a = pool('USDT', 'NGN', '1575', '68000000');
    const b = pool('USDT', 'NGN', '1571.4', '1000');
    const e = thrown(() => allocate({ source: 'USDT', destination: 'NGN', amount: '1000000', amountDirection: 'source', pools: [a, b] }));
    expect(e.code).toBe('INSUFFICIENT_LIQUIDITY');
    expect(e.status).toBe(400);
    // 68000000 / 1575 = 43174.6031746... and 1000 / 1571.4 = 0.6363752..., each rounded up
    expect(e.message).toContain('at most 43175.239551 USDT (68001000.00 NGN)');
    expect(e.details).toEqual([{ field: 'amount', issue: 'exceeds the available liquidity of 43175.239551 USDT' }]);
    // ...and that amount does fill, draining both pools exactly
    const r = allocate({ source: 'USDT', destination: 'NGN', amount: '43175.239551', amountDirection: 'source', pools: [a, b] });
    expect(plain(r).allocations.map((x) => x[3])).toEqual(['68000000', '1000']);
    const none = thrown(() => allocate({ source: 'USDT', destination: 'NGN', amount: '1', amountDirection: 'source', pools: [] }));
    expect(none.code).toBe('INSUFFICIENT_LIQUIDITY');
  });

  it('folds a source remainder too small to convert into the previous allocation', () => {
    const a = pool('USDT', 'NGN', '1600', '100');
    const b = pool('USDT', 'NGN', '1500', '1000');
    // a is filled by 0.0625 USDT (exactly 100 NGN); the 0.000001 USDT left is 0.0015 NGN at b,
    // which rounds down to nothing, so a takes it too and still delivers its 100 NGN
    const r = allocate({ source: 'USDT', destination: 'NGN', amount: '0.062501', amountDirection: 'source', pools: [a, b] });
    expect(plain(r)).toEqual({
      totalSourceAmount: '0.062501',
      totalDestinationAmount: '100',
      weightedAverageRate: '1600',
      allocations: [[a.id, '1600', '0.062501', '100']],
    });
  });

  it('rejects amounts that round to zero or deliver nothing', () => {
    const p = pool('USDT', 'NGN', '1575', '1000');
    const tiny = thrown(() => allocate({ source: 'USDT', destination: 'NGN', amount: '0.000001', amountDirection: 'source', pools: [p] }));
    expect(tiny.code).toBe('VALIDATION_ERROR');
    expect(tiny.details[0]).toMatchObject({ field: 'amount' });
    const zero = thrown(() => allocate({ source: 'NGN', destination: 'USDT', amount: '0.004', amountDirection: 'source', pools: POOLS }));
    expect(zero.code).toBe('VALIDATION_ERROR');
    expect(zero.details).toEqual([{ field: 'amount', issue: 'rounds to zero at 2 decimal places' }]);
    for (const amount of ['0', '-5', 'abc', Number.NaN, Infinity]) {
      const e = thrown(() => allocate({ source: 'NGN', destination: 'USDT', amount, amountDirection: 'source', pools: POOLS }));
      expect(e.code).toBe('VALIDATION_ERROR');
      expect(e.details[0].field).toBe('amount');
    }
    const badRate = thrown(() =>
      allocate({ source: 'NGN', destination: 'USDT', amount: '10', amountDirection: 'source', rate: '0', pools: POOLS }),
    );
    expect(badRate.details[0].field).toBe('rate');
  });

  it('rounds a too-precise request half-up to the fixed currency scale', () => {
    const r = allocate({ source: 'NGN', destination: 'USDT', amount: '50000.005', amountDirection: 'source', pools: POOLS });
    expect(r.totalSourceAmount.toFixed()).toBe('50000.01');
  });

  it('rejects pairs that are neither one fiat and one token nor two fiats, and one fiat on both sides', () => {
    expect(thrown(() => allocate({ source: 'NGN', destination: 'ngn', amount: '10', amountDirection: 'source', pools: POOLS }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        { field: 'source', issue: 'must differ from destination' },
        { field: 'destination', issue: 'must differ from source' },
      ],
    });
    for (const [source, destination] of [
      ['USDT', 'USDC'],
      ['EUR', 'USDT'],
      ['USDT', 'BTC'],
    ]) {
      const e = thrown(() => allocate({ source, destination, amount: '10', amountDirection: 'source', pools: POOLS }));
      expect(e.code).toBe('UNSUPPORTED_CURRENCY');
    }
  });

  it('accepts lower-case codes and live pools holding Decimals', () => {
    const live = initialPools().map((p) => ({ ...p, rate: dec(p.rate), availableBalance: dec(p.availableBalance) }));
    const r = allocate({ source: 'ngn', destination: 'usdt', amount: 50000, amountDirection: 'source', pools: live });
    expect(r.source).toBe('NGN');
    expect(r.totalDestinationAmount.toFixed()).toBe('31.635558');
  });
});

describe('helpers', () => {
  it('tells tokens from fiat', () => {
    expect(['USDT', 'usdc'].map(isToken)).toEqual([true, true]);
    expect(['NGN', 'GHS', 'USD', 'EUR'].map(isToken)).toEqual([false, false, false, false]);
    expect(isFiat('ghs')).toBe(true);
    expect(isSupportedPair('USDC', 'USD')).toBe(true);
    expect(isSupportedPair('USD', 'NGN')).toBe(true);
    expect(isSupportedPair('NGN', 'ngn')).toBe(false);
    expect(isSupportedPair('USDT', 'USDC')).toBe(false);
    expect(isWorseRate('USDT', '1581', '1580')).toBe(true);
    expect(isWorseRate('NGN', '1581', '1580')).toBe(false);
  });

  it('lists the pools of a pair from the array given, best rate first', () => {
    const buy = poolsForPair(POOLS, 'ngn', 'USDT');
    expect(buy.map((p) => p.rate)).toEqual(['1580.5', '1582.25', '1586', '1591.8']);
    const sell = poolsForPair(POOLS, 'USDT', 'NGN');
    expect(sell.map((p) => p.rate)).toEqual(['1575', '1571.4', '1568.75', '1562.3']);
    expect(poolsForPair(buy.slice(2), 'NGN', 'USDT')).toHaveLength(2);
    expect(poolsForPair(POOLS, 'NGN', 'GHS')).toEqual([]);
    expect(poolById(buy[0].id)).toBe(buy[0]);
  });

  it('orders rates that differ beyond a double\'s precision exactly', () => {
    const high = pool('NGN', 'USDT', '1580.50000000000000000002', '10');
    const low = pool('NGN', 'USDT', '1580.50000000000000000001', '10');
    expect(poolsForPair([high, low], 'NGN', 'USDT')).toEqual([low, high]);
    expect(poolsForPair([low, high], 'USDT', 'NGN')).toEqual([]);
    expect(poolsForPair([low, high].map((p) => ({ ...p, source: 'USDT', destination: 'NGN' })), 'USDT', 'NGN').map((p) => p.rate)).toEqual([high.rate, low.rate]);
  });

  it('answers the same allocation whatever the pools past the ones it uses hold', () => {
    // Pools are looked at only until they can fill the request: what lies beyond changes nothing.
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1500, max: 1600 }), fc.integer({ min: 1, max: 400 })), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 50_000 }), (specs, amount) => {
        const pools = specs.map(([rate, balance]) => pool('NGN', 'USDT', String(rate), String(balance)));
        let first;
        try {
          first = allocate({ source: 'NGN', destination: 'USDT', amount, amountDirection: 'source', pools });
        } catch (e) {
          expect((e as SandboxError).code).toBe('INSUFFICIENT_LIQUIDITY');
          return;
        }
        // Halve what every pool after the last one used holds (which keeps each of them after it).
        const order = poolsForPair(pools, 'NGN', 'USDT').map((p) => p.id);
        const last = order.indexOf(first.allocations.at(-1)!.poolId);
        const after = new Set(order.slice(last + 1));
        const beyond = pools.map((p) => (after.has(p.id) ? { ...p, availableBalance: String(Math.max(1, Math.floor(Number(p.availableBalance) / 2))) } : p));
        expect(allocate({ source: 'NGN', destination: 'USDT', amount, amountDirection: 'source', pools: beyond })).toEqual(first);
      }),
      { seed: 17, numRuns: 200 },
    );
  });
});

describe('fixtures/pools.json', () => {
  const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const ranges: Record<string, [string, string]> = { NGN: ['1550', '1600'], GHS: ['15', '16'], USD: ['0.998', '1.002'] };

  it('covers every fiat/token pair in both directions with at least three pools each', () => {
    expect(POOLS.length).toBeGreaterThanOrEqual(36);
    for (const fiat of FIAT_CURRENCIES) {
      for (const token of TOKEN_CURRENCIES) {
        expect(poolsForPair(POOLS, fiat, token).length, `${fiat}->${token}`).toBeGreaterThanOrEqual(3);
        expect(poolsForPair(POOLS, token, fiat).length, `${token}->${fiat}`).toBeGreaterThanOrEqual(3);
      }
    }
    for (const p of POOLS) expect(isSupportedPair(p.source, p.destination)).toBe(true);
  });

  it('has well-formed pools', () => {
    const ids = new Set<string>();
    for (const p of POOLS) {
      for (const id of [p.id, p.accountId, p.clientId]) expect(id).toMatch(uuidV4);
      ids.add(p.id);
      ids.add(p.accountId);
      expect(p.name.length).toBeGreaterThan(3);
      expect(p.source).toBe(p.source.toUpperCase());
      expect(p.destination).toBe(p.destination.toUpperCase());
      expect(CHAINS).toContain(p.chain);
      expect(Number.isInteger(p.tradesCount) && p.tradesCount >= 0).toBe(true);
      expect(p.completionRate).toMatch(/^\d{1,3}(\.\d+)?$/);
      expect(dec(p.completionRate).lte(100)).toBe(true);
      expect(p.rate).toMatch(/^\d+(\.\d+)?$/);
      expect(p.availableBalance).toMatch(/^\d+(\.\d+)?$/);
      expect(dec(p.availableBalance).gt(0)).toBe(true);
      expect(dec(p.availableBalance).decimalPlaces()).toBeLessThanOrEqual(scaleOf(p.destination));
      const fiat = isToken(p.source) ? p.destination : p.source;
      const [lo, hi] = ranges[fiat];
      expect(dec(p.rate).gte(lo) && dec(p.rate).lte(hi), `${p.id} rate ${p.rate}`).toBe(true);
    }
    expect(ids.size).toBe(POOLS.length * 2);
  });

  it('quotes buying a token dearer than selling it (no round-trip profit)', () => {
    for (const fiat of FIAT_CURRENCIES) {
      for (const token of TOKEN_CURRENCIES) {
        const cheapestBuy = poolsForPair(POOLS, fiat, token)[0].rate;
        const bestSell = poolsForPair(POOLS, token, fiat)[0].rate;
        expect(dec(cheapestBuy).gt(bestSell), `${fiat}/${token}`).toBe(true);
      }
    }
  });

  it('has pools small enough that a large request spans several', () => {
    const r = allocate({ source: 'NGN', destination: 'USDT', amount: '100000', amountDirection: 'destination', pools: POOLS });
    expect(r.allocations.length).toBeGreaterThan(1);
  });
});

// ---- properties ----------------------------------------------------------------------------

const fiatArb = fc.constantFrom(...FIAT_CURRENCIES);
const tokenArb = fc.constantFrom(...TOKEN_CURRENCIES);
/** A rate with up to 6 decimals between 0.5 and 3000. */
const rateArb = fc.integer({ min: 500_000, max: 3_000_000_000 }).map((n) => dec(n).div(1_000_000));
/** Balance in smallest destination units: mostly ordinary, sometimes a few units only. */
const unitsArb = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 1000 }) },
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 100_000_000_000 }) },
);

const scenarioArb = fc
  .record({
    fiat: fiatArb,
    token: tokenArb,
    fiatToToken: fc.boolean(),
    amountDirection: fc.constantFrom<AmountDirection>('source', 'destination'),
    pools: fc.array(fc.record({ rate: rateArb, units: unitsArb }), { minLength: 1, maxLength: 6 }),
    /** index of a pool whose rate becomes the proposed rate, or a free rate, or none */
    limit: fc.option(fc.oneof(fc.nat(), rateArb), { nil: undefined }),
    /** fraction of the eligible capacity to request, in millionths; above 1e6 overshoots */
    fraction: fc.integer({ min: 1, max: 1_050_000 }),
    noise: fc.integer({ min: 0, max: 99 }),
  })
  .map((s) => {
    const source = s.fiatToToken ? s.fiat : s.token;
    const destination = s.fiatToToken ? s.token : s.fiat;
    const dstScale = scaleOf(destination);
    const pools = s.pools.map((p) => pool(source, destination, p.rate.toFixed(), dec(p.units).div(dec(10).pow(dstScale)).toFixed()));
    const rate =
      s.limit === undefined ? undefined : typeof s.limit === 'number' ? dec(pools[s.limit % pools.length].rate) : s.limit;
    const eligible = pools.filter((p) => rate === undefined || !isWorseRate(destination, p.rate, rate));
    const fixedScale = scaleOf(s.amountDirection === 'source' ? source : destination);
    const capacity = eligible.reduce((sum, p) => {
      const b = dec(p.availableBalance);
      if (s.amountDirection === 'destination') return sum.plus(b);
      return sum.plus(s.fiatToToken ? b.mul(p.rate) : b.div(p.rate));
    }, dec(0));
    // fraction of capacity plus a little noise in the last decimal, never below one unit
    const unit = dec(1).div(dec(10).pow(fixedScale));
    let amount = capacity.mul(s.fraction).div(1_000_000).toDecimalPlaces(fixedScale, Decimal.ROUND_DOWN).plus(unit.mul(s.noise % 3));
    if (amount.lt(unit)) amount = unit;
    return { source, destination, amountDirection: s.amountDirection, pools, rate, amount, capacity, fiatToToken: s.fiatToToken };
  });

type Scenario = ReturnType<(typeof scenarioArb)['generate']>['value'];

/** Whether the engine can trade with this pool at all (a pool of a few units may convert to nothing). */
function tradable(s: Scenario, p: LiquidityPool): boolean {
  const huge = dec(p.availableBalance).mul(1e6).plus(1).toFixed();
  const e = thrown(() => allocate({ ...s, amount: huge, pools: [p] }));
  expect(e.code).toBe('INSUFFICIENT_LIQUIDITY');
  return !/^No .* liquidity is available/.test(e.message);
}

/** What the engine says one pool can take of the fixed side (zero when it cannot trade). */
function capacityOf(s: Scenario, p: LiquidityPool): Decimal {
  const huge = dec(p.availableBalance).mul(1e6).plus(1).toFixed();
  const e = thrown(() => allocate({ ...s, amount: huge, pools: [p] }));
  const m = /at most (\d+(?:\.\d+)?) /.exec(e.message);
  return dec(m ? m[1] : 0);
}

function checkInvariants(s: Scenario, r: AllocationResult): void {
  const srcScale = scaleOf(s.source);
  const dstScale = scaleOf(s.destination);
  const byId = new Map(s.pools.map((p) => [p.id, p]));
  const sum = (xs: Decimal[]) => xs.reduce((a, b) => a.plus(b), dec(0));

  // totals are exactly the sums of the allocations
  expect(r.totalSourceAmount.eq(sum(r.allocations.map((a) => a.sourceAmount)))).toBe(true);
  expect(r.totalDestinationAmount.eq(sum(r.allocations.map((a) => a.allocatedAmount)))).toBe(true);
  // the fixed side is exactly the request
  const fixed = s.amountDirection === 'source' ? r.totalSourceAmount : r.totalDestinationAmount;
  expect(fixed.toFixed()).toBe(s.amount.toFixed());

  expect(r.allocations.length).toBeGreaterThan(0);
  expect(new Set(r.allocations.map((a) => a.poolId)).size).toBe(r.allocations.length);
  for (const [i, a] of r.allocations.entries()) {
    const p = byId.get(a.poolId)!;
    expect(a.poolAccountId).toBe(p.accountId);
    expect(a.clientId).toBe(p.clientId);
    expect(a.rate.eq(p.rate)).toBe(true);
    // positive, never overdrawn, at most the currency's decimals
    expect(a.sourceAmount.gt(0) && a.allocatedAmount.gt(0)).toBe(true);
    expect(a.allocatedAmount.lte(p.availableBalance)).toBe(true);
    expect(a.sourceAmount.decimalPlaces()).toBeLessThanOrEqual(srcScale);
    expect(a.allocatedAmount.decimalPlaces()).toBeLessThanOrEqual(dstScale);
    // the proposed rate is respected
    if (s.rate !== undefined) expect(isWorseRate(s.destination, a.rate, s.rate)).toBe(false);
    // the computed side is within rounding of the exact conversion, in the pool's favour
    // (exact at 60 digits: the default 20 cut a 10-digit amount's quotient short by a unit)
    const [src, rate, alloc] = [exact(a.sourceAmount), exact(a.rate), exact(a.allocatedAmount)];
    const exactDest = s.fiatToToken ? src.div(rate) : src.mul(rate);
    const dstUnit = dec(1).div(dec(10).pow(dstScale));
    const srcUnit = dec(1).div(dec(10).pow(srcScale));
    if (s.amountDirection === 'source') {
      expect(a.allocatedAmount.lte(exactDest)).toBe(true);
      if (i < r.allocations.length - 1) expect(exactDest.minus(alloc).lt(dstUnit)).toBe(true);
    } else {
      const exactSource = s.fiatToToken ? alloc.mul(rate) : alloc.div(rate);
      expect(src.gte(exactSource)).toBe(true);
      expect(src.minus(exactSource).lt(srcUnit)).toBe(true);
    }
  }
  // best rate first: sorted, and every eligible pool better than the worst used was used
  const rates = r.allocations.map((a) => a.rate);
  for (let i = 1; i < rates.length; i++) expect(isWorseRate(s.destination, rates[i - 1], rates[i])).toBe(false);
  const worst = rates[rates.length - 1];
  const used = new Set(r.allocations.map((a) => a.poolId));
  for (const p of poolsForPair(s.pools, s.source, s.destination)) {
    const eligible = s.rate === undefined || !isWorseRate(s.destination, p.rate, s.rate);
    if (eligible && isWorseRate(s.destination, worst, p.rate) && !used.has(p.id)) {
      // only a pool too small to trade at all may be passed over
      expect(tradable(s, p), `better pool ${p.rate} unused`).toBe(false);
    }
  }
  // weighted average: at most 10 decimals, between best and worst used, and totalFiat / totalToken
  const min = Decimal.min(...rates);
  const max = Decimal.max(...rates);
  const avg = r.weightedAverageRate;
  expect(avg.decimalPlaces()).toBeLessThanOrEqual(RATE_DECIMALS);
  expect(avg.gte(min) && avg.lte(max)).toBe(true);
  const [fiat, token] = s.fiatToToken
    ? [r.totalSourceAmount, r.totalDestinationAmount]
    : [r.totalDestinationAmount, r.totalSourceAmount];
  const raw = fiat.div(token).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_HALF_UP);
  if (!avg.eq(raw)) {
    // only clamped when the rounded quotient falls outside the rates used
    expect(raw.lt(min) || raw.gt(max)).toBe(true);
    expect(avg.eq(min) || avg.eq(max)).toBe(true);
  }
}

describe('allocate: properties', () => {
  it('keeps every invariant for random pools, amounts, directions and rate limits', () => {
    let filled = 0;
    fc.assert(
      fc.property(scenarioArb, (s) => {
        let r: AllocationResult;
        try {
          r = allocate({ ...s, amount: s.amount.toFixed() });
        } catch (e) {
          expect(e).toBeInstanceOf(SandboxError);
          const err = e as SandboxError;
          if (err.code === 'INSUFFICIENT_LIQUIDITY') {
            // only when the request really exceeds what the eligible pools hold, up to the
            // sub-unit rounding each pool loses
            const slack = dec(s.pools.length + 1).div(dec(10).pow(scaleOf(s.amountDirection === 'source' ? s.source : s.destination)));
            expect(s.amount.plus(slack).gt(s.capacity), err.message).toBe(true);
            return;
          }
          // a request of a unit or so that converts to nothing in the destination currency
          expect(err.code).toBe('VALIDATION_ERROR');
          expect(s.amountDirection).toBe('source');
          const best = poolsForPair(s.pools, s.source, s.destination).find(
            (p) => (s.rate === undefined || !isWorseRate(s.destination, p.rate, s.rate)) && tradable(s, p),
          )!;
          const exact = s.fiatToToken ? s.amount.div(best.rate) : s.amount.mul(best.rate);
          expect(exact.lt(dec(1).div(dec(10).pow(scaleOf(s.destination))))).toBe(true);
          return;
        }
        filled += 1;
        checkInvariants(s, r);
      }),
      { numRuns: 2000 },
    );
    expect(filled).toBeGreaterThan(1000);
  });

  it('fills any amount up to the full eligible capacity and drains pools without overdrawing', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        // request everything: the engine's own figure of what is available must fill exactly
        let available: string | undefined;
        try {
          allocate({ ...s, amount: s.capacity.mul(2).plus(1).toFixed() });
        } catch (e) {
          const err = e as SandboxError;
          expect(err.code).toBe('INSUFFICIENT_LIQUIDITY');
          available = /at most (\d+(?:\.\d+)?) /.exec(err.message)?.[1];
        }
        fc.pre(available !== undefined);
        const scenario = { ...s, amount: dec(available!) };
        const r = allocate({ ...scenario, amount: available! });
        checkInvariants(scenario, r);
        if (s.amountDirection === 'destination') {
          for (const a of r.allocations) expect(a.allocatedAmount.toFixed()).toBe(dec(s.pools.find((p) => p.id === a.poolId)!.availableBalance).toFixed());
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every invariant for requests ending on or just past a pool boundary', () => {
    let filled = 0;
    fc.assert(
      fc.property(scenarioArb, fc.nat(), fc.integer({ min: -2, max: 5 }), (base, k, units) => {
        const eligible = poolsForPair(base.pools, base.source, base.destination).filter(
          (p) => base.rate === undefined || !isWorseRate(base.destination, p.rate, base.rate),
        );
        fc.pre(eligible.length > 1);
        // the capacities of the best k pools, plus or minus a few units of the fixed currency
        const upTo = eligible.slice(0, 1 + (k % (eligible.length - 1)));
        const scale = scaleOf(base.amountDirection === 'source' ? base.source : base.destination);
        const amount = upTo
          .reduce((sum, p) => sum.plus(capacityOf(base, p)), dec(0))
          .plus(dec(units).div(dec(10).pow(scale)));
        fc.pre(amount.gt(0));
        const s = { ...base, amount };
        let r: AllocationResult;
        try {
          r = allocate({ ...s, amount: amount.toFixed() });
        } catch (e) {
          expect(['INSUFFICIENT_LIQUIDITY', 'VALIDATION_ERROR']).toContain((e as SandboxError).code);
          return;
        }
        filled += 1;
        checkInvariants(s, r);
      }),
      { numRuns: 1500 },
    );
    expect(filled).toBeGreaterThan(500);
  });

  it('allocates small and large requests on the fixture pools for every directed pair', () => {
    const pairs = FIAT_CURRENCIES.flatMap((f) => TOKEN_CURRENCIES.flatMap((t) => [[f, t] as const, [t, f] as const]));
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.constantFrom<AmountDirection>('source', 'destination'),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.option(fc.nat({ max: 3 }), { nil: undefined }),
        ([source, destination], amountDirection, fraction, limitIndex) => {
          const pairPools = poolsForPair(POOLS, source, destination);
          const rate = limitIndex === undefined ? undefined : dec(pairPools[limitIndex % pairPools.length].rate);
          const eligible = pairPools.filter((p) => rate === undefined || !isWorseRate(destination, p.rate, rate));
          const fiatToToken = isToken(destination);
          const capacity = eligible.reduce((sum, p) => {
            const b = dec(p.availableBalance);
            if (amountDirection === 'destination') return sum.plus(b);
            return sum.plus(fiatToToken ? b.mul(p.rate) : b.div(p.rate));
          }, dec(0));
          const scale = scaleOf(amountDirection === 'source' ? source : destination);
          const amount = Decimal.max(capacity.mul(fraction).div(1_000_000).toDecimalPlaces(scale, Decimal.ROUND_DOWN), 1);
          const s = { source, destination, amountDirection, pools: [...POOLS] as LiquidityPool[], rate, amount, capacity, fiatToToken };
          checkInvariants(s, allocate({ ...s, amount: amount.toFixed() }));
        },
      ),
      { numRuns: 500 },
    );
  });
});

