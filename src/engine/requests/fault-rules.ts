// The closed list of HTTP faults a scenario can name, and the choice of which one (if any) hits a
// request. Applying a fault to a real request is the job of one middleware (src/http/fault-responses.ts);
// scenarios only name faults and say when they strike.
//
// Every choice is deterministic: counters live in the tenant's store and "random" draws hash the
// tenant's fault seed with the rule and the call number, so the same seed and the same requests
// meet the same faults.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { ERROR_CODES, statusOf, type ErrorCode } from '../../kernel/errors.js';
import { compileGlob, GLOB_LIMITS, globProblem } from '../scenario/scenario.glob.js';
import { matches, pattern, PredicatesSchema } from '../scenario/scenario.predicates.js';
import { regexMatches } from '../scenario/scenario.regex.js';
import type { Tenant } from '../tenancy/tenant.js';

export { DRIFT_FORMS, FAULT_KINDS, type DriftForm, type FaultKind } from './types.js';
import { DRIFT_FORMS, type DriftForm } from './types.js';

/** How a malformed answer is malformed. */
export const MALFORMED_FORMS = ['truncated', 'invalid', 'html', 'content-type', 'reset'] as const;
export type MalformedForm = (typeof MALFORMED_FORMS)[number];

const ms = z.number().int().min(0).max(120_000);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The codes an error fault may answer: every code of the API's error table, but the sandbox's own
 * (its scenarios, bulk files, clock, store and caps). */
export const FAULT_CODES = ERROR_CODES.filter(
  (c) => !['INVALID_SCENARIO', 'INVALID_BULK_FILE', 'CLOCK_BACKWARDS', 'TENANT_FULL', 'TENANT_DATA_DAMAGED'].includes(c),
) as [ErrorCode, ...ErrorCode[]];

/** The code a status alone answers with; other statuses need a code, since several share them. */
export const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

const ErrorFaultSchema = z
  .strictObject({
    kind: z.literal('error'),
    status: z.number().int().min(400).max(599).optional().describe('HTTP status; 429 and 5xx may stand alone, others need a code'),
    code: z.enum(FAULT_CODES).optional().describe("An error code of the API's error table; its status is the one it always has"),
    message: z.string().min(1).max(300).optional(),
    retryAfter: z.number().int().min(0).max(86_400).optional().describe('Seconds sent in Retry-After (429 and 503)'),
  })
  .superRefine((f, ctx) => {
    if (f.code !== undefined) {
      if (f.status !== undefined && f.status !== statusOf(f.code)) {
        ctx.addIssue({ code: 'custom', path: ['status'], message: `${f.code} is answered with ${statusOf(f.code)}: send status ${statusOf(f.code)}, or leave status out` });
      }
      return;
    }
    if (f.status === undefined) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'give a code (an error code of the API, e.g. INSUFFICIENT_BALANCE) or a status (429, 500, 502, 503 or 504)' });
    } else if (!STATUS_CODES[f.status]) {
      const codes = FAULT_CODES.filter((c) => statusOf(c) === f.status);
      ctx.addIssue(
        codes.length
          ? { code: 'custom', path: ['code'], message: `status ${f.status} needs a code: one of ${codes.join(', ')}` }
          : { code: 'custom', path: ['status'], message: `no error of the API is answered with ${f.status}: give a code (its status follows), or 429, 500, 502, 503 or 504` },
      );
    }
  });

/** Request predicates of a fault rule: those of outcome rules, on the JSON body and the query, and headers. */
export const FaultWhenSchema = PredicatesSchema.extend({
  header: z
    .record(z.string().regex(/^[a-z0-9-]{1,100}$/, 'must be a header name in lower case'), pattern)
    .refine((h) => Object.keys(h).length <= 5, 'must name at most 5 headers')
    .optional()
    .describe('RE2 regular expressions on request headers, by lower-case name'),
}).describe('Every predicate given must hold; body predicates read JSON bodies and the query string');

export const FaultSchema = z.discriminatedUnion('kind', [
  ErrorFaultSchema,
  z.strictObject({
    kind: z.literal('latency'),
    ms: z.union([ms, z.strictObject({ min: ms, max: ms }).refine((r) => r.min <= r.max, 'min must not exceed max')]),
  }),
  z.strictObject({
    kind: z.literal('timeout'),
    holdMs: ms.optional().describe('How long the connection is held before it is closed; default 30000'),
    processed: z.boolean().optional().describe('Run the request before holding, so the write happens but no answer comes'),
  }),
  z.strictObject({
    kind: z.literal('drop'),
    processed: z.boolean().optional().describe('Run the request before dropping, so the write happens but no answer comes'),
  }),
  z.strictObject({
    kind: z.literal('malformed'),
    form: z
      .enum(MALFORMED_FORMS)
      .optional()
      .describe(
        'truncated (default): half the body; invalid: the whole body, unparseable; html: a proxy\'s 502 error page, the request not processed; content-type: the body as text/plain; reset: half the body, then the connection is reset',
      ),
  }),
  z
    .strictObject({
      kind: z.literal('drift'),
      form: z
        .enum(DRIFT_FORMS)
        .describe(
          'The request is processed as usual and only its answer departs from the documented schema: unknown-enum, the status (else another enum field) takes a value outside its enum, e.g. ON_HOLD (on the FX interface, an unknown Sts code); ' +
            'extra-field, a field the document does not list is added (sandboxDriftField; on the FX interface, the element SandboxDriftField); missing-field, an optional field the answer has is left out; null-field, a nullable field is null',
        ),
    })
    .describe('An answer that drifts from the API document, as a newer server version might send'),
]);
export type Fault = z.infer<typeof FaultSchema>;

