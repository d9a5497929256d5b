// The generic routes of the /_sandbox control API: health, reset, the clock, the request journal, the
// event log and simulate. Every route but health acts on the caller's tenant.
import { createRoute, type z } from '@hono/zod-openapi';
import type { JournalEntry } from '../engine/requests/journal.js';
import { compileGlob } from '../engine/scenario/scenario.glob.js';
import { iso, LAST_CLOCK_INSTANT } from '../kernel/clock.js';
import { notFoundAt, SandboxError } from '../kernel/errors.js';
import type { HeapBudget } from '../kernel/heap-budget.js';
import { parseJsonBody } from '../kernel/json-budget.js';
import { nextTurn } from '../kernel/turns.js';
import { validationError } from '../kernel/validation.js';
import type { Tenant } from '../engine/tenancy/tenant.js';
import { CONTROL_TAG, errorResponses, jsonBody, jsonResponse, newRouter, openErrorResponses, security } from '../http/openapi.js';
import { isJsonType } from '../http/media-type.js';
import { streamedList } from '../http/json-list.js';
import { warn } from '../http/warnings.js';
import {
  AdvanceRequest,
  AdvanceResult,
  ClockState,
  EventList,
  eventsQuery,
  Health,
  JournalList,
  JournalQuery,
  ResetResult,
  SetClockRequest,
  SimulateParams,
  SimulateRequest,
  SimulateResult,
} from './admin.schema.js';
import type { EventCatalog } from '../engine/registry/events.js';
import type { Simulator } from '../engine/registry/resource.js';

const tags = [CONTROL_TAG.name];

const SIMULATE_BODY_DOC = {
  type: 'object',
  additionalProperties: false,
  description: 'Optional; may be empty. Any other field is refused.',
  properties: {
    reason: { type: 'string', maxLength: 200, description: 'Failure reason, for fail moves' },
    accountId: { type: 'string', format: 'uuid', description: 'For fx-trades accept: the balance account the trade settles to' },
  },
} as const;

/** The optional simulate body: empty means {}; otherwise a JSON object. */
async function simulateBody(req: Request): Promise<Record<string, unknown>> {
  const text = (await req.text()).trim();
  if (text === '') return {};
  if (!isJsonType(req.headers.get('content-type') ?? undefined)) {
    throw new SandboxError('UNSUPPORTED_MEDIA_TYPE', 'A simulate body is JSON: send it with Content-Type: application/json, or send no body.', [
      { field: 'Content-Type', issue: 'must be application/json, or send no body' },
    ]);
  }
  let raw: unknown;
  try {
    raw = parseJsonBody(text);
  } catch (e) {
    if (e instanceof SandboxError) throw e;
    throw new SandboxError('MALFORMED_JSON', 'The request body is not valid JSON. Send a JSON object such as {"reason": "..."}, or no body.', [
      { field: 'body', issue: 'is not valid JSON: send a JSON object, or no body' },
    ]);
  }
  const parsed = SimulateRequest.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'json', raw);
  return parsed.data;
}

function clockState(t: Tenant) {
  const next = t.scheduler.nextDueAt();
  return {
    now: t.nowIso(),
    offsetSeconds: t.offsetSeconds,
    frozen: t.frozen,
    pendingJobs: t.store.collection('jobs').size,
    nextDueAt: next === undefined ? null : iso(next),
  };
}

/** What to say of a journal `path` filter no entry can match: the journal keeps requests to /api routes
 * only, so a pattern whose first segment cannot be `api` (`/v1/partners/payouts`, `/_sandbox/clock`)
 * would answer an empty list without a word, as a bulk page's unknown filter value would. */
function pathOutsideJournal(path: string): string | undefined {
  const first = path.split('/')[1] ?? '';
  if (compileGlob(`/${first}`)('/api')) return undefined;
  const hint = first === 'v1' ? `: did you mean '/api${path}'?` : '';
  return `path '${path}' can match no entry: the journal keeps requests to /api routes only${hint}`;
}

