// What the sandbox lets pass but tells the caller about: an unknown body field, a filter value that
// matches nothing. Each is one line of the answer's X-Sandbox-Warning header (joined by "; ") and of
// the request's journal entry (`warnings`).
import type { Context } from 'hono';
import type { AppEnv } from './types.js';

/** A header value is printable ASCII: anything else (a name or value the caller sent) as \uXXXX.
 * Warnings name what was sent this way, so the journal and the header read the same. */
export const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function warn(c: Context<AppEnv>, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  const all = [...(c.get('warnings') ?? []), ...warnings];
  c.set('warnings', all);
  c.header('X-Sandbox-Warning', headerSafe(all.join('; ')));
}

/** A response the route built itself (an event stream) does not take the context's headers: the
 * request's warnings are set on it here. */
export function withWarnings(c: Context<AppEnv>, res: Response): Response {
  const all = c.get('warnings');
  if (all?.length) res.headers.set('X-Sandbox-Warning', headerSafe(all.join('; ')));
  return res;
}
