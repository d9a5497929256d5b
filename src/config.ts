// Every setting of the sandbox and its default, in one schema for flags and environment.
import { z } from 'zod';
import { LAST_CLOCK_INSTANT } from './kernel/clock.js';
import { JOURNAL_MAX } from './engine/requests/journal.js';
import { poolSizeOf } from './store/postgres.url.js';

const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 };
const DURATION = /^(\d+)([smhd]?)$/;

/** A length of time in whole seconds, given as a number of seconds or as text with a unit: 90s, 45m,
 * 12h, 7d. 0 means never. */
const duration = z
  .union([z.number(), z.string().regex(DURATION, 'expected seconds, or a number with a unit: 90s, 45m, 12h, 7d (0 = never)')])
  .transform((v) => {
    if (typeof v === 'number') return v;
    const [, n, unit] = DURATION.exec(v)!;
    return Number(n) * UNIT_SECONDS[unit];
  })
  .pipe(z.number().int().min(0).max(10 * 365 * 86_400));

/** An instant: ISO 8601 with a zone (2030-01-01T00:00:00Z), a date (2030-01-01, midnight UTC), a
 * Date, or epoch ms (what it is kept as, so a parsed config parses again). */
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const instant = z
  .preprocess((v) => ((v instanceof Date && !Number.isNaN(v.getTime())) || (typeof v === 'number' && Number.isFinite(v)) ? new Date(v).toISOString() : v), z.string().regex(INSTANT, 'expected an instant, 2030-01-01T00:00:00Z, or a date, 2030-01-01'))
  .refine((v) => z.iso.date().safeParse(v.slice(0, 10)).success && Number.isFinite(Date.parse(v)), 'is not a date of the calendar')
  .transform((v) => Date.parse(v))
  .refine((ms) => ms <= LAST_CLOCK_INSTANT, `is past ${new Date(LAST_CLOCK_INSTANT).toISOString()}, the furthest a key's clock goes: send an earlier instant`);

/** A whole number from 0, saying `message` of any other value (text, a fraction, a negative). */
const wholeNumber = (message: string) => z.coerce.number({ error: message }).int(message).min(0, message);

