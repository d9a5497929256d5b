// Decimals are written as before whichever way they come: plain decimal text that needs no rounding
// is written without decimal.js, anything else goes through it; both give what decimal.js alone gave.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../kernel/money.js';
import { amount, percent, rate } from './values.js';

/** How every decimal was written before plain text skipped decimal.js. */
function throughDecimal(value: string, places: number): string {
  const s = new Decimal(value).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed();
  return s === '-0' ? '0' : s;
}

const WRITERS = [
  [amount, 5],
  [rate, 10],
  [percent, 4],
] as const;

const decimalText = fc.oneof(
  fc.tuple(fc.constantFrom('', '-', '+'), fc.stringMatching(/^[0-9]{1,25}$/), fc.option(fc.stringMatching(/^[0-9]{0,14}$/))).map(
    ([sign, whole, fraction]) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}`,
  ),
  fc.constantFrom('0', '-0', '0.0', '-0.00000', '1e5', '1E-7', '.5', '5.', '007', '1580.5', '-12.34567', '0.000005', '99999.999995', '1e21'),
);

describe('decimal values', () => {
  it.each(WRITERS.map(([write, places]) => [places, write] as const))('with at most %i decimals read as decimal.js reads them', (places, write) => {
    fc.assert(
      fc.property(decimalText, (value) => {
        expect(write(value), value).toBe(throughDecimal(value, places));
      }),
      { numRuns: 2000 },
    );
  });

  it('drop trailing zeros without rounding, and round the rest half up', () => {
    expect([amount('1580.5'), amount('42500.000000'), amount('-0.00'), amount('1.000000'), amount('0.000005'), amount('1.234565')]).toEqual(['1580.5', '42500', '0', '1', '0.00001', '1.23457']);
    expect([rate('1530.25000000004'), percent('-0.36305'), amount(new Decimal('2.5')), amount(1e21)]).toEqual(['1530.25', '-0.3631', '2.5', '1000000000000000000000']);
  });
});
