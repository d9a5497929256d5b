import { z } from '@hono/zod-openapi';
import { timestamp, wholeNumberParam } from '../http/fields.js';
import type { EventCatalog } from '../engine/registry/events.js';
import { FAULT_KINDS } from '../engine/requests/fault-rules.js';
import { JOURNAL_MAX } from '../engine/requests/journal.js';
import { GLOB_LIMITS, globProblem } from '../engine/scenario/scenario.glob.js';


export const Health = z
  .object({
    status: z.literal('ok'),
    uptimeSeconds: z.number(),
    store: z.enum(['memory', 'lowdb', 'postgres']),
    seed: z.number().int().nullable().openapi({ description: 'The seed ids, names, rates and fault draws derive from; start again with --seed to replay a run' }),
    memory: z
      .object({
        budgetMb: z.number().int().nullable().openapi({ description: 'The live heap every key together may fill (--heap-budget); null when the budget is off' }),
        full: z.boolean().openapi({ description: 'true while the live heap is past the budget: creates and keys first seen get 503 with Retry-After, reads go on' }),
      })
      .openapi({ description: "The process's memory budget" }),
  })
  .openapi('Health');

export const ResetResult = z.object({ status: z.literal('success'), message: z.string() }).openapi('ResetResult');

export const ClockState = z
  .object({
    now: timestamp,
    offsetSeconds: z.number().openapi({ description: 'How far the tenant clock is ahead of real time' }),
    frozen: z.boolean().openapi({ description: 'Whether the clock stands still until advanced (PUT /_sandbox/clock)' }),
    pendingJobs: z.number().int(),
    nextDueAt: timestamp.nullable(),
  })
  .openapi('ClockState');

/** An instant with an offset, on the calendar (2030-02-30 is refused, not rolled over). */
const CALENDAR_INSTANT = z.iso.datetime({ offset: true });
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

export const AdvanceRequest = z
  .strictObject({
    seconds: z
      .number()
      .positive({ abort: true })
      // The clock counts whole milliseconds: a smaller advance would move nothing and still answer 200.
      .refine((s) => s >= 0.001, { message: 'must be at least 0.001: the clock counts whole milliseconds', abort: true })
      .max(MAX_ADVANCE_SECONDS)
      .optional()
      .openapi({ example: 3600, description: 'How far to move the clock, at least 0.001: fractions of a second count to the millisecond' }),
    to: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ example: '2027-01-31T00:00:00Z', description: 'The instant to move the clock to; never earlier than now (409)' }),
  })
  // Read after the field's name in the answer's message ("seconds is required: …").
  .refine((b) => b.seconds !== undefined || b.to !== undefined, {
    message: 'is required: send seconds (how far to move the clock, e.g. 3600), or to (the instant to move it to, e.g. 2027-01-31T00:00:00Z)',
    path: ['seconds'],
  })
  .refine((b) => b.seconds === undefined || b.to === undefined, { message: 'cannot be sent with to: send one of them', path: ['seconds'] })
  // The refinement, as the document says it to validating proxies and generated clients.
  .openapi('AdvanceClockRequest', { oneOf: [{ required: ['seconds'] }, { required: ['to'] }], description: 'Exactly one of seconds or to' });

export const SetClockRequest = z
  .strictObject({ frozen: z.boolean().openapi({ description: 'true stops the clock where it stands; false lets it run on from there' }) })
  .openapi('SetClockRequest');

export const AdvanceResult = ClockState.extend({ applied: z.number().int().openapi({ description: 'Timed moves applied by this advance' }) }).openapi('AdvanceClockResult');