/** The filters of a journal query as one test, or undefined when it has none (every filter empty or left out). */
function journalFilter(q: z.output<typeof JournalQuery>): ((e: JournalEntry) => boolean) | undefined {
  const tests: ((e: JournalEntry) => boolean)[] = [];
  if (q.method) {
    const method = q.method.toUpperCase();
    tests.push((e) => e.method === method);
  }
  if (q.path) {
    const matches = compileGlob(q.path);
    tests.push((e) => matches(e.path));
  }
  if (q.status) {
    const status = q.status;
    tests.push(status.toLowerCase().endsWith('xx') ? (e) => e.status !== null && String(e.status)[0] === status[0] : (e) => e.status === Number(status));
  }
  if (q.since) {
    if (q.since.startsWith('req_')) {
      const after = Number(q.since.slice(4));
      tests.push((e) => Number(e.id.slice(4)) > after);
    } else {
      const from = Date.parse(q.since);
      tests.push((e) => Date.parse(e.at) >= from);
    }
  }
  return tests.length === 0 ? undefined : (e) => tests.every((t) => t(e));
}


/** Moves an advance applies between turns of the event loop. With a webhook set each move also makes
 * a delivery, signs and queues it: 256 at a time (the background tick's slice) took 10 to 50 ms. */
const ADVANCE_SLICE = 64;

/** Work a timed move starts outside the request (a webhook attempt), which an advance waits for before going on. */
export interface Settle {
  /** Whether something the tenant's moves started is still under way. */
  busy(t: Tenant): boolean;
  /** Resolves once it is done, or after at most `maxMs` of real time. */
  wait(t: Tenant, maxMs: number): Promise<void>;
  /** Real time one advance may spend waiting in all; past it, the rest of the advance applies its
   * moves without waiting, so a receiver that hangs cannot hold an advance for minutes. */
  budgetMs: number;
}

export interface AdminOptions {
  settle?: Settle;
  /** The seed the server runs with. */
  seed?: number;
  /** The resources POST /_sandbox/simulate moves, by URL segment. */
  simulators: ReadonlyMap<string, Simulator>;
  /** The events of the app's resources: what the event log's `type` may name. */
  events: EventCatalog;
  startedAt: number;
  storeKind: 'memory' | 'lowdb' | 'postgres';
  /** The process's memory budget, which health shows. */
  heap?: HeapBudget;
}

const health = createRoute({
  method: 'get',
  path: '/_sandbox/health',
  operationId: 'getHealth',
  tags,
  security: [],
  summary: 'Health (no key needed)',
  responses: { 200: jsonResponse(Health, 'The sandbox is up'), ...openErrorResponses() },
});

const reset = createRoute({
  method: 'post',
  path: '/_sandbox/reset',
  operationId: 'resetTenant',
  tags,
  security,
  summary: 'Forget this tenant: resources, balances, jobs, events, journal and clock offset',
  responses: { 200: jsonResponse(ResetResult, 'The tenant is as new'), ...errorResponses() },
});

const clock = createRoute({
  method: 'get',
  path: '/_sandbox/clock',
  operationId: 'getClock',
  tags,
  security,
  summary: "Read the tenant's clock",
  responses: { 200: jsonResponse(ClockState, 'The tenant clock'), ...errorResponses() },
});

const setClock = createRoute({
  method: 'put',
  path: '/_sandbox/clock',
  tags,
  security,
  summary: "Freeze the tenant's clock (it then moves only when advanced), or let it run again",
  request: { body: jsonBody(SetClockRequest) },
  responses: { 200: jsonResponse(ClockState, 'The tenant clock'), ...errorResponses(400) },
});

