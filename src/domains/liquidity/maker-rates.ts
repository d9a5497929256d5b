// Market-maker rates: a seeded walk over time, the same for every key. Each currency pair's rate is
// its pools' mean rate moved by value noise: at several time scales (1 hour to 1 week) a hash of
// (seed, pair, scale, step) gives a point in [-1, 1] per step, and the curve between two points is
// smoothed. So a rate is a pure function of (seed, pair, time): the same seed gives the same rates,
// any instant can be read without replaying history, and the 24-hour change compares two real points.
import { createHash } from 'node:crypto';
import { Decimal } from '../../kernel/money.js';
import { checkPair, isToken } from './allocation.js';
import { POOLS } from './pools.js';

/** The maker re-quotes once a minute; TmStmp is the start of the current minute. */
export const QUOTE_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;

// Amplitudes are fractions of the anchor rate: together at most ±2.9 %.
const SCALES = [
  { periodMs: 3_600_000, amplitude: 0.002 },
  { periodMs: 6 * 3_600_000, amplitude: 0.004 },
  { periodMs: DAY_MS, amplitude: 0.008 },
  { periodMs: 7 * DAY_MS, amplitude: 0.015 },
];

/** Mean pool rate (fiat per one token) of each direction the pools convert, keyed `SRC/DST`. */
const ANCHORS: ReadonlyMap<string, Decimal> = (() => {
  const byPair = new Map<string, Decimal[]>();
  for (const p of POOLS) {
    const key = `${p.source}/${p.destination}`;
    byPair.set(key, [...(byPair.get(key) ?? []), new Decimal(p.rate)]);
  }
  return new Map([...byPair].map(([k, rates]) => [k, Decimal.sum(...rates).div(rates.length)]));
})();

export interface MakerQuote {
  source: string;
  target: string;
  /** Fiat units per one token, whichever way the pair goes (as pool rates). */
  rate: Decimal;
  timestamp: number;
  ageSeconds: number;
  /** Signed percentage change against the rate 24 hours before timestamp. */
  change24hPct: Decimal;
}

/** The maker's quote for from → to at `now` (ms). A currency or pair trades do not take is 400
 * UNSUPPORTED_CURRENCY, as on a trade; every pair they take has pools, so an anchor. */
export function makerQuote(seed: number, from: string, to: string, now: number): MakerQuote {
  const source = from.toUpperCase();
  const target = to.toUpperCase();
  checkPair(source, target, ['from', 'to']);
  const anchor = ANCHORS.get(`${source}/${target}`)!;
  const timestamp = Math.floor(now / QUOTE_INTERVAL_MS) * QUOTE_INTERVAL_MS;
  const { rate, change24hPct } = quoted(seed, source, target, anchor, timestamp);
  return { source, target, rate, timestamp, ageSeconds: Math.floor((now - timestamp) / 1000), change24hPct };
}

// A quote stands for its whole minute: kept, it is worked out (16 hashes and the decimal
// arithmetic) once a minute per seed and pair instead of on every request.
const QUOTES_KEPT = 1_000;
const quotes = new Map<string, Pick<MakerQuote, 'rate' | 'change24hPct'>>();

function quoted(seed: number, source: string, target: string, anchor: Decimal, timestamp: number) {
  const key = `${seed}|${source}|${target}|${timestamp}`;
  let q = quotes.get(key);
  if (q) return q;
  // Both directions of a market move together: the walk is keyed by the fiat/token pair.
  const market = isToken(target) ? `${source}/${target}` : `${target}/${source}`;
  const rate = rateAt(seed, market, anchor, timestamp);
  const before = rateAt(seed, market, anchor, timestamp - DAY_MS);
  q = { rate, change24hPct: rate.div(before).minus(1).mul(100).toDecimalPlaces(4, Decimal.ROUND_HALF_UP) };
  if (quotes.size >= QUOTES_KEPT) quotes.clear();
  quotes.set(key, q);
  return q;
}

function rateAt(seed: number, market: string, anchor: Decimal, at: number): Decimal {
  let offset = 0;
  SCALES.forEach(({ periodMs, amplitude }, i) => {
    const step = Math.floor(at / periodMs);
    const frac = (at - step * periodMs) / periodMs;
    const smooth = frac * frac * (3 - 2 * frac);
    const a = lattice(seed, market, i, step);
    const b = lattice(seed, market, i, step + 1);
    offset += amplitude * (a + (b - a) * smooth);
  });
  return anchor.mul(new Decimal(offset).plus(1)).toSignificantDigits(8, Decimal.ROUND_HALF_UP);
}

/** A point in [-1, 1] fixed by its inputs. */
function lattice(seed: number, market: string, scale: number, step: number): number {
  const h = createHash('sha256').update(`${seed}|${market}|${scale}|${step}`).digest();
  return (h.readUInt32BE(0) / 0xffffffff) * 2 - 1;
}