export const ConfigSchema = z.object({
  port: wholeNumber('must be a whole number from 0 to 65535').max(65535, 'must be a whole number from 0 to 65535').default(4010),
  host: z.string().min(1).default('127.0.0.1'),
  /** Directory for persistent tenants; absent means memory only. */
  data: z.string().min(1).optional(),
  /** A PostgreSQL URL (postgres://…): every tenant in that database, shared by every replica given
   * the same URL. Absent: memory, or lowdb files with --data. */
  store: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'expected a PostgreSQL URL: postgres://user:password@host:5432/database')
    .refine((url) => poolSizeOf(url) !== undefined, "the URL's max (connections in each replica's pool) must be a whole number from 1 to 1000, e.g. ?max=8")
    .optional(),
  /** Default scenario for every tenant: a bundled name or a file. */
  scenario: z.string().min(1).default('default'),
  /** The instant (epoch ms) at which the clock of every key first seen after start begins, past or
   * future; it runs on from there. Keys already stored keep their clocks. Absent: real time. */
  clock: instant.optional(),
  /** Makes ids, names and rates repeatable. */
  seed: wholeNumber('must be a whole number from 0').optional(),
  /** File of accepted keys, one per line. */
  keys: z.string().min(1).optional(),
  /** Which keys are accepted: any suffix after sk_test_ or sk_live_ (readable CI keys), or only the
   * live service's format, 32 lowercase hex characters. */
  keyFormat: z.enum(['any', 'live']).default('any'),
  /** How often due jobs of loaded tenants are applied in the background, in ms. */
  tickMs: z.coerce.number().int().min(10).default(1000),
  journalSize: z.coerce.number().int().min(1).max(JOURNAL_MAX).default(200),
  eventLogSize: z.coerce.number().int().min(1).max(100_000).default(1000),
  bodyLimitBytes: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Most tenants kept in memory with --data; the least recently used idle ones reload from disk on
   * their next request. 0 keeps every tenant. Without --data it has no effect (nothing to reload). */
  maxTenants: z.coerce.number().int().min(0).default(0),
  /** With --data, most log files open at once, whatever the number of keys; the least recently
   * written idle one is closed to make room. */
  maxOpenLogs: z.coerce.number().int().min(1).max(10_000).default(128),
  /** Which addresses webhooks may reach: any, or public only (no private, loopback or link-local
   * address, literal or resolved), which a hosted sandbox needs. */
  webhookTargets: z.enum(['any', 'public']).default('any'),
  /** Seconds (real time) a resource may go unchanged, with no timed move waiting, before it is
   * dropped with its idempotency record; events older than this go too. 0 keeps them forever. */
  resourceRetention: duration.default(7 * 86_400),
  /** Seconds (real time) a key may send no request before its tenant is dropped entirely, files
   * included. 0 keeps every tenant. */
  tenantRetention: duration.default(30 * 86_400),
  /** Most resources one key may hold; a create past it is refused with 409 TENANT_FULL. 0: no cap. */
  maxResources: z.coerce.number().int().min(0).default(100_000),
  /** The share of what V8 lets the old generation hold, in percent, the live heap may fill before
   * creates and keys first seen are refused with 503 (every key shares one heap). 0 turns it off. */
  heapBudget: z.coerce.number().int().min(0).max(95).default(75),
  /** Connection timeouts, in ms; 0 turns one off. Headers must arrive within headersTimeoutMs and
   * the whole request (headers and body) within requestTimeoutMs, else 408 and the connection closes;
   * a scenario's latency or timeout fault holds a request only once it has arrived, so neither cuts it. */
  headersTimeoutMs: z.coerce.number().int().min(0).default(10_000),
  requestTimeoutMs: z.coerce.number().int().min(0).default(30_000),
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: z.coerce.number().int().min(0).default(5_000),
  /** A connection with more than maxUnreadBytes of answer waiting for its client to read, for longer
   * than unreadTimeoutMs, is closed. */
  maxUnreadBytes: z.coerce.number().int().min(0).default(64 * 1024),
  unreadTimeoutMs: z.coerce.number().int().min(0).default(30_000),
  /** How often an open rate stream sends a heartbeat (and the rate updates of minutes passed since), in seconds of real time. */
  heartbeatSeconds: z.coerce.number().int().min(1).max(300).default(15),
  /** Most rate streams open at once for all keys; past it a new one is 503 with Retry-After. Absent:
   * a quarter of the process's open-file limit (main.ts reads it; 1,024 assumed where it is not known). */
  maxStreams: z.coerce.number().int().min(1).optional(),
  /** Most connections open at once for all keys; past it a new connection is closed as it opens,
   * so sockets cannot take the files the store and the streams need. Absent: half of the process's
   * open-file limit (main.ts reads it; 1,024 assumed where it is not known). */
  maxConnections: z.coerce.number().int().min(1).optional(),
  /** Seconds (real time) a rate stream stays open at most; it then ends and EventSource reconnects. */
  streamLifetime: duration.pipe(z.number().min(1, 'must be at least 1 second: every stream ends')).default(3600),
}).refine((c) => !(c.store && c.data), {
  path: ['store'],
  message: 'give either --store postgres://… (shared database) or --data DIR (files), not both',
}).refine((c) => c.requestTimeoutMs === 0 || c.headersTimeoutMs <= c.requestTimeoutMs, {
  path: ['headersTimeoutMs'],
  message: 'must not be longer than the request timeout, which includes the headers',
});

export type Config = z.infer<typeof ConfigSchema>;

/** Environment variables that set a config field. */
export const ENV_NAMES: Record<string, keyof Config> = {
  PORT: 'port',
  HOST: 'host',
  SANDBOX_DATA: 'data',
  // Not DATABASE_URL: CI jobs set it for the application under test, and the default store is memory.
  SANDBOX_STORE: 'store',
  SANDBOX_SCENARIO: 'scenario',
  SANDBOX_SEED: 'seed',
  SANDBOX_CLOCK: 'clock',
  SANDBOX_KEYS: 'keys',
  SANDBOX_KEY_FORMAT: 'keyFormat',
  SANDBOX_TICK_MS: 'tickMs',
  SANDBOX_MAX_TENANTS: 'maxTenants',
  SANDBOX_MAX_OPEN_LOGS: 'maxOpenLogs',
  SANDBOX_WEBHOOK_TARGETS: 'webhookTargets',
  SANDBOX_RESOURCE_RETENTION: 'resourceRetention',
  SANDBOX_TENANT_RETENTION: 'tenantRetention',
  SANDBOX_MAX_RESOURCES: 'maxResources',
  SANDBOX_HEAP_BUDGET: 'heapBudget',
  SANDBOX_HEADERS_TIMEOUT_MS: 'headersTimeoutMs',
  SANDBOX_REQUEST_TIMEOUT_MS: 'requestTimeoutMs',
  SANDBOX_KEEP_ALIVE_TIMEOUT_MS: 'keepAliveTimeoutMs',
  SANDBOX_MAX_UNREAD_BYTES: 'maxUnreadBytes',
  SANDBOX_UNREAD_TIMEOUT_MS: 'unreadTimeoutMs',
  SANDBOX_HEARTBEAT_SECONDS: 'heartbeatSeconds',
  SANDBOX_MAX_STREAMS: 'maxStreams',
  SANDBOX_MAX_CONNECTIONS: 'maxConnections',
  SANDBOX_STREAM_LIFETIME: 'streamLifetime',
};

export const defaultConfig = (): Config => ConfigSchema.parse({});
