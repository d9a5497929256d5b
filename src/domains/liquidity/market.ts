// The one market of a key: every price the sandbox shows (pool rates in quotes, FX trades and
// listings, the FX maker rate, the JSON rate and the rate stream) is read here.
//
// A fiat pair (GHS→NGN) has no market of its own: its price is the cross of its two USDT markets
// (cross.ts, maker-rates.ts). Each fiat/token market (NGN/USDT, GHS/USDC, ...) moves by a factor that is 1 at the store's origin
// (the fixture pools' rates; the first start, which the store keeps, so every replica and every
// restart share it) and then walks on each key's clock, re-priced once a minute. The
// walk is value noise at several time scales (1 hour to 1 week): a hash of (seed, market, scale,
// step) gives a point in [-1, 1] per step, smoothed between points. So a price is a pure function of
// (--seed, market, minutes since the start on the key's clock): the same seed and the same clock
// moves give the same prices, any minute is read without replaying history and without writing
// anything, and the 24-hour change compares two real points. Both directions of a market and all its
// pools move together.
import { createHash } from 'node:crypto';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { Decimal } from '../../kernel/money.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { isToken } from './allocation.js';
import { marketOverrides, type MarketOverrides } from './market.scenario.js';
import { POOLS, type Pool } from './pools.js';

/** The market is re-priced once a minute. */
export const STEP_MS = 60_000;
const DAY_STEPS = 1440;

// Amplitudes are fractions of the price: the walk stays within ±2.9 % of its mid, so a market stays
// within about ±6 % of where the key's market began, and moves at most about 1.5 % in a day.
const SCALES = [
  { steps: 60, amplitude: 0.002 },
  { steps: 6 * 60, amplitude: 0.004 },
  { steps: DAY_STEPS, amplitude: 0.008 },
  { steps: 7 * DAY_STEPS, amplitude: 0.015 },
];

/** The market a pair belongs to, fiat first: NGN→USDT and USDT→NGN are both `NGN/USDT`. */
export const marketOf = (source: string, destination: string) =>
  isToken(destination) ? `${source.toUpperCase()}/${destination.toUpperCase()}` : `${destination.toUpperCase()}/${source.toUpperCase()}`;

/** Where a key's market stands: the minute it is priced at, when that minute began, and what the scenario in force sets. */
export interface MarketTime {
  seed: number;
  /** Minutes since the sandbox started, on the key's clock (negative: before it). */
  step: number;
  /** Tenant-clock ms at which the step began. */
  at: number;
  /** Tenant-clock ms at which the price now was set: the step's start, or a later instant of the
   * step at which the scenario's pin took hold or one of its moves fell due. */
  pricedAt: number;
  /** Pins and scripted moves of the scenario in force, if any, with the tenant-clock ms they count from. */
  overrides?: MarketOverrides;
  boundAt: number;
}

/** Where the key's market stands at its clock's now (or `now`). */
export function marketTime(t: Tenant, now = t.now()): MarketTime {
  const origin = t.marketOrigin;
  const step = Math.floor((now - origin) / STEP_MS);
  const at = origin + step * STEP_MS;
  const overrides = marketOverrides(t.behaviour());
  if (!overrides) return { seed: t.globalSeed ?? 0, step, at, pricedAt: at, boundAt: 0 };
  // The scenario counts from its binding to the key: a pin holds from then, a move falls due `after`
  // seconds later. Either may happen inside the minute: the price now is set from that instant on.
  const boundAt = t.scenarioBoundAt;
  const instants = [boundAt, ...Object.values(overrides).flatMap((o) => (o.moves ?? []).map((m) => boundAt + m.after * 1000))];
  const pricedAt = Math.max(at, ...instants.filter((i) => i <= now));
  return { seed: t.globalSeed ?? 0, step, at, pricedAt, overrides, boundAt };
}

/** The seeded walk's factor of a market at a step: 1 at step 0. Kept: one per seed, market and minute. */
function factorAt(seed: number, market: string, step: number): Decimal {
  const key = `${seed}|${market}|${step}`;
  let f = factors.get(key);
  if (!f) {
    f = new Decimal(walk(seed, market, step)).div(walk(seed, market, 0));
    factors.set(key, f);
  }
  return f;
}

/** Whether a scenario sets the market's price now (its rates then say ADMIN_OVERRIDE). */
export const isOverridden = (m: MarketTime, market: string) => overridesOf(m, market, m.pricedAt).length > 0;

/** The tenant-clock instant a step's price is read at: the price now for the current step, a past
 * (or later) step's start otherwise. */
const instantOf = (m: MarketTime, step: number) => (step === m.step ? m.pricedAt : m.at + (step - m.step) * STEP_MS);

/** The scenario's entries for a market, keyed either way round, each with its orientation; none
 * before the scenario was bound to the key. */
