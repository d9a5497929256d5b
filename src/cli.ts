// Command line: flags over environment over defaults, all checked by the one config schema.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import ipaddr from 'ipaddr.js';
import { ConfigSchema, ENV_NAMES, type Config } from './config.js';

export type Command =
  | { name: 'serve'; config: Config; given: ReadonlySet<keyof Config> }
  | { name: 'openapi'; config: Config; given: ReadonlySet<keyof Config> }
  | { name: 'validate'; file: string }
  | { name: 'report'; url: string; key: string; format: ReportFormat }
  | { name: 'help' };

export type ReportFormat = 'json' | 'markdown' | 'junit';
const REPORT_FORMATS: readonly ReportFormat[] = ['json', 'markdown', 'junit'];

export const USAGE = `Usage: payments-sandbox [serve] [options]
       payments-sandbox openapi            print the OpenAPI document
       payments-sandbox validate FILE      check a scenario file (YAML or JSON)
       payments-sandbox report --url URL --key KEY [--format json|markdown|junit]
                                           print a key's readiness report from a running
                                           sandbox; exit 1 when not ready [SANDBOX_URL, SANDBOX_KEY]

Options (environment variable in brackets):
  --port N          port to listen on, default 4010 [PORT]
  --host ADDR       address to listen on, default 127.0.0.1 [HOST]
  --data DIR        keep every tenant in lowdb files under DIR [SANDBOX_DATA]
  --store URL       keep every tenant in PostgreSQL (postgres://user:pass@host/db), shared
                    by every replica given the same URL [SANDBOX_STORE]
  --scenario NAME   default scenario, bundled name or file [SANDBOX_SCENARIO]
  --seed N          make ids, names and rates repeatable [SANDBOX_SEED]
  --clock INSTANT   the clock of every key first seen after start begins at INSTANT
                    (2030-01-01T00:00:00Z or 2030-01-01), past or future, and runs on;
                    keys already stored keep theirs. Replicas: start all with the same
                    INSTANT. Default: real time [SANDBOX_CLOCK]
  --keys FILE       accept only the keys listed in FILE, one per line [SANDBOX_KEYS]
  --key-format any|live
                    live refuses keys that are not sk_test_ or sk_live_ followed by 32
                    lowercase hex characters (the live format); default any [SANDBOX_KEY_FORMAT]
  --max-tenants N   with --data, keep at most N tenants in memory; idle ones reload
                    from disk when next used. 0 (default) keeps all [SANDBOX_MAX_TENANTS]
  --max-open-logs N with --data, keep at most N log files open whatever the number of
                    keys, default 128 [SANDBOX_MAX_OPEN_LOGS]
  --webhook-targets any|public
                    public refuses webhook URLs on private, loopback and link-local
                    addresses (set it on a hosted sandbox); default any [SANDBOX_WEBHOOK_TARGETS]
  --resource-retention AGE  drop resources unchanged for AGE (real time) with no timed move
                    waiting, and events older than AGE: 90s, 45m, 12h, 7d; 0 keeps them
                    forever. Default 7d [SANDBOX_RESOURCE_RETENTION]
  --tenant-retention AGE  drop a key's whole tenant (memory and files) after AGE without a
                    request; 0 keeps every tenant. Default 30d [SANDBOX_TENANT_RETENTION]
  --max-resources N most resources one key may hold; a create past it is refused with
                    409 TENANT_FULL. 0: no cap. Default 100000 [SANDBOX_MAX_RESOURCES]
  --heap-budget PERCENT  the share of what the heap may hold that the live heap may
                    fill, for all keys together; past it creates and keys first seen are refused with
                    503 and Retry-After. 0 turns it off. Default 75 [SANDBOX_HEAP_BUDGET]
  --heartbeat-seconds N  how often an open rate stream sends a heartbeat, 1 to 300,
                    default 15 [SANDBOX_HEARTBEAT_SECONDS]
  --max-streams N   most rate streams open at once for all keys; past it 503 with
                    Retry-After. Default a quarter of the process's open-file limit
                    (ulimit -n) [SANDBOX_MAX_STREAMS]
  --stream-lifetime AGE  a rate stream ends after AGE of real time (EventSource clients
                    reconnect): 90s, 45m, 1h. Default 1h [SANDBOX_STREAM_LIFETIME]

Connections (milliseconds; 0 turns a timeout off):
  --headers-timeout-ms N     headers must arrive within N, default 10000
                             [SANDBOX_HEADERS_TIMEOUT_MS]
  --request-timeout-ms N     the whole request, body included, must arrive within N,
                             default 30000 (scenario faults are not counted)
                             [SANDBOX_REQUEST_TIMEOUT_MS]
  --keep-alive-timeout-ms N  close an idle keep-alive connection after N, default 5000
                             [SANDBOX_KEEP_ALIVE_TIMEOUT_MS]
  --max-unread-bytes N       close a connection whose client leaves more than N bytes
                             of answer unread for --unread-timeout-ms, default 65536
                             [SANDBOX_MAX_UNREAD_BYTES]
  --unread-timeout-ms N      default 30000 [SANDBOX_UNREAD_TIMEOUT_MS]
  --max-connections N        most connections open at once for all keys; past it a new
                             one is closed as it opens. Default half of the process's
                             open-file limit (ulimit -n) [SANDBOX_MAX_CONNECTIONS]

Environment only:
  SANDBOX_TICK_MS=N          how often timed moves and webhook retries that fell due are
                             applied in the background, in ms, at least 10; default 1000

  -h, --help        show this help`;

