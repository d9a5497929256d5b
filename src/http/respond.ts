import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { StoredResponse } from '../engine/idempotency.js';
import type { AppEnv } from './types.js';

/**
 * Answer JSON and hand the body to the request journal. The /api routes answer through this (or
 * renderError) rather than c.json, so the journal never has to wrap c.json on every request.
 */
export function reply<T, U extends ContentfulStatusCode>(c: Context<AppEnv>, body: T, status: U) {
  c.set('responseBody', body);
  return c.json(body, status);
}

/** Send a created (or replayed) resource, marking replays as the idempotency contract says. */
export function respondIdempotent(c: Context<AppEnv>, res: StoredResponse & { replayed: boolean }) {
  if (res.replayed) c.header('Idempotent-Replayed', 'true');
  return reply(c, res.body as never, res.status as 201);
}

/** The scenario named for this one request, if any. */
export const requestScenario = (c: Context): string | undefined => c.req.header('x-sandbox-scenario') || undefined;
