// GET /listings (reda.041.001.01): FndPrcgPsptRpt, one page of liquidity pools.
import type { Decimal } from '../kernel/money.js';
import type { CurrencyPair } from './parts.js';
import { amount, count, percent, rate, type OperatingMode } from './values.js';
import { buildXml } from './xml.js';

export interface Listing {
  id: string;
  name: string;
  /** Written as the text SRC/DST in CcyPair. */
  pair: CurrencyPair;
  rate: Decimal.Value;
  /** AvlblBal: liquidity left in the pool. */
  availableBalance: Decimal.Value;
  tradesCount: number;
  /** CmpltnRate: a percentage, 0 to 100. */
  completionRate: Decimal.Value;
}

export interface ListingsReport {
  pageNumber: number;
  pageSize: number;
  totalElements: number;
  listings: readonly Listing[];
  mode: OperatingMode;
}

/** Repeatable elements, for reading the report back with parseXml. */
export const LISTINGS_ARRAYS = ['FndPrcgPsptRpt/Listgs'] as const;

/** Pgntn (PageNumber, PageSize, TotalElements), Listgs* (Id, Nm, CcyPair, XchgRate, AvlblBal, TradsCnt, CmpltnRate), OprgMd. */
export function buildListingsReport(r: ListingsReport): string {
  return buildXml('FndPrcgPsptRpt', {
    Pgntn: { PageNumber: count(r.pageNumber), PageSize: count(r.pageSize), TotalElements: count(r.totalElements) },
    Listgs: r.listings.map((l) => ({
      Id: l.id,
      Nm: l.name,
      CcyPair: `${l.pair.baseCcy}/${l.pair.quotedCcy}`,
      XchgRate: rate(l.rate),
      AvlblBal: amount(l.availableBalance),
      TradsCnt: count(l.tradesCount),
      CmpltnRate: percent(l.completionRate),
    })),
    OprgMd: r.mode,
  });
}