const advance = createRoute({
  method: 'post',
  path: '/_sandbox/clock/advance',
  operationId: 'advanceClock',
  tags,
  security,
  summary: "Advance the tenant's clock by seconds or to an instant; every due move happens in order, each at its own time",
  description:
    'Webhook attempts a move starts are made before the clock goes further, so their retries within the skipped time happen too. Moving to an earlier instant is 409 CLOCK_BACKWARDS; past 9999-01-01T00:00:00Z is 400.',
  request: { body: jsonBody(AdvanceRequest) },
  responses: { 200: jsonResponse(AdvanceResult, 'The clock after the advance'), ...errorResponses(400, 409) },
});

const journal = createRoute({
  method: 'get',
  path: '/_sandbox/requests',
  operationId: 'listRequests',
  tags,
  security,
  summary: "The tenant's request journal, newest first, secrets redacted; filtered by method, path, status and since",
  request: { query: JournalQuery },
  responses: { 200: jsonResponse(JournalList, 'Journal entries'), ...errorResponses(400) },
});

const eventLog = (events: EventCatalog) =>
  createRoute({
    method: 'get',
    path: '/_sandbox/events',
    operationId: 'listEvents',
    tags,
    security,
    summary: "The tenant's event log, oldest first",
    request: { query: eventsQuery(events) },
    responses: { 200: jsonResponse(EventList, 'Events'), ...errorResponses(400) },
  });

const simulate = (resources: readonly string[]) =>
  createRoute({
    method: 'post',
    path: '/_sandbox/simulate/{resource}/{id}/{event}',
    operationId: 'simulateEvent',
    tags,
    security,
    summary: 'Push a resource along its state machine',
    description: `Resources: ${resources.join(', ')}. A move the machine forbids is 409.`,
    // The body is optional and often sent empty with a JSON content type, so it is read by hand.
    request: { params: SimulateParams, body: { required: false, content: { 'application/json': { schema: SIMULATE_BODY_DOC } } } },
    responses: { 200: jsonResponse(SimulateResult, 'The resource after the move'), ...errorResponses(400, 404, 409) },
  });