const posInt = z.number().int().min(1);

/**
 * A rate rule keeps the times of the calls it let through within its window, and looks them all over
 * at each matching call: the window holds `limit` times at most, so the limit bounds the work and
 * what is kept. Unbounded, 50 rules of a limit no call reached kept every call's time, each call
 * copying all of them: after 10,000 calls every call of the key took 10 to 20 ms of every key's time,
 * and more with each call.
 */
export const RATE_LIMITS = { limit: 1000, perSeconds: 86_400 } as const;

export const FaultRuleSchema = z
  .strictObject({
    description: z.string().max(300).optional(),
    route: z
      .strictObject({
        method: z.union([z.enum(METHODS), z.array(z.enum(METHODS)).min(1)]).optional(),
        path: z
          .string()
          .max(GLOB_LIMITS.length)
          .superRefine((p, ctx) => {
            if (p.length > GLOB_LIMITS.length) return;
            const problem = p.startsWith('/api/')
              ? globProblem(p)
              : 'must begin with /api/, since faults apply to /api requests only (for example /api/v1/partners/payouts or /api/**)';
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          })
          .describe(
            `Begins with /api/; * matches within one segment, a ** segment any number of segments, {name} one segment; a trailing / is optional. At most ${GLOB_LIMITS.length} characters, ${GLOB_LIMITS.segments} segments and ${GLOB_LIMITS.wildcards} wildcards`,
          ),
      })
      .optional(),
    when: FaultWhenSchema.optional(),
    fault: FaultSchema.optional(),
    sequence: z.array(z.union([z.literal('pass'), FaultSchema])).min(1).max(100).optional(),
    repeat: z.boolean().optional().describe('Start the sequence again after its last step'),
    probability: z.number().min(0).max(1).optional(),
    nth: z.union([posInt, z.array(posInt).min(1).max(100)]).optional(),
    every: posInt.optional(),
    rate: z
      .strictObject({
        limit: posInt.max(RATE_LIMITS.limit).describe(`Calls let through within the window, at most ${RATE_LIMITS.limit}`),
        perSeconds: posInt.max(RATE_LIMITS.perSeconds).describe(`The window, in seconds of the key's clock, at most ${RATE_LIMITS.perSeconds} (a day)`),
      })
      .optional(),
  })
  .superRefine((r, ctx) => {
    if ((r.fault === undefined) === (r.sequence === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['fault'], message: 'give exactly one of fault or sequence' });
    }
    const triggers = (['probability', 'nth', 'every', 'rate'] as const).filter((k) => r[k] !== undefined);
    if (triggers.length > 1) ctx.addIssue({ code: 'custom', path: [triggers[1]], message: `give at most one of probability, nth, every or rate (found ${triggers.join(' and ')})` });
    if (r.sequence && triggers.length > 0) ctx.addIssue({ code: 'custom', path: ['sequence'], message: 'a sequence takes no probability, nth, every or rate' });
    if (r.repeat !== undefined && !r.sequence) ctx.addIssue({ code: 'custom', path: ['repeat'], message: 'repeat only applies to a sequence' });
  });
export type FaultRule = z.infer<typeof FaultRuleSchema>;

/** A fault chosen for one request, with what the middleware needs to apply it. */
export type ChosenFault =
  | { kind: 'error'; status: number; code: ErrorCode; message?: string; retryAfter?: number }
  | { kind: 'latency'; ms: number }
  | { kind: 'timeout'; holdMs: number; processed: boolean }
  | { kind: 'drop'; processed: boolean }
  | { kind: 'malformed'; form?: MalformedForm }
  | { kind: 'drift'; form: DriftForm };

const routes = new BoundedMap<string, (path: string) => boolean>(500);

/** What a fault rule's `when` reads of a request: its JSON body and query as fields, and its headers. */
export interface FaultRequest {
  method: string;
  path: string;
  fields: Record<string, unknown>;
  header(name: string): string | undefined;
}

function whenMatches(rule: FaultRule, req: FaultRequest): boolean {
  const when = rule.when;
  if (!when) return true;
  for (const [name, re] of Object.entries(when.header ?? {})) {
    const v = req.header(name);
    if (v === undefined || !regexMatches(re, v)) return false;
  }
  return matches(when, req.fields);
}

