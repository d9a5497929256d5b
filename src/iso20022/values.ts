// How values are written in FX messages: ISO 20022 habits (plain decimals, bounded fraction digits,
// UTC date-times). The XSDs in xsd/ enforce the same shapes.
import { Decimal } from '../kernel/money.js';
import type { Mode } from '../engine/tenancy/tenant.js';

export type OperatingMode = Mode;

// Plain decimal text (the stored amounts and rates, the pool fixtures): sign, whole part without
// leading zeros, and a fraction whose trailing zeros are dropped. No exponent.
const PLAIN = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]*?)0*)?$/;

/** A plain decimal with at most `places` decimals, trailing zeros dropped, never an exponent. */
function plain(value: Decimal.Value, places: number): string {
  const m = typeof value === 'string' ? PLAIN.exec(value) : null;
  // Text that needs no rounding is written without decimal.js, as decimal.js would write it.
  if (m && (m[3] ?? '').length <= places) {
    const s = m[3] ? `${m[1]}${m[2]}.${m[3]}` : `${m[1]}${m[2]}`;
    return s === '-0' ? '0' : s;
  }
  const d = new Decimal(value);
  if (!d.isFinite()) throw new RangeError(`Cannot write ${String(value)} as an XML decimal`);
  const s = d.toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed();
  return s === '-0' ? '0' : s;
}

/** Amounts: at most 5 decimals. */
export const amount = (value: Decimal.Value): string => plain(value, 5);

/** Exchange rates: at most 10 decimals. */
export const rate = (value: Decimal.Value): string => plain(value, 10);

/** Signed percentages (PctChg24H, CmpltnRate): at most 4 decimals. */
export const percent = (value: Decimal.Value): string => plain(value, 4);

/** Whole numbers (TTL, AgeSecs, counts): never negative, never fractional. */
export function count(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Cannot write ${value} as an XML integer`);
  return String(Math.max(0, Math.floor(value)));
}

/** ISO 8601 date-time in UTC with milliseconds, e.g. 2026-01-15T09:00:00.000Z. */
export function dateTime(value: Date | string | number): string {
  // The instant written last is often written again next (a maker price's minute, on every read of it).
  if (value === lastInstant) return lastText;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) throw new RangeError(`Cannot write ${String(value)} as an XML date-time`);
  const text = d.toISOString();
  if (typeof value === 'number') {
    lastInstant = value;
    lastText = text;
  }
  return text;
}

let lastInstant = NaN;
let lastText = '';
