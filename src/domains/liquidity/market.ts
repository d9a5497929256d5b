// The one market of a key: every price the sandbox shows (pool rates in quotes, FX trades and
// listings, the FX maker rate, the JSON rate and the rate stream) is read here.
//
// Each fiat/token market (NGN/USDT, GHS/USDC, ...) moves by a factor that is 1 when the sandbox
// starts (the fixture pools' rates) and then walks on each key's clock, re-priced once a minute. The
// walk is value noise at several time scales (1 hour to 1 week): a hash of (seed, market, scale,
// step) gives a point in [-1, 1] per step, smoothed between points. So a price is a pure function of
// (--seed, market, minutes since the start on the key's clock): the same seed and the same clock
// moves give the same prices, any minute is read without replaying history and without writing
// anything, and the 24-hour change compares two real points. Both directions of a market and all its
// pools move together.
import { createHash } from 'node:crypto';
import { Decimal } from '../../kernel/money.js';
import type { Tenant } from '../../engine/tenant.js';
import { isToken } from './allocation.js';
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

/** Where a key's market stands: the minute it is priced at, and when that minute began. */
export interface MarketTime {
  seed: number;
  /** Minutes since the key's market began (negative: before it). */
  step: number;
  /** Tenant-clock ms at which the step began. */
  at: number;
}

/** Where the key's market stands at its clock's now (or `now`): minutes since the market began. */
export function marketTime(t: Tenant, now = t.now()): MarketTime {
  const origin = t.marketOrigin;
  const step = Math.floor((now - origin) / STEP_MS);
  return { seed: t.globalSeed ?? 0, step, at: origin + step * STEP_MS };
}

/** The market's factor at a step: 1 at step 0. Kept: one set per seed, market and minute. */
export function factorAt(seed: number, market: string, step: number): Decimal {
  const key = `${seed}|${market}|${step}`;
  let f = factors.get(key);
  if (!f) {
    f = new Decimal(walk(seed, market, step)).div(walk(seed, market, 0));
    if (factors.size >= KEPT) factors.clear();
    factors.set(key, f);
  }
  return f;
}

/**
 * The signed percentage change over the 24 hours before a step, to 4 decimals, of a price that
 * moves with the market (fiat per token), or against it (`inverse`: token per fiat).
 */
export function change24hPct(seed: number, market: string, step: number, inverse = false): Decimal {
  const [now, before] = [factorAt(seed, market, step), factorAt(seed, market, step - DAY_STEPS)];
  return (inverse ? before.div(now) : now.div(before)).minus(1).mul(100).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
}

/** A price moved by its market's factor, to 8 significant digits. */
export const moved = (price: Decimal.Value, factor: Decimal) => factor.mul(price).toSignificantDigits(8, Decimal.ROUND_HALF_UP);

/** The fixture pools priced at a step (their own balances are the tenant's business). */
export function poolsAt(seed: number, step: number): readonly Pool[] {
  if (step === 0) return POOLS;
  const key = `${seed}|${step}`;
  let pools = priced.get(key);
  if (!pools) {
    pools = POOLS.map((p) => ({ ...p, rate: moved(p.rate, factorAt(seed, marketOf(p.source, p.destination), step)).toFixed() }));
    if (priced.size >= 64) priced.clear();
    priced.set(key, pools);
  }
  return pools;
}

const KEPT = 4_000;
const factors = new Map<string, Decimal>();
const priced = new Map<string, readonly Pool[]>();

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
