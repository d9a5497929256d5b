// Failed zod validation as the API's error: each issue named by its field, with what to send.
import type { ZodError } from 'zod';
import { SandboxError, type ErrorDetail } from './errors.js';

export type Target = 'json' | 'query' | 'param' | 'header' | 'form' | 'cookie';

export function validationError(error: ZodError, target: Target, input: unknown): SandboxError {
  // An unknown field is named itself, one detail each, so the caller sees which to remove.
  const details: ErrorDetail[] = error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((k) => ({ field: fieldName([...issue.path, k], target), issue: 'is not a field of this request: remove it' }))
      : [{ field: fieldName(issue.path, target), issue: describeQueryRepeat(target, issue.path, input) ?? describeIssue(issue, valueAt(input, issue.path)) }],
  );
  const where = target === 'json' ? 'body' : target === 'header' ? 'headers' : target === 'param' ? 'path' : 'query';
  const first = details[0];
  const more = details.length > 1 ? ` (and ${details.length - 1} more problem${details.length > 2 ? 's' : ''}, listed in error.details)` : '';
  return new SandboxError(
    'VALIDATION_ERROR',
    `Invalid request ${where}: ${first.field} ${first.issue}${more}.`,
    details,
    {},
    target === 'json',
  );
}

/** A query parameter sent more than once (`?from=NGN&from=GHS`) arrives as a list: say so, rather
 * than that a string was expected. */
function describeQueryRepeat(target: Target, path: PropertyKey[], input: unknown): string | undefined {
  if (target !== 'query' || path.length !== 1) return undefined;
  const value = valueAt(input, path);
  return Array.isArray(value) ? `is given ${value.length} times: send it once` : undefined;
}

/** A request header as the API document spells it, where it names one (x-service-source). */
const DOCUMENT_SPELLING = new Set(['x-service-source']);

/** How a refusal names a request header, whatever case it was declared or sent in: in its canonical
 * spelling (Idempotency-Key), as the idempotency conflict and the other refusals (Authorization,
 * Content-Type, Accept, X-Sandbox-Scenario) name theirs; one the API document spells (x-service-source)
 * as it is spelt there. */
export function headerField(name: string): string {
  const lower = name.toLowerCase();
  return DOCUMENT_SPELLING.has(lower) ? lower : lower.replace(/(^|-)([a-z])/g, (_, dash: string, first: string) => dash + first.toUpperCase());
}

function fieldName(path: PropertyKey[], target: Target): string {
  if (target === 'header' && path.length > 0) return headerField(String(path[0]));
  const name = path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
  return name || (target === 'json' ? 'body' : target);
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v = input;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

type Issue = ZodError['issues'][number];

function describeIssue(issue: Issue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      // A schema that says what to send in its own words (not zod's "Invalid input…") is quoted.
      if (issue.message && !issue.message.startsWith('Invalid input')) return issue.message;
      if (value === undefined) return `is required: send ${article(issue.expected)}`;
      // 1e400 parses to Infinity: a number, but not one JSON can carry
      if (typeof value === 'number' && !Number.isFinite(value)) return `must be a finite ${issue.expected}, not ${value}`;
      return `must be ${article(issue.expected)}, not ${typeName(value)}`;
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters long`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item(s)`;
      return issue.inclusive ? `must be at least ${issue.minimum}` : `must be greater than ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters long`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} item(s)`;
      return issue.inclusive ? `must be at most ${issue.maximum}` : `must be less than ${issue.maximum}`;
    case 'invalid_value':
      if (value === undefined) return `is required: send one of: ${issue.values.map(String).join(', ')}`;
      return `must be one of: ${issue.values.map(String).join(', ')}${caseHint(value, issue.values)}`;
    case 'invalid_format':
      if (issue.format === 'regex') {
        // A schema that says what to send in its own words (a message not of zod's default form) is quoted.
        if (issue.message && !issue.message.startsWith('Invalid string')) return issue.message;
        return `must match the pattern ${(issue as { pattern?: string }).pattern ?? ''}`.trim();
      }
      if (issue.format === 'uuid' || issue.format === 'guid') return 'must be a UUID (8-4-4-4-12 hexadecimal digits), e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
      if (issue.format === 'datetime') return 'must be an ISO 8601 date-time, e.g. 2026-01-15T09:00:00.000Z';
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has fields that are not allowed: ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

/** When the value sent is one of the values in another case (ngn for NGN): which one to send. */
function caseHint(value: unknown, values: readonly unknown[]): string {
  if (typeof value !== 'string') return '';
  const same = values.find((v) => typeof v === 'string' && v !== value && v.toLowerCase() === value.toLowerCase());
  return same === undefined ? '' : ` (send '${same}', in that case)`;
}

function article(expected: string): string {
  if (expected === 'object' || expected === 'array') return `an ${expected}`;
  if (expected === 'int') return 'an integer';
  return `a ${expected}`;
}
