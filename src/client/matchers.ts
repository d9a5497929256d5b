// Request assertions on a key's journal, for Vitest and Jest (payments-sandbox/matchers; registered by
// payments-sandbox/vitest and payments-sandbox/jest):
//
//   await expect(tenant).toHaveReceived({ method: 'POST', path: '/api/v1/partners/payouts' }, { times: 1 });
//
// The journal is filtered on the server (GET /_sandbox/requests), so the matcher reads only what
// matched; a failure lists those entries, or the latest requests when none matched.
import type { JOURNAL_MAX } from '../admin/admin.schema.js';
import type { JournalEntry, RequestsQuery } from './types.js';

/** Which requests count: as tenant.requests() takes them, without a limit. */
export type RequestMatch = Omit<RequestsQuery, 'limit'>;

export interface ReceivedOptions {
  /** Exactly this many matching requests; default: at least one. */
  times?: number;
}

/** What the matcher needs of the value under test: a SandboxTenant, or anything with its requests(). */
interface Journaled {
  requests(query: RequestsQuery): Promise<{ data: JournalEntry[] }>;
}

/** The matchers' types, to merge into a framework's Matchers interface. */
export interface SandboxMatchers<R = unknown> {
  /** The key's journal holds a request matching `match` (method, path or pattern, status, since): at
   * least one, or exactly `times`. Await it. */
  toHaveReceived(match: RequestMatch, options?: ReceivedOptions): Promise<void>;
}

interface MatcherContext {
  isNot?: boolean;
}

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** The most entries a journal holds (--journal-size's bound), so every match is read. Its type is the
 * server's JOURNAL_MAX: the two cannot differ without the build failing (and a test compares them). */
const JOURNAL_LIMIT: typeof JOURNAL_MAX = 10_000;

const line = (e: JournalEntry) => `  ${e.id} ${e.at} ${e.method} ${e.path}${e.query ? `?${e.query}` : ''} → ${e.status ?? e.sent}`;

function describeMatch(match: RequestMatch): string {
  const parts = Object.entries(match)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v instanceof Date ? v.toISOString() : JSON.stringify(v)}`);
  return `{ ${parts.join(', ')} }`;
}

const isJournaled = (v: unknown): v is Journaled => typeof (v as Journaled | null)?.requests === 'function';

export async function toHaveReceived(this: MatcherContext | void, received: unknown, match: RequestMatch, options: ReceivedOptions = {}): Promise<MatcherResult> {
  if (!isJournaled(received)) {
    throw new TypeError('toHaveReceived: expect() a SandboxTenant (sandbox.tenant(key)), whose journal it reads');
  }
  if (options.times !== undefined && !(Number.isInteger(options.times) && options.times >= 0)) {
    throw new TypeError(`toHaveReceived: times is a whole number of requests, not ${String(options.times)}`);
  }
  const matched = (await received.requests({ ...match, limit: JOURNAL_LIMIT })).data;
  const count = matched.length;
  const pass = options.times === undefined ? count > 0 : count === options.times;
  const wanted = options.times === undefined ? 'at least one request' : `${options.times} request${options.times === 1 ? '' : 's'}`;
  const not = this && this.isNot;
  const head = `expected the key's journal ${not ? 'not ' : ''}to hold ${wanted} matching ${describeMatch(match)}`;
  let message: string;
  if (count > 0) message = `${head}; ${count} matched (newest first):\n${matched.map(line).join('\n')}`;
  else {
    // Nothing matched: what was received instead, to see the near miss.
    const latest = pass ? [] : (await received.requests({ limit: 10 })).data;
    message = `${head}; none matched.${latest.length ? `\nThe latest requests:\n${latest.map(line).join('\n')}` : pass ? '' : '\nThe journal is empty.'}`;
  }
  return { pass, message: () => message };
}

/** For expect.extend(): expect.extend(sandboxMatchers). */
export const sandboxMatchers = { toHaveReceived };
