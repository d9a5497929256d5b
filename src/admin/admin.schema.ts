import { z } from '@hono/zod-openapi';
import { timestamp } from '../http/fields.js';
import type { EventCatalog } from '../engine/events.js';


export const Health = z.object({ status: z.literal('ok'), uptimeSeconds: z.number(), store: z.enum(['memory', 'lowdb']) }).openapi('Health');

export const ResetResult = z.object({ status: z.literal('success'), message: z.string() }).openapi('ResetResult');

export const ClockState = z
  .object({
    now: timestamp,
    offsetSeconds: z.number().openapi({ description: 'How far the tenant clock is ahead of real time' }),
    pendingJobs: z.number().int(),
    nextDueAt: timestamp.nullable(),
  })
  .openapi('ClockState');

export const AdvanceRequest = z
  .object({ seconds: z.number().positive().max(10 * 365 * 24 * 3600).openapi({ example: 3600 }) })
  .openapi('AdvanceClockRequest');

export const AdvanceResult = ClockState.extend({ applied: z.number().int().openapi({ description: 'Timed moves applied by this advance' }) }).openapi('AdvanceClockResult');

export const JournalQuery = z.object({
  limit: z.coerce.number().int().min(1).max(10_000).default(50).openapi({ param: { name: 'limit', in: 'query' } }),
});

export const JournalEntry = z
  .object({
    id: z.string(),
    at: timestamp,
    method: z.string(),
    path: z.string(),
    query: z.string(),
    status: z.number().int(),
    durationMs: z.number(),
    requestHeaders: z.record(z.string(), z.string()),
    requestBody: z.unknown(),
    responseBody: z.unknown(),
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
  limit: z.coerce.number().int().min(1).max(1000).default(100).openapi({ param: { name: 'limit', in: 'query' } }),
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
    accountId: z.uuid().optional(),
  })
  .openapi('SimulateRequest');

export const SimulateResult = z
  .object({ resource: z.string(), id: z.string(), event: z.string(), state: z.record(z.string(), z.unknown()) })
  .openapi('SimulateResult');