export function adminRoutes(opts: AdminOptions) {
  const { simulators } = opts;
  const resources = [...simulators.keys()].sort();

  return newRouter()
    .openapi(health, (c) =>
      c.json(
        {
          status: 'ok' as const,
          uptimeSeconds: Math.round((Date.now() - opts.startedAt) / 1000),
          store: opts.storeKind,
          seed: opts.seed ?? null,
          memory: { budgetMb: opts.heap?.bytes ? opts.heap.figures().budgetMb : null, full: opts.heap?.over() ?? false },
        },
        200,
      ),
    )
    .openapi(reset, (c) => {
      c.get('tenant').reset();
      return c.json({ status: 'success' as const, message: "This API key's sandbox data was reset." }, 200);
    })
    .openapi(clock, (c) => c.json(clockState(c.get('tenant')), 200))
    .openapi(setClock, (c) => {
      const t = c.get('tenant');
      t.freeze(c.req.valid('json').frozen);
      return c.json(clockState(t), 200);
    })
    .openapi(advance, async (c) => {
      const t = c.get('tenant');
      const body = c.req.valid('json');
      const base = t.baseNow();
      const now = t.nowAt(base);
      const target = body.to !== undefined ? Date.parse(body.to) : now + Math.round(body.seconds! * 1000);
      if (target > LAST_CLOCK_INSTANT) {
        const field = body.to !== undefined ? 'to' : 'seconds';
        throw new SandboxError('VALIDATION_ERROR', `The clock is at ${iso(now)}; it goes no further than ${iso(LAST_CLOCK_INSTANT)}, so every date the API shows keeps a four-digit year. Send a smaller advance.`, [
          { field, issue: `would move the clock past ${iso(LAST_CLOCK_INSTANT)}: send ${field === 'to' ? 'an earlier instant' : `at most ${Math.floor((LAST_CLOCK_INSTANT - now) / 1000)} seconds`}` },
        ]);
      }
      if (target < now) {
        throw new SandboxError('CLOCK_BACKWARDS', `The clock is at ${iso(now)}; it never goes back. Send a later instant in to, or seconds.`, [
          { field: 'to', issue: `must not be earlier than ${iso(now)}` },
        ]);
      }
      let applied = 0;
      const until = Date.now() + (opts.settle?.budgetMs ?? 0);
      // In slices, giving the event loop its turn between them, as the background tick does: a year's
      // advance over tens of thousands of moves held every key's requests for most of a second.
      const advancing = t.beginAdvance();
      try {
        for (;;) {
          const left = until - Date.now();
          const settle = opts.settle && left > 0 ? opts.settle : undefined;
          const step = t.advanceTo(target, settle && (() => settle.busy(t)), base, ADVANCE_SLICE);
          applied += step.applied;
          if (!step.paused) break;
          if (step.paused === 'slice') {
            await nextTurn();
            continue;
          }
          // The key's requests may run while a webhook attempt is awaited (its receiver may call back).
          advancing.open();
          await settle!.wait(t, left);
          advancing.close();
        }
      } finally {
        advancing.end();
      }
      return c.json({ ...clockState(t), applied }, 200);
    })
    .openapi(journal, async (c) => {
      const q = c.req.valid('query');
      const match = journalFilter(q);
      const outside = q.path ? pathOutsideJournal(q.path) : undefined;
      if (outside) warn(c, [outside]);
      const journal = c.get('tenant').journal;
      // The journal holds at most --journal-size entries: filtered as kept, newest first, until `limit` match.
      // Up to 200 bodies of 16 KiB: written a slice at a time (http/json-list.ts).
      return streamedList(c, 'data', await journal.list(q.limit, match)) as never;
    })
    .openapi(eventLog(opts.events), async (c) => {
      const q = c.req.valid('query');
      // An empty value is no filter, as if left out.
      const page = await c.get('tenant').events.list({ after: q.after || undefined, type: q.type || undefined, limit: q.limit + 1 });
      // Up to 1,000 events of several hundred bytes each: written a slice at a time (http/json-list.ts).
      return streamedList(c, 'data', page.slice(0, q.limit), { hasMore: page.length > q.limit }) as never;
    })
    .openapi(simulate(resources), async (c) => {
      const { resource, id, event } = c.req.valid('param');
      const sim = simulators.get(resource);
      if (!sim) {
        throw new SandboxError('RESOURCE_NOT_FOUND', `No simulated resource type '${resource}'. Use one of: ${resources.join(', ')}.`, [
          { field: 'resource', issue: `must be one of: ${resources.join(', ')}` },
        ]);
      }
      if (!sim.events.includes(event)) {
        throw new SandboxError('VALIDATION_ERROR', `'${event}' is not an event of ${resource}. Use one of: ${sim.events.join(', ')}.`, [
          { field: 'event', issue: `must be one of: ${sim.events.join(', ')}` },
        ]);
      }
      const body = await simulateBody(c.req.raw);
      const state = lookedUp(() => sim.apply(c.get('tenant'), id, event, body));
      // A field this move does not read (a reason on a complete, an accountId off an FX accept) is named, not dropped without a word.
      const reads = sim.reads?.(event) ?? [];
      warn(c, Object.keys(body).filter((f) => body[f] !== undefined && !reads.includes(f)).map((f) => `field '${f}' was ignored: the ${event} move of ${resource} does not read it`));
      return c.json({ resource, id, event, state }, 200);
    });
}

/** A simulated move of a resource this key does not have: its 404 names the path's `id`, whatever
 * the resource's own route calls it (reference, transactionId). */
function lookedUp<T>(move: () => T): T {
  try {
    return move();
  } catch (err) {
    throw err instanceof SandboxError && err.code === 'RESOURCE_NOT_FOUND' ? notFoundAt(err, 'id') : err;
  }
}
