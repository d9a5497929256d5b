// The rate a partner reads before quoting: the key's market (market.ts) stated as a multiplier, an
// amount in `from` times the rate being the amount in `to`. Pools, quotes and FX messages state the
// same market the other way round, as fiat per one token; a fiat pair's rate (the cross of its two
// USDT markets) is a multiplier everywhere, so it is the same figure here as on its quotes.
import type { z } from '@hono/zod-openapi';
import { iso } from '../../kernel/clock.js';
import { SandboxError } from '../../kernel/errors.js';
import { Decimal } from '../../kernel/money.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { checkPair, isToken, poolsForPair } from './allocation.js';
import { pairPools } from './cross.js';
import { makerQuote } from './maker-rates.js';
import { change24hPct, marketOf, marketTime, STEP_MS } from './market.js';
import { CHAINS, FIAT_CURRENCIES, TOKEN_CURRENCIES } from './pools.js';
import { tenantPools } from './pools.service.js';
import type { Rate, RateUpdate } from './rates.schema.js';

const CODES: readonly string[] = [...FIAT_CURRENCIES, ...TOKEN_CURRENCIES];

/** A pair as asked: upper-case codes, and the query parameters they came from. */
export interface RatePair {
  from: string;
  to: string;
}

type PairQuery = { from?: string; to?: string; base?: string; quote?: string };

function code(q: PairQuery, name: 'from' | 'to', alias: 'base' | 'quote'): string {
  const value = q[name] ?? q[alias];
  const field = q[name] !== undefined ? name : alias;
  if (value === undefined) {
    throw new SandboxError('VALIDATION_ERROR', `Send the query parameter ${name} (or ${alias}), a currency code such as ${name === 'from' ? 'NGN' : 'USDT'}.`, [
      { field: name, issue: 'is required' },
    ]);
  }
  const upper = value.toUpperCase();
  if (!CODES.includes(upper)) {
    throw new SandboxError('UNSUPPORTED_CURRENCY', `${field}=${value} is not a supported currency. Send one of ${CODES.join(', ')}.`, [
      { field, issue: `must be one of ${CODES.join(', ')}` },
    ]);
  }
  return upper;
}

/** The pair of a rate query: from/to, or base/quote (from and to win). Unknown or unconvertible: 400. */
export function ratePair(q: PairQuery): RatePair {
  const from = code(q, 'from', 'base');
  const to = code(q, 'to', 'quote');
  checkPair(from, to, [q.from !== undefined ? 'from' : 'base', q.to !== undefined ? 'to' : 'quote']);
  return { from, to };
}

/** The pair's rate as a multiplier at a tenant-clock instant, with its 24-hour change. */
function multiplier(t: Tenant, pair: RatePair, at: number) {
  const q = makerQuote(t, pair.from, pair.to, at);
  const inverse = isToken(pair.to);
  const rate = (inverse ? new Decimal(1).div(q.rate) : q.rate).toSignificantDigits(8, Decimal.ROUND_HALF_UP);
  const m = marketTime(t, at);
  const change = inverse ? change24hPct(m, marketOf(pair.from, pair.to), m.step, true) : q.change24hPct;
  const source = q.overridden ? ('ADMIN_OVERRIDE' as const) : ('MARKET_MAKER' as const);
  return { rate: rate.toNumber(), timestamp: q.timestamp, ageSeconds: q.ageSeconds, change: change.toNumber(), source };
}

/** GET /api/v1/partners/rates: the rate now, on the asked chain or the best pool's. */
export function currentRate(t: Tenant, pair: RatePair, chain?: string): z.infer<typeof Rate> {
  const pools = poolsForPair(pairPools(tenantPools(t), pair.from, pair.to), pair.from, pair.to);
  const chains = [...new Set(pools.map((p) => p.chain))];
  // The chain a quote of the pair would take now: its best pool that still holds liquidity (a key's
  // drawn-down pool no longer fills a quote), the best pool when none does.
  let on: string = (pools.find((p) => new Decimal(p.availableBalance).gt(0)) ?? pools[0]).chain;
  if (chain !== undefined) {
    const upper = chain.toUpperCase();
    if (!chains.includes(upper as (typeof chains)[number])) {
      const known = CHAINS.includes(upper as (typeof CHAINS)[number]);
      throw new SandboxError(
        'VALIDATION_ERROR',
        `${known ? `No ${pair.from}→${pair.to} pool is on ${upper}` : `chain=${chain} is not a chain`}. Send one of ${chains.join(', ')}, or leave chain out.`,
        [{ field: 'chain', issue: `must be one of ${chains.join(', ')}` }],
      );
    }
    on = upper;
  }
  const r = multiplier(t, pair, t.now());
  const show = (c: string) => (isToken(c) ? c.toLowerCase() : c);
  return {
    from: show(pair.from),
    to: show(pair.to),
    rate: r.rate,
    source: r.source,
    timestamp: iso(r.timestamp),
    chain: on.toLowerCase(),
    ageSeconds: r.ageSeconds,
    cached: false,
  };
}

/** A rate_update of the stream: the market now for the current minute of the key's market (a pin
 * or move that took hold inside it included, as the JSON rate reads it), the start of minute `step` otherwise. */
export function rateUpdate(t: Tenant, pair: RatePair, step: number): z.infer<typeof RateUpdate> {
  const now = t.now();
  const m = marketTime(t, now);
  const at = step === m.step ? now : m.at + (step - m.step) * STEP_MS;
  const r = multiplier(t, pair, at);
  return { from: pair.from, to: pair.to, rate: r.rate, timestamp: iso(r.timestamp), source: r.source, percentChange24h: r.change };
}