function overridesOf(m: MarketTime, market: string, instant: number) {
  if (!m.overrides || instant < m.boundAt) return [];
  const [fiat, token] = market.split('/');
  return [
    { o: m.overrides[`${token}/${fiat}`], tokenFirst: true, direction: `${token}/${fiat}` },
    { o: m.overrides[market], tokenFirst: false, direction: market },
  ].filter((x) => x.o !== undefined);
}

/** A market's factor at a step (fiat per token, against the fixture rates): the walk, or (from the scenario's binding on) its pin, times its moves due by then. */
export function factorOf(m: MarketTime, market: string, step = m.step): Decimal {
  const instant = instantOf(m, step);
  const entries = overridesOf(m, market, instant);
  if (entries.length === 0) return factorAt(m.seed, market, step);
  let f = factorAt(m.seed, market, step);
  for (const { o, tokenFirst, direction } of entries) {
    if (o!.pin !== undefined) {
      // The pin is the pair's price: its direction's maker rate (or the inverse for fiat first).
      const anchor = anchorOf(direction)!;
      f = tokenFirst ? new Decimal(o!.pin).div(anchor) : new Decimal(1).div(new Decimal(o!.pin).mul(anchor));
    }
  }
  for (const { o, tokenFirst } of entries) {
    for (const move of o!.moves ?? []) {
      if (m.boundAt + move.after * 1000 > instant) continue;
      const by = new Decimal(move.percent).div(100).plus(1);
      f = tokenFirst ? f.mul(by) : f.div(by);
    }
  }
  return f;
}

/**
 * The signed percentage change over the 24 hours before a step, to 4 decimals, of a price that
 * moves with the market (fiat per token), or against it (`inverse`: token per fiat).
 */
export function change24hPct(m: MarketTime, market: string, step: number, inverse = false): Decimal {
  const [now, before] = [factorOf(m, market, step), factorOf(m, market, step - DAY_STEPS)];
  return (inverse ? before.div(now) : now.div(before)).minus(1).mul(100).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
}

/**
 * The signed percentage change over the 24 hours before a step, to 4 decimals, of a cross price: the
 * `over` market's price (fiat per token) divided by the `under` market's (GHS→NGN is NGN/USDT over GHS/USDT).
 */
export function crossChange24hPct(m: MarketTime, over: string, under: string, step: number): Decimal {
  const at = (s: number) => factorOf(m, over, s).div(factorOf(m, under, s));
  return at(step).div(at(step - DAY_STEPS)).minus(1).mul(100).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
}

/** A price moved by its market's factor, to 8 significant digits. */
export const moved = (price: Decimal.Value, factor: Decimal) => factor.mul(price).toSignificantDigits(8, Decimal.ROUND_HALF_UP);

/** The fixture pools priced at the key's market (their own balances are the tenant's business). */
export function poolsAt(m: MarketTime): readonly Pool[] {
  if (m.step === 0 && !m.overrides) return POOLS;
  const price = () => POOLS.map((p) => ({ ...p, rate: moved(p.rate, factorOf(m, marketOf(p.source, p.destination))).toFixed() }));
  // A scenario's prices are worked out each time; the walk's are kept per seed and minute.
  if (m.overrides) return price();
  const key = `${m.seed}|${m.step}`;
  let pools = priced.get(key);
  if (!pools) {
    pools = price();
    priced.set(key, pools);
  }
  return pools;
}

/** Mean fixture pool rate (fiat per one token) of each direction the pools convert, keyed `SRC/DST`. */
const ANCHORS: ReadonlyMap<string, Decimal> = (() => {
  const byPair = new Map<string, Decimal[]>();
  for (const p of POOLS) {
    const key = `${p.source}/${p.destination}`;
    byPair.set(key, [...(byPair.get(key) ?? []), new Decimal(p.rate)]);
  }
  return new Map([...byPair].map(([k, rates]) => [k, Decimal.sum(...rates).div(rates.length)]));
})();

/** The mean fixture rate of a direction `SRC/DST` (fiat per token), if the pools convert it. */
export const anchorOf = (direction: string) => ANCHORS.get(direction);

const factors = new BoundedMap<string, Decimal>(4_000);
const priced = new BoundedMap<string, readonly Pool[]>(64);

/** 1 plus the walk's offset at a step. */
function walk(seed: number, market: string, step: number): number {
  let offset = 0;
  SCALES.forEach(({ steps, amplitude }, i) => {
    const n = Math.floor(step / steps);
    const frac = (step - n * steps) / steps;
    const smooth = frac * frac * (3 - 2 * frac);
    const a = lattice(seed, market, i, n);
    const b = lattice(seed, market, i, n + 1);
    offset += amplitude * (a + (b - a) * smooth);
  });
  return 1 + offset;
}

/** A point in [-1, 1] fixed by its inputs. */
function lattice(seed: number, market: string, scale: number, n: number): number {
  const h = createHash('sha256').update(`${seed}|${market}|${scale}|${n}`).digest();
  return (h.readUInt32BE(0) / 0xffffffff) * 2 - 1;
}
