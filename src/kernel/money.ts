// Decimal arithmetic for money: no float arithmetic on amounts anywhere in the sandbox.
import { Decimal } from 'decimal.js';

export { Decimal };

/** Decimal places amounts are kept to: 2 for fiat, 6 for tokens. */
export function scaleOf(currency: string): number {
  const c = currency.toUpperCase();
  return c === 'USDT' || c === 'USDC' ? 6 : 2;
}

export function dec(value: Decimal.Value): Decimal {
  return new Decimal(value);
}

export function round(value: Decimal.Value, currency: string): Decimal {
  return new Decimal(value).toDecimalPlaces(scaleOf(currency), Decimal.ROUND_HALF_UP);
}

/** A JSON number for an amount, rounded per currency. */
export function toNumber(value: Decimal.Value, currency?: string): number {
  const d = new Decimal(value);
  return (currency ? round(d, currency) : d).toNumber();
}

/** Plain decimal text, never an exponent. */
export function toPlain(value: Decimal.Value, places?: number): string {
  const d = new Decimal(value);
  return places === undefined ? d.toFixed() : d.toFixed(places);
}

export function decimalPlaces(value: number): number {
  // Whole amounts, the usual case, need no decimal object.
  return Number.isInteger(value) ? 0 : new Decimal(value).decimalPlaces();
}
