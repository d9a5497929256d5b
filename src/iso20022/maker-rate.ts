// GET /rates/makers (fxtr.014.001.05): FxTradStsAndDtls, the market maker's rate for one pair.
import type { Decimal } from '../kernel/money.js';
import { count, dateTime, percent, rate, type OperatingMode } from './values.js';
import { buildXml } from './xml.js';

export interface MakerRate {
  sourceCcy: string;
  targetCcy: string;
  rate: Decimal.Value;
  /** When the maker quoted it (TmStmp, UTC). */
  timestamp: Date | string | number;
  ageSeconds: number;
  /** PctChg24H: signed percentage change over 24 hours. */
  change24hPct: Decimal.Value;
  mode: OperatingMode;
}

/** Text written for a decimal object (decimals are immutable): a maker price, kept for its minute,
 * is written once. */
const written = new WeakMap<Decimal, string>();
const keptText = (value: Decimal.Value, write: (v: Decimal.Value) => string): string => {
  if (typeof value !== 'object') return write(value);
  let text = written.get(value);
  if (text === undefined) written.set(value, (text = write(value)));
  return text;
};

/** SrcCcy, TrgtCcy, XchgRate, RateSrc (market_maker), TmStmp, AgeSecs, PctChg24H, OprgMd. */
export function buildMakerRate(m: MakerRate): string {
  return buildXml('FxTradStsAndDtls', {
    SrcCcy: m.sourceCcy,
    TrgtCcy: m.targetCcy,
    XchgRate: keptText(m.rate, rate),
    RateSrc: 'market_maker',
    TmStmp: dateTime(m.timestamp),
    AgeSecs: count(m.ageSeconds),
    PctChg24H: keptText(m.change24hPct, percent),
    OprgMd: m.mode,
  });
}