/** The most a journal listing answers; the client's matchers read it (as a type: they load nothing of the server). */
export { JOURNAL_MAX };

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The filters of GET /_sandbox/requests; each left out (or empty) matches every entry. */
export const JournalQuery = z.object({
  limit: wholeNumberParam(1, JOURNAL_MAX, 50).openapi({ param: { name: 'limit', in: 'query' }, description: 'Most entries answered, newest first, after filtering' }),
  method: z
    .string()
    .refine((m) => m === '' || (HTTP_METHODS as readonly string[]).includes(m.toUpperCase()), { message: `must be one of: ${HTTP_METHODS.join(', ')}` })
    .optional()
    .openapi({ param: { name: 'method', in: 'query' }, description: 'Only requests of this method (any case)', example: 'POST' }),
  path: z
    .string()
    .max(GLOB_LIMITS.length)
    .refine((p) => p === '' || p.startsWith('/'), { message: 'must begin with /, as in /api/v1/partners/payouts' })
    .superRefine((p, ctx) => {
      const problem = p === '' ? undefined : globProblem(p);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .openapi({
      param: { name: 'path', in: 'query' },
      description:
        'Only requests to this path (the query string apart). A pattern as in a fault rule: * is any text within a segment, {name} at least one character, a ** segment any number of segments',
      example: '/api/v1/partners/payouts/{reference}',
    }),
  status: z
    .string()
    .regex(/^([1-5]\d\d|[1-5][xX]{2})?$/, { message: 'must be a status (404) or a class of them (4xx)' })
    .optional()
    .openapi({ param: { name: 'status', in: 'query' }, description: "Only requests the sandbox answered with this status (404) or class (4xx); a request a fault stopped before it ran has none", example: '4xx' }),
  since: z
    .string()
    .refine((v) => v === '' || /^req_\d{1,15}$/.test(v) || CALENDAR_INSTANT.safeParse(v).success, {
      message: "must be a journal entry's id (req_12), for the requests after it, or an instant on the key's clock (2026-01-15T09:00:00Z), for those at or after it",
    })
    .optional()
    .openapi({
      param: { name: 'since', in: 'query' },
      description: "Only requests after this journal entry (req_12), or at or after this instant of the key's clock",
      example: 'req_12',
    }),
});

export const JournalEntry = z
  .object({
    id: z.string(),
    at: timestamp,
    method: z.string(),
    path: z.string(),
    query: z.string(),
    status: z.number().int().nullable().openapi({ description: "The status of the sandbox's answer; null when a drop or timeout fault stopped the request before it ran" }),
    sent: z
      .union([z.number().int(), z.enum(['dropped', 'timeout'])])
      .openapi({ description: 'What reached the client: the status sent, or dropped (connection closed with no answer) or timeout (held, then closed)' }),
    fault: z
      .object({
        kind: z.enum(FAULT_KINDS),
        rule: z.number().int().openapi({ description: "Index of the rule in the scenario's faults list" }),
        scenario: z.string(),
        form: z
          .string()
          .nullable()
          .openapi({ description: "A drift's or a malformed answer's form (unknown-enum, extra-field, missing-field, null-field; truncated, invalid, html, content-type, reset); null for other kinds" }),
        field: z
          .string()
          .nullable()
          .openapi({ description: "A drift's changed field: a dotted JSON path (data.status), or the XML elements from the root (FXTradInstrRspn/TradSts/Sts); null for other kinds, and when the answer had no field the form could change and went out unchanged" }),
      })
      .nullable()
      .openapi({ description: 'The scenario fault that struck the request, if any' }),
    durationMs: z.number(),
    requestHeaders: z.record(z.string(), z.string()),
    requestBody: z.unknown(),
    responseBody: z.unknown(),
    warnings: z
      .array(z.string())
      .openapi({
        description:
          "What the sandbox warned of in the answer's X-Sandbox-Warning header, e.g. an unknown body field it ignored (with 'did you mean' when a known field is close); empty when nothing.",
      }),
  })
  .openapi('JournalEntry');

export const JournalList = z.object({ data: z.array(JournalEntry) }).openapi('JournalList');

export const eventsQuery = (catalog: EventCatalog) => z.object({
  after: z
    .string()
    .regex(/^(evt_\d{10})?$/, { message: 'must be the id of an event of this log, e.g. evt_0000000042' })
    .optional()
    .openapi({ param: { name: 'after', in: 'query' }, description: 'Only events after this event id', example: 'evt_0000000042' }),
  // The same names a webhook filter takes: a type that can match no event is refused, not answered empty.
  type: z
    .string()
    .superRefine((type, ctx) => {
      const problem = type === '' ? undefined : catalog.problem(type);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .openapi({ param: { name: 'type', in: 'query' }, description: 'An event name (payout.failed), a resource (payout or payout.*), or *' }),
  limit: wholeNumberParam(1, 1000, 100).openapi({ param: { name: 'limit', in: 'query' } }),
});

export const SandboxEvent = z
  .object({ id: z.string(), event: z.string(), createdAt: timestamp, data: z.record(z.string(), z.unknown()) })
  .openapi('SandboxEvent');

export const EventList = z.object({ data: z.array(SandboxEvent), hasMore: z.boolean() }).openapi('EventList');

export const SimulateParams = z.object({
  resource: z.string().openapi({ param: { name: 'resource', in: 'path' }, example: 'payouts' }),
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'order-10001' }),
  event: z.string().openapi({ param: { name: 'event', in: 'path' }, example: 'fail' }),
});

export const SimulateRequest = z
  .strictObject({
    reason: z.string().max(200).optional(),
    accountId: z.guid().optional(),
  })
  .openapi('SimulateRequest');

export const SimulateResult = z
  .object({ resource: z.string(), id: z.string(), event: z.string(), state: z.record(z.string(), z.unknown()) })
  .openapi('SimulateResult');
