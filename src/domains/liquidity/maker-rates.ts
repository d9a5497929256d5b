// Market-maker rates: a pair's pools' mean rate as the key's market moves it (market.ts). The maker
// re-quotes once a minute, when the market is re-priced.
import { Decimal } from '../../kernel/money.js';
import type { Tenant } from '../../engine/tenant.js';
import { checkPair } from './allocation.js';
import { change24hPct, factorAt, marketOf, marketTime, moved } from './market.js';
import { POOLS } from './pools.js';

/** Mean fixture pool rate (fiat per one token) of each direction the pools convert, keyed `SRC/DST`. */
const ANCHORS: ReadonlyMap<string, Decimal> = (() => {
  const byPair = new Map<string, Decimal[]>();
  for (const p of POOLS) {
    const key = `${p.source}/${p.destination}`;
    byPair.set(key, [...(byPair.get(key) ?? []), new Decimal(p.rate)]);
  }
  return new Map([...byPair].map(([k, rates]) => [k, Decimal.sum(...rates).div(rates.length)]));
})();

/** The directions the pools convert, `SRC/DST`. */
export const QUOTED_PAIRS: readonly string[] = [...ANCHORS.keys()];

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

/** Whether a maker quotes from → to. */
export const isQuoted = (from: string, to: string) => ANCHORS.has(`${from.toUpperCase()}/${to.toUpperCase()}`);

/** The maker's quote for from → to on the key's market now (or at `now`). A currency or pair trades
 * do not take is 400 UNSUPPORTED_CURRENCY, as on a trade; every pair they take has pools, so an anchor. */
export function makerQuote(t: Tenant, from: string, to: string, now = t.now()): MakerQuote {
  const source = from.toUpperCase();
  const target = to.toUpperCase();
  checkPair(source, target, ['from', 'to']);
  const anchor = ANCHORS.get(`${source}/${target}`)!;
  const m = marketTime(t, now);
  const market = marketOf(source, target);
  return {
    source,
    target,
    rate: moved(anchor, factorAt(m.seed, market, m.step)),
    timestamp: m.at,
    ageSeconds: Math.floor((now - m.at) / 1000),
    change24hPct: change24hPct(m.seed, market, m.step),
  };
}
