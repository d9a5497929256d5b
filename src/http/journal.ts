// Records each API request of a tenant in its journal. The response body is the object the route
// answered with, handed over by reply(), respondIdempotent() or renderError() through
// c.set('responseBody'); nothing is cloned or serialised on the hot path.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './types.js';

export function journalMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const tenant = c.get('tenant');
    if (!tenant) return;
    const text = c.req.bodyCache.text;
    // The body text is kept as is and parsed only when the journal is read.
    const requestBody = text ? await Promise.resolve(text).catch(() => undefined) : undefined;
    const url = c.req.url;
    const q = url.indexOf('?');
    tenant.journal.record({
      at: tenant.nowIso(),
      method: c.req.method,
      path: c.req.path,
      query: q >= 0 ? url.slice(q + 1) : '',
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      requestHeaders: pickHeaders(c.req.raw.headers),
      requestBody,
      responseBody: c.get('responseBody'),
    });
  };
}

/** The headers worth showing; copying all of them would cost every request. */
const KEPT_HEADERS = ['authorization', 'content-type', 'accept', 'user-agent', 'x-service-source', 'x-sandbox-scenario', 'idempotency-key'];

function pickHeaders(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = h.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
}
