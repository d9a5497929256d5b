// The predicates a scenario rule matches a request by (`when`): amount bounds, currencies, chains,
// tokens, and RE2 regular expressions on the reference, the account number and any field. Outcome
// rules and fault rules share them.
import { z } from 'zod';
import { dec } from '../../kernel/money.js';
import { REGEX_LIMITS, regexMatches, regexProblem } from './scenario.regex.js';

/** How many items a list of a scenario may hold (outcome and fault rules, nth lists, names). */
export const MAX_ITEMS = 50;

// A regular expression, run on RE2 (see scenario.regex.ts).
export const pattern = z
  .string()
  .min(1)
  .max(REGEX_LIMITS.length)
  .superRefine((p, ctx) => {
    const problem = p.length > REGEX_LIMITS.length ? undefined : regexProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const word = z.string().min(1).max(50);
const oneOrMany = z.union([word, z.array(word).min(1).max(MAX_ITEMS)]);
export const PredicatesSchema = z
  .strictObject({
    amount: z
      .strictObject({ min: z.number().optional(), max: z.number().optional() })
      .refine((a) => a.min === undefined || a.max === undefined || a.min <= a.max, 'min must not exceed max')
      .optional()
      .describe('Inclusive bounds on amount'),
    currency: oneOrMany.optional().describe('Matches currency, sourceCurrency or destinationCurrency, any case'),
    chain: oneOrMany.optional().describe('Any case'),
    token: oneOrMany.optional().describe('Any case'),
    reference: pattern.optional().describe('RE2 regular expression on the reference'),
    accountNumber: pattern.optional().describe('RE2 regular expression on accountNumber or destination.accountNumber'),
    fields: z
      .record(z.string().min(1).max(100), pattern)
      .refine((f) => Object.keys(f).length <= 10, 'must name at most 10 fields')
      .optional()
      .describe('RE2 regular expressions on any field by dotted path, at most 10'),
  })
  .describe('Every predicate given must hold');

export type Predicates = z.infer<typeof PredicatesSchema>;

/** The value at a dotted path of a request's fields (`destination.accountNumber`). */
export function at(fields: Record<string, unknown>, dotted: string): unknown {
  let v: unknown = fields;
  for (const k of dotted.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** A field at the top level, or inside destination / source when not at the top. */
function field(fields: Record<string, unknown>, name: string): unknown {
  return fields[name] ?? at(fields, `destination.${name}`) ?? at(fields, `source.${name}`);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

function oneOf(want: string | string[], ...values: unknown[]): boolean {
  const list = (Array.isArray(want) ? want : [want]).map((w) => w.toLowerCase());
  return values.some((v) => str(v) !== undefined && list.includes(str(v)!.toLowerCase()));
}

function matchesPattern(p: string, v: unknown): boolean {
  const s = str(v);
  return s !== undefined && regexMatches(p, s);
}

export function matches(when: Predicates | undefined, fields: Record<string, unknown>): boolean {
  if (!when) return true;
  if (when.amount) {
    const raw = str(field(fields, 'amount'));
    if (raw === undefined || !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw)) return false;
    const a = dec(raw);
    if (when.amount.min !== undefined && a.lt(when.amount.min)) return false;
    if (when.amount.max !== undefined && a.gt(when.amount.max)) return false;
  }
  if (when.currency && !oneOf(when.currency, fields.currency, fields.sourceCurrency, fields.destinationCurrency)) return false;
  if (when.chain && !oneOf(when.chain, field(fields, 'chain'))) return false;
  if (when.token && !oneOf(when.token, field(fields, 'token'))) return false;
  if (when.reference && !matchesPattern(when.reference, fields.reference)) return false;
  if (when.accountNumber && !matchesPattern(when.accountNumber, field(fields, 'accountNumber'))) return false;
  for (const [p, re] of Object.entries(when.fields ?? {})) if (!matchesPattern(re, at(fields, p))) return false;
  return true;
}
