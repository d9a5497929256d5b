import type { Context } from 'hono';
import type { StoredResponse } from '../engine/idempotency.js';

/** Send a created (or replayed) resource, marking replays as the idempotency contract says. */
export function respondIdempotent(c: Context, res: StoredResponse & { replayed: boolean }) {
  if (res.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(res.body as never, res.status as 201);
}

/** The scenario named for this one request, if any. */
export const requestScenario = (c: Context): string | undefined => c.req.header('x-sandbox-scenario') || undefined;
