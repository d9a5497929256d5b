// Market-maker rates: a pair's pools' mean rate as the key's market moves it (market.ts). The maker
// re-quotes once a minute, when the market is re-priced, and when a scenario's pin or move takes hold.
// A fiat pair's rate is the cross of its two USDT markets' maker rates (GHS→NGN: the USDT→NGN rate
// over the GHS→USDT rate), destination units per one source unit, rounded down as cross pools are.
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { Decimal } from '../../kernel/money.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { checkPair, isFiatPair } from './allocation.js';
import { crossRate, SETTLEMENT_TOKEN } from './cross.js';
import { anchorOf, change24hPct, crossChange24hPct, factorOf, isOverridden, marketOf, marketTime, moved } from './market.js';

export interface MakerQuote {
  source: string;
  target: string;
  /** Fiat units per one token, whichever way the pair goes (as pool rates); for a fiat pair, target units per one source unit. */
  rate: Decimal;
  timestamp: number;
  ageSeconds: number;
  /** Signed percentage change against the rate 24 hours before timestamp. */
  change24hPct: Decimal;
  /** The scenario in force sets this market's price. */
  overridden: boolean;
}

/** The maker's quote for from → to on the key's market now (or at `now`). A currency or pair trades
 * do not take is 400 UNSUPPORTED_CURRENCY, as on a trade; every pair they take has pools, so an anchor. */
export function makerQuote(t: Tenant, from: string, to: string, now = t.now()): MakerQuote {
  const source = from.toUpperCase();
  const target = to.toUpperCase();
  checkPair(source, target, ['from', 'to']);
  if (isFiatPair(source, target)) return crossQuote(t, source, target, now);
  const m = marketTime(t, now);
  const market = marketOf(source, target);
  // Without a scenario's pin or moves, the rate and its 24-hour change depend only on the seed, the
  // pair and the minute: worked out once (the decimal arithmetic) and shared by every key.
  const key = m.overrides ? undefined : `${m.seed}|${source}/${target}|${m.step}`;
  let priced = key === undefined ? undefined : kept.get(key);
  if (priced === undefined) {
    const anchor = anchorOf(`${source}/${target}`)!;
    priced = { rate: moved(anchor, factorOf(m, market)), change24hPct: change24hPct(m, market, m.step), overridden: isOverridden(m, market) };
    if (key !== undefined) kept.set(key, priced);
  }
  return {
    source,
    target,
    rate: priced.rate,
    timestamp: m.pricedAt,
    ageSeconds: Math.floor((now - m.pricedAt) / 1000),
    change24hPct: priced.change24hPct,
    overridden: priced.overridden,
  };
}

/** A fiat pair's maker quote: the cross of the source's and the target's USDT markets. */
function crossQuote(t: Tenant, source: string, target: string, now: number): MakerQuote {
  const paid = makerQuote(t, source, SETTLEMENT_TOKEN, now);
  const paidOut = makerQuote(t, SETTLEMENT_TOKEN, target, now);
  const m = marketTime(t, now);
  return {
    source,
    target,
    rate: crossRate(paid.rate, paidOut.rate),
    timestamp: paid.timestamp,
    ageSeconds: paid.ageSeconds,
    change24hPct: crossChange24hPct(m, marketOf(SETTLEMENT_TOKEN, target), marketOf(source, SETTLEMENT_TOKEN), m.step),
    overridden: paid.overridden || paidOut.overridden,
  };
}

/** Maker prices without a scenario's overrides, by seed, pair and minute. */
const kept = new BoundedMap<string, Pick<MakerQuote, 'rate' | 'change24hPct' | 'overridden'>>(256);