/** parseArgs, with an unknown or incomplete option said in one line and followed by the usage
 * (node's own text goes on about positional arguments, which the command takes none of). */
function parseArgv<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    const e = err as { code?: string; message: string };
    if (!e.code?.startsWith('ERR_PARSE_ARGS_')) throw err;
    throw new Error(`${e.message.split('. ')[0].replace(/\.$/, '')}: see the options below.\n\n${USAGE}`);
  }
}

/** `report`: its own options; the URL and key may come from SANDBOX_URL and SANDBOX_KEY. */
function parseReport(argv: string[], env: NodeJS.ProcessEnv): Command {
  const { values, positionals } = parseArgv({
    args: argv.slice(1),
    allowPositionals: true,
    options: { url: { type: 'string' }, key: { type: 'string' }, format: { type: 'string' } },
  });
  if (positionals.length > 0) throw new Error(`report takes no file: give --url, --key and --format.\n\n${USAGE}`);
  const url = values.url ?? env.SANDBOX_URL ?? 'http://127.0.0.1:4010';
  const key = values.key ?? env.SANDBOX_KEY;
  if (!key) throw new Error(`report needs the key whose readiness to read: --key sk_test_... (or SANDBOX_KEY).\n\n${USAGE}`);
  const format = (values.format ?? 'json') as ReportFormat;
  if (!REPORT_FORMATS.includes(format)) throw new Error(`--format is json, markdown or junit, not '${values.format}'.\n\n${USAGE}`);
  return { name: 'report', url, key, format };
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv): Command {
  if (argv[0] === 'report') return parseReport(argv, env);
  const { values, positionals } = parseArgv({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      store: { type: 'string' },
      scenario: { type: 'string' },
      seed: { type: 'string' },
      clock: { type: 'string' },
      keys: { type: 'string' },
      'key-format': { type: 'string' },
      'max-tenants': { type: 'string' },
      'max-open-logs': { type: 'string' },
      'webhook-targets': { type: 'string' },
      'resource-retention': { type: 'string' },
      'tenant-retention': { type: 'string' },
      'max-resources': { type: 'string' },
      'heap-budget': { type: 'string' },
      'headers-timeout-ms': { type: 'string' },
      'request-timeout-ms': { type: 'string' },
      'keep-alive-timeout-ms': { type: 'string' },
      'max-unread-bytes': { type: 'string' },
      'unread-timeout-ms': { type: 'string' },
      'heartbeat-seconds': { type: 'string' },
      'max-streams': { type: 'string' },
      'max-connections': { type: 'string' },
      'stream-lifetime': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { name: 'help' };
  if (positionals[0] === 'validate') {
    if (positionals.length !== 2) throw new Error(`validate takes one scenario file.\n\n${USAGE}`);
    return { name: 'validate', file: positionals[1] };
  }
  const raw: Record<string, unknown> = {};
  /** The variable each field was read from, while no flag has replaced it. */
  const fromEnv = new Map<string, string>();
  for (const [envName, field] of Object.entries(ENV_NAMES)) {
    const v = env[envName];
    if (v === undefined || v === '') continue;
    raw[field] = v;
    fromEnv.set(field, envName);
  }
  for (const [k, v] of Object.entries(values)) {
    if (k === 'help' || v === undefined) continue;
    const field = k.replace(/-(\w)/g, (_m, ch: string) => ch.toUpperCase());
    raw[field] = v;
    fromEnv.delete(field);
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const named = (field: string) => {
      const flag = `--${field.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`)}`;
      const variable = fromEnv.get(field);
      return variable ? `${variable} (${flag})` : flag;
    };
    const msg = parsed.error.issues.map((i) => `${named(i.path.join('.'))}: ${i.message}`).join('\n');
    throw new Error(`Invalid options:\n${msg}\n\n${USAGE}`);
  }
  const name = positionals[0] ?? 'serve';
  if (name !== 'serve' && name !== 'openapi') throw new Error(`Unknown command '${name}'.\n\n${USAGE}`);
  return { name, config: parsed.data, given: new Set(Object.keys(raw) as (keyof Config)[]) };
}

/**
 * The start-up warning of a sandbox that others can reach and that sends webhooks anywhere: it
 * listens on `address` (where it is bound, e.g. 0.0.0.0), which is not a loopback address, and
 * --webhook-targets was not given (its default, any, is right on a laptop and in CI). Undefined when
 * there is nothing to say; an explicit --webhook-targets any keeps quiet.
 */
export function webhookTargetsWarning(config: Config, given: ReadonlySet<keyof Config>, address: string): string | undefined {
  if (given.has('webhookTargets') || config.webhookTargets !== 'any') return undefined;
  const bare = address.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback') return undefined;
  return [
    `warning: listening on ${bare}, not a loopback address, and sending webhooks to any address (--webhook-targets any, the default):`,
    '  any key can point its webhooks at this host and its networks: loopback (127.0.0.1, ::1), private (10.0.0.0/8,',
    '  172.16.0.0/12, 192.168.0.0/16, fc00::/7), link-local (169.254.169.254, the cloud metadata service; fe80::/10) and',
    '  other special-purpose addresses, all of which --webhook-targets public refuses.',
    '  Start with --webhook-targets public (SANDBOX_WEBHOOK_TARGETS=public) when people you do not know can reach it,',
    '  or with --webhook-targets any to keep these targets and this warning quiet.',
  ].join('\n');
}
