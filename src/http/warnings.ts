// What the sandbox lets pass but tells the caller about: an unknown body field, a filter value that
// matches nothing. Each is one line of the answer's X-Sandbox-Warning header (joined by "; ") and of
// the request's journal entry (`warnings`).
import type { Context } from 'hono';
import type { AppEnv } from './types.js';

export function warn(c: Context<AppEnv>, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  const all = [...(c.get('warnings') ?? []), ...warnings];
  c.set('warnings', all);
  c.header('X-Sandbox-Warning', all.join('; '));
}
