// Records each API request of a tenant in its journal, and tells the readiness observations; it runs inside the tenant's session, so on a
// shared store the entry is written with it. The response body is the object the route
// answered with, handed over by reply(), created() or renderError() through
// c.set('responseBody'); nothing is cloned or serialised on the hot path. Of the request's headers
// only the ones worth showing are kept; they are redacted when the journal is read.
import type { Context, MiddlewareHandler } from 'hono';
import { keptHeaders, type JournalEntry, type RequestHeaders } from '../engine/requests/journal.js';
import type { JournalFault } from '../engine/requests/types.js';
import { bodyTextRead, forgetRequestBody, nodeRequest } from './framework.js';
import { isJsonType } from './media-type.js';
import type { AppEnv } from './types.js';
import { keepWarnings } from './warnings.js';

/** One empty list for every entry with nothing to warn of (never written to). */
const NO_WARNINGS: string[] = Object.freeze([]) as unknown as string[];

export function journalMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    try {
      await record(c, started);
    } finally {
      // A fault holds the answer (latency, timeout): the body is no longer needed, and is let go
      // before the wait, so that many held requests hold their answers only (1 MiB bodies held
      // for a minute each filled the heap at a few hundred requests).
      const hold = c.get('afterJournal');
      if (hold || c.get('afterRelease')) forgetRequestBody(c);
      if (hold) await hold();
    }
  };
}

/** The request's journal entry, and what the readiness observations see of it. */
async function record(c: Context<AppEnv>, started: number): Promise<void> {
  keepWarnings(c);
  const tenant = c.get('tenant');
  if (!tenant) return;
  const url = c.req.url;
  const q = url.indexOf('?');
  const fault = c.get('fault');
  const entry: JournalEntry = {
    id: '',
    at: tenant.nowIso(),
    method: c.req.method,
    path: c.req.path,
    query: q >= 0 ? url.slice(q + 1) : '',
    status: fault ? fault.status : c.res.status,
    sent: fault ? fault.sent : c.res.status,
    fault: fault ? journalFault(fault) : null,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    requestHeaders: keptHeaders(headersOf(c)),
    requestBody: undefined,
    // A request stopped before it ran made no answer: the placeholder the fault answered with is none.
    responseBody: fault && fault.status === null ? null : c.get('responseBody'),
    warnings: c.get('warnings') ?? NO_WARNINGS,
  };
  // The body text, when the route read one, is kept as is and parsed only when the journal is read.
  const text = bodyTextRead(c);
  const shared = tenant.journal.record(entry, text ?? undefined);
  if (shared) await shared;
  // What the readiness report judges: O(1), the body read only around failures.
  const observations = tenant.observations;
  if (!observations.wants(entry.method, entry.path, entry.sent, fault !== undefined)) return;
  const observed = observations.observe({
    id: entry.id,
    at: entry.at,
    now: tenant.now(),
    method: entry.method,
    path: entry.path,
    sent: entry.sent,
    // A drift that found no field to change sent the answer as it was: no drift was met.
    fault: fault && !(fault.kind === 'drift' && fault.field === null) ? { kind: fault.kind, field: fault.field } : null,
    errorCode: c.get('errorCode'),
    bodyInvalid: c.get('bodyInvalid') === true,
    retryAfter: entry.sent === 429 ? (c.res.headers.get('retry-after') ?? undefined) : undefined,
    idempotencyKey: entry.requestHeaders['idempotency-key'],
    response: entry.responseBody,
    // A fault may have answered before the route read the body: it is read now, in that rare case.
    body: () => (text ?? c.req.text()).catch(() => undefined),
    // The route's own parse of a JSON body (parsed once per request, within its budget); a body of
    // another type (an FX trade's XML) is not JSON, and is neither counted nor parsed as JSON here.
    json: () => (isJsonType(c.req.header('content-type')) ? c.req.json().catch(() => undefined) : Promise.resolve(undefined)),
  });
  if (observed) await observed;
}

/** The fault as the journal tells it: the kind, the rule and its scenario, and a drift's or a
 * malformed answer's form (a drift's changed field too). */
function journalFault({ status: _status, sent: _sent, ...fault }: NonNullable<AppEnv['Variables']['fault']>): JournalFault {
  return fault;
}

/** Over HTTP, the header object Node already parsed; in process (app.request), the Request's. */
function headersOf(c: Context<AppEnv>): RequestHeaders {
  return nodeRequest(c)?.headers ?? c.req.raw.headers;
}
