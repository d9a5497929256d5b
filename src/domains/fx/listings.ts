// GET /listings: the tenant's pools as FX listings, filtered by currency and paged.
import type { Tenant } from '../../engine/tenant.js';
import type { Listing } from '../../iso20022/listings.js';
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

/** One listing per pool the filters keep, in the fixture's order (by pair, best rate first). */
export function listListings(t: Tenant, q: ListingsQuery): ListingsPage {
  const source = q.source?.toUpperCase();
  const destination = q.destination?.toUpperCase();
  const matching = tenantPools(t).filter(
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
