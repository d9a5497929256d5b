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
  c.header('X-Sandbox-Warning', warningHeader(all));
}

/** The X-Sandbox-Warning value of a request's warnings. */
export const warningHeader = (all: readonly string[]) => headerSafe(all.join('; '));

/** An answer the route built as its own Response (an event stream, an XML reject) takes none of the
 * context's headers: the API's requests get their warnings set on it once answered
 * (journal-middleware.ts), whatever built it. */
export function keepWarnings(c: Context<AppEnv>): void {
  const all = c.get('warnings');
  if (all?.length && !c.res.headers.has('X-Sandbox-Warning')) c.res.headers.set('X-Sandbox-Warning', warningHeader(all));
}