function routeMatches(rule: FaultRule, method: string, path: string): boolean {
  if (!rule.route) return true;
  const m = rule.route.method;
  if (m !== undefined && !(Array.isArray(m) ? m : [m]).includes(method.toUpperCase() as never)) return false;
  let test = routes.get(rule.route.path);
  if (!test) routes.set(rule.route.path, (test = compileGlob(rule.route.path)));
  return test(path);
}

/** A number in [0, 1) fixed by the seed, the key and the call number. */
export function draw(seed: number, key: string, n: number): number {
  return createHash('sha256').update(`${seed}:${key}:${n}`).digest().readUInt32BE(0) / 2 ** 32;
}

const counters = (t: Tenant) => t.store.collection<number>('scenario_counters');
const windows = (t: Tenant) => t.store.collection<number[]>('scenario_rates');

/** Count one call under `key` among the scenario's counters (binding a scenario restarts them); its number. */
export function bump(t: Tenant, key: string): number {
  const n = (counters(t).get(key) ?? 0) + 1;
  counters(t).put(key, n);
  return n;
}

/** Count one firing of a rule (`fault:2`, `outcome:payout:0`) of the scenario `scope`. */
export function countFired(t: Tenant, scope: string, rule: string): void {
  bump(t, `${scope}:fired:${rule}`);
}

/** How many times a rule of the scenario `scope` fired since it was bound. */
export function firedCount(t: Tenant, scope: string, rule: string): number {
  return counters(t).get(`${scope}:fired:${rule}`) ?? 0;
}

/** Forget every counter and rate window of the tenant (a new scenario starts afresh). */
export function resetFaultState(t: Tenant): void {
  counters(t).clear();
  windows(t).clear();
}

function concrete(f: Fault, seed: number, key: string, n: number): ChosenFault {
  switch (f.kind) {
    case 'latency': {
      if (typeof f.ms === 'number') return { kind: 'latency', ms: f.ms };
      const { min, max } = f.ms;
      return { kind: 'latency', ms: min + Math.floor(draw(seed, `${key}:ms`, n) * (max - min + 1)) };
    }
    case 'timeout':
      return { kind: 'timeout', holdMs: f.holdMs ?? 30_000, processed: f.processed ?? false };
    case 'drop':
      return { kind: 'drop', processed: f.processed ?? false };
    case 'error':
      return { ...f, code: f.code ?? STATUS_CODES[f.status!], status: f.code ? statusOf(f.code) : f.status! };
    default:
      return f;
  }
}

/** Whether any rule reads the request's body, query or headers (the middleware then reads them first). */
export function readsRequest(rules: readonly FaultRule[]): boolean {
  return rules.some((r) => r.when !== undefined);
}

/**
 * The fault for this request and the index of the rule that chose it, if any: every rule whose
 * route and `when` match counts the call; the first rule whose trigger fires decides. `scope` names the
 * scenario so its counters are its own.
 */
export function chooseFault(
  t: Tenant,
  seed: number,
  scope: string,
  rules: readonly FaultRule[],
  req: FaultRequest,
): { fault: ChosenFault; rule: number } | undefined {
  let chosen: { fault: ChosenFault; rule: number } | undefined;
  rules.forEach((rule, i) => {
    if (!routeMatches(rule, req.method, req.path) || !whenMatches(rule, req)) return;
    const key = `${scope}:fault:${i}`;
    const n = bump(t, key);
    if (chosen) return;
    const hit = fires(t, seed, key, n, rule);
    if (hit) {
      chosen = { fault: hit, rule: i };
      countFired(t, scope, `fault:${i}`);
    }
  });
  return chosen;
}

function fires(t: Tenant, seed: number, key: string, n: number, rule: FaultRule): ChosenFault | undefined {
  if (rule.sequence) {
    const len = rule.sequence.length;
    if (n > len && !rule.repeat) return undefined;
    const step = rule.sequence[(n - 1) % len];
    return step === 'pass' ? undefined : concrete(step, seed, key, n);
  }
  const fault = rule.fault!;
  if (rule.probability !== undefined && draw(seed, key, n) >= rule.probability) return undefined;
  if (rule.nth !== undefined && !(Array.isArray(rule.nth) ? rule.nth : [rule.nth]).includes(n)) return undefined;
  if (rule.every !== undefined && n % rule.every !== 0) return undefined;
  if (rule.rate) {
    const windowMs = Math.min(rule.rate.perSeconds, RATE_LIMITS.perSeconds) * 1000;
    const now = t.now();
    const recent = (windows(t).get(key) ?? []).filter((at) => at > now - windowMs);
    // A document kept before the limit was bounded is held to it too.
    if (recent.length >= Math.min(rule.rate.limit, RATE_LIMITS.limit)) {
      windows(t).put(key, recent);
      const retryAfter = Math.max(1, Math.ceil((recent[0] + windowMs - now) / 1000));
      const f = concrete(fault, seed, key, n);
      return f.kind === 'error' ? { ...f, retryAfter: f.retryAfter ?? retryAfter } : f;
    }
    windows(t).put(key, [...recent, now]);
    return undefined;
  }
  return concrete(fault, seed, key, n);
}
