// GET /listings: the tenant's pools as FX listings, filtered by currency and paged.
import { BoundedMap } from '../../kernel/bounded-map.js';
import { nearest } from '../../engine/scenario/scenario.lint.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { buildListingsReport, type Listing } from '../../iso20022/listings-message.js';
import { FIAT_CURRENCIES, TOKEN_CURRENCIES, type Pool } from '../liquidity/pools.js';
import { tenantPools } from '../liquidity/pools.service.js';

export const PAGE_DEFAULT = 0;
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 100;

export interface ListingsQuery {
  source?: string;
  destination?: string;
  /** 0-based, as the bulk transfer list. */
  page: number;
  pageSize: number;
}

export interface ListingsPage {
  pageNumber: number;
  pageSize: number;
  totalElements: number;
  listings: Listing[];
}

const LISTED_CURRENCIES: readonly string[] = [...FIAT_CURRENCIES, ...TOKEN_CURRENCIES];

/** A `source` or `destination` no pool can have matches nothing: the answer (an empty page) says why
 * in X-Sandbox-Warning, as the bulk page does of a filter value. A known code in any case is no warning;
 * the value is 3 to 5 letters (the query's schema), so it is sent as it came. */
export function listingFilterWarnings(q: ListingsQuery): string[] {
  return (['source', 'destination'] as const).flatMap((name) => {
    const value = q[name];
    if (!value || LISTED_CURRENCIES.includes(value.toUpperCase())) return [];
    const near = nearest(value, LISTED_CURRENCIES);
    return [`${name} '${value}' is not a currency any listing has, so nothing matches: ${near ? `did you mean '${near}'?` : `use one of ${LISTED_CURRENCIES.join(', ')}`}`];
  });
}

/** Reports written, by the pools they were written from and the query (with the key's mode). */
const reports = new WeakMap<readonly Pool[], BoundedMap<string, string>>();
/** Pages kept per array of pools, the least recently read dropped first: a partner pages through a
 * few, and a key sending query after query only churns them (each is then written as it would be
 * without the cache). An empty page (a currency no pool has, a page past the end) is not kept. */
const REPORTS_KEPT = 16;

/**
 * The listings report (XML) of a key's pools. Its bytes depend only on the pools and the query: while
 * the key has drawn on no pool, its pools are the market's array of the minute, shared by every such
 * key, so a page is written once a minute rather than per request. A key with pool balances of its
 * own gets a new array each time and its report is written afresh.
 */
export function listingsReport(t: Tenant, q: ListingsQuery): string {
  const pools = tenantPools(t);
  const key = `${t.mode}|${q.source?.toUpperCase() ?? ''}|${q.destination?.toUpperCase() ?? ''}|${q.page}|${q.pageSize}`;
  let written = reports.get(pools);
  let xml = written?.get(key);
  if (xml !== undefined) return xml;
  const page = pageOf(pools, q);
  xml = buildListingsReport({ ...page, mode: t.mode });
  if (page.listings.length === 0) return xml;
  if (written === undefined) reports.set(pools, (written = new BoundedMap(REPORTS_KEPT, true)));
  written.set(key, xml);
  return xml;
}

/** One listing per pool the filters keep, in the fixture's order (by pair, best rate first). */
function pageOf(pools: readonly Pool[], q: ListingsQuery): ListingsPage {
  const source = q.source?.toUpperCase();
  const destination = q.destination?.toUpperCase();
  const matching = pools.filter(
    (p) => (!source || p.source === source) && (!destination || p.destination === destination),
  );
  const start = q.page * q.pageSize;
  return {
    pageNumber: q.page,
    pageSize: q.pageSize,
    totalElements: matching.length,
    listings: matching.slice(start, start + q.pageSize).map((p) => ({
      id: p.id,
      name: p.name,
      pair: { baseCcy: p.source, quotedCcy: p.destination },
      rate: p.rate,
      availableBalance: p.availableBalance,
      tradesCount: p.tradesCount,
      completionRate: p.completionRate,
    })),
  };
}
