// Schema pieces several resources share, so each rule is written once.
import { z } from '@hono/zod-openapi';
import { decimalPlaces } from '../kernel/money.js';

/** An ISO 8601 UTC date-time with milliseconds, as every resource shows its times. */
export const timestamp = z.string().openapi({ format: 'date-time', example: '2026-01-15T09:00:00.000Z' });

/** The largest int32: the bound of the page parameters the API document types as int32. */
export const INT32_MAX = 2_147_483_647;

/** A fiat amount: positive, at most 1,000,000,000,000, at most 2 decimal places. */
export const fiatAmount = (example: number) =>
  z
    .number()
    .positive()
    .max(1_000_000_000_000)
    .refine((v) => decimalPlaces(v) <= 2, { message: 'must have at most 2 decimal places (the currency minor unit)' })
    .openapi({ example });

/** A reference the partner chooses (a body reference, an idempotency key, a reference in a path):
 * 1 to `max` characters, not only white space, since a blank one names nothing a person can find,
 * no control character (a NUL, a tab, a line break), which no person types into one and the
 * PostgreSQL store could not keep as a key, and no lone surrogate. */
export const referenceText = (max: number) =>
  z
    .string()
    .min(1, { abort: true })
    .max(max)
    .regex(/\S/, { message: 'must not be blank: send at least one character that is not white space', abort: true })
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not hold a control character (U+0000 to U+001F, U+007F): send letters, digits and punctuation')
    // A lone surrogate (JSON's "\udc00" without its pair) is no character: the PostgreSQL store would
    // keep it as U+FFFD, so two references differing only there would be one key.
    .regex(/^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/, 'must be well-formed Unicode: a \\u escape from D800 to DFFF needs its pair (send the character itself)')
    // The document states both rules in one pattern (a schema has one): no control character, and one that is not white space.
    .openapi({ pattern: '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$' });

const DIGITS = /^\+?\d+$/;

/** A query value as a whole number is read from it: digits only, as a server parsing an int32 takes
 * them (Number() alone reads 0x10 as 16, 1e2 as 100 and ' 5' as 5); an empty value is left to
 * Number(), which reads it as 0; anything else NaN, which a number schema refuses. */
export const digitsOnly = (v: unknown): unknown => (typeof v === 'string' && v !== '' && !DIGITS.test(v) ? Number.NaN : v);

/** A whole number in a query (a page, a listing's limit): digits only, from `min` to `max`. */
export const wholeNumberParam = (min: number, max: number, def: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.preprocess(digitsOnly, z.coerce.number({ error }).int({ error }).min(min).max(max).default(def));
};

/** An optional query parameter sent empty (`?pageSize=`, as the API document writes the listings'
 * query) is read as not sent: its default, or no filter. */
export const emptyAsUnset = (v: unknown): unknown => (v === '' ? undefined : v);

/** A whole-number query parameter (a page, a page size), published as the int32 the API document
 * names; text that is not one in range is 400 saying which numbers it takes (an empty value is the default). */
export const wholeNumberQuery = (name: string, def: number, min: number, max: number, description = `A whole number from ${min} to ${max}; default ${def}`) =>
  z.preprocess(emptyAsUnset, wholeNumberParam(min, max, def))
    // An integer, as the document publishes it: a coerced number with a default would read as one that may be null.
    .openapi({ param: { name, in: 'query' }, type: 'integer', format: 'int32', minimum: min, maximum: max, default: def, description, example: def } as never);
