// Records each API request of a tenant in its journal. The response body is the object the route
// answered with, handed over by reply(), created() or renderError() through
// c.set('responseBody'); nothing is cloned or serialised on the hot path. The request's headers are
// kept as the server parsed them and narrowed to the ones worth showing when the journal is read.
import type { Context, MiddlewareHandler } from 'hono';
import type { JournalEntry, RequestHeaders } from '../engine/journal.js';
import { bodyTextRead, nodeRequest } from './framework.js';
import type { AppEnv } from './types.js';

export function journalMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const tenant = c.get('tenant');
    if (!tenant) return;
    const url = c.req.url;
    const q = url.indexOf('?');
    const entry: JournalEntry = {
      id: '',
      at: tenant.nowIso(),
      method: c.req.method,
      path: c.req.path,
      query: q >= 0 ? url.slice(q + 1) : '',
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      requestHeaders: headersOf(c),
      requestBody: undefined,
      responseBody: c.get('responseBody'),
    };
    tenant.journal.record(entry);
    // The body text, when the route read one, is kept as is and parsed only when the journal is read.
    // It has arrived by now; taking it without awaiting keeps the response from waiting a turn.
    const text = bodyTextRead(c);
    if (text) {
      text.then(
        (t) => (entry.requestBody = t),
        () => undefined,
      );
    }
  };
}

/** Over HTTP, the header object Node already parsed; in process (app.request), the Request's. */
function headersOf(c: Context<AppEnv>): RequestHeaders {
  return nodeRequest(c)?.headers ?? c.req.raw.headers;
}
