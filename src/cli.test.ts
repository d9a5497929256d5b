import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCli, USAGE, webhookTargetsWarning } from './cli.js';
import { defaultConfig, ENV_NAMES, type Config } from './config.js';

const serve = (argv: string[], env: Record<string, string> = {}) => {
  const cmd = parseCli(argv, env);
  if (cmd.name !== 'serve') throw new Error(`expected serve, got ${cmd.name}`);
  return cmd.config;
};

describe('command line and environment', () => {
  it('listens on 127.0.0.1:4010 in memory with the default scenario when nothing is given', () => {
    const c = serve([]);
    expect(c).toMatchObject({ port: 4010, host: '127.0.0.1', scenario: 'default' });
    expect([c.data, c.seed, c.keys]).toEqual([undefined, undefined, undefined]);
  });

  it('takes PORT, HOST and the SANDBOX_ variables', () => {
    const c = serve([], { PORT: '5000', HOST: '0.0.0.0', SANDBOX_DATA: '/tmp/d', SANDBOX_SCENARIO: 'failures', SANDBOX_SEED: '42', SANDBOX_KEYS: 'keys.txt' });
    expect(c).toMatchObject({ port: 5000, host: '0.0.0.0', data: '/tmp/d', scenario: 'failures', seed: 42, keys: 'keys.txt' });
  });

  it('names the variable a bad value came from, and says which numbers a port and a seed take', () => {
    expect(() => serve([], { PORT: 'abc' })).toThrow(/^Invalid options:\nPORT \(--port\): must be a whole number from 0 to 65535\n/);
    expect(() => serve([], { SANDBOX_SEED: '1.5' })).toThrow(/^Invalid options:\nSANDBOX_SEED \(--seed\): must be a whole number from 0\n/);
    // A flag wins over the variable, so a bad flag is named as the flag.
    expect(() => serve(['--port', '70000'], { PORT: '5000' })).toThrow(/^Invalid options:\n--port: must be a whole number from 0 to 65535\n/);
    expect(serve(['--port', '5001'], { PORT: 'abc' }).port).toBe(5001);
  });

  it('selects PostgreSQL with --store or SANDBOX_STORE, and refuses anything else or both stores', () => {
    const url = 'postgres://sandbox:secret@db:5432/sandbox';
    expect(serve([]).store).toBeUndefined();
    expect(serve(['--store', url]).store).toBe(url);
    expect(serve([], { SANDBOX_STORE: url }).store).toBe(url);
    // DATABASE_URL belongs to the application a CI job tests: the sandbox keeps its memory store,
    // whatever it names (a MySQL URL too), and does not write into that database.
    expect(serve([], { DATABASE_URL: url }).store).toBeUndefined();
    expect(serve([], { DATABASE_URL: 'mysql://app:secret@db:3306/app' }).store).toBeUndefined();
    expect(serve(['--store', url], { DATABASE_URL: 'postgres://other/db' }).store).toBe(url);
    expect(() => serve(['--store', 'mysql://db/x'])).toThrow(/--store: expected a PostgreSQL URL: postgres:\/\/user:password@host:5432\/database/);
    expect(() => serve(['--store', url, '--data', '/tmp/d'])).toThrow(/--store: give either --store postgres:\/\/… \(shared database\) or --data DIR/);
    expect(serve(['--store', `${url}?max=8`]).store).toBe(`${url}?max=8`);
    for (const max of ['0', '1001', 'eight', '2.5']) {
      expect(() => serve(['--store', `${url}?max=${max}`])).toThrow(/--store: the URL's max \(connections in each replica's pool\) must be a whole number from 1 to 1000, e.g. \?max=8/);
    }
  });

  it('lets flags win over the environment', () => {
    const c = serve(['--port', '6000', '--host', '::1', '--seed', '7', '--scenario', 'instant'], { PORT: '5000', HOST: '0.0.0.0', SANDBOX_SEED: '42' });
    expect(c).toMatchObject({ port: 6000, host: '::1', seed: 7, scenario: 'instant' });
  });

  it('takes the webhook target policy from --webhook-targets or SANDBOX_WEBHOOK_TARGETS, any by default', () => {
    expect(serve([]).webhookTargets).toBe('any');
    expect(serve([], { SANDBOX_WEBHOOK_TARGETS: 'public' }).webhookTargets).toBe('public');
    expect(serve(['--webhook-targets', 'any'], { SANDBOX_WEBHOOK_TARGETS: 'public' }).webhookTargets).toBe('any');
    expect(() => serve(['--webhook-targets', 'private'])).toThrow(/--webhook-targets: .*"any"\|"public"/);
  });

  it('takes the key format from --key-format or SANDBOX_KEY_FORMAT, any by default', () => {
    expect(serve([]).keyFormat).toBe('any');
    expect(serve([], { SANDBOX_KEY_FORMAT: 'live' }).keyFormat).toBe('live');
    expect(serve(['--key-format', 'any'], { SANDBOX_KEY_FORMAT: 'live' }).keyFormat).toBe('any');
    expect(() => serve(['--key-format', 'strict'])).toThrow(/--key-format: .*"any"\|"live"/);
  });

  it('takes retention ages as seconds or with a unit, and caps as counts', () => {
    expect(serve([])).toMatchObject({ resourceRetention: 7 * 86_400, tenantRetention: 30 * 86_400, maxResources: 100_000, maxOpenLogs: 128 });
    expect(serve(['--max-open-logs', '16'], { SANDBOX_MAX_OPEN_LOGS: '64' }).maxOpenLogs).toBe(16);
    expect(serve([], { SANDBOX_MAX_OPEN_LOGS: '64' }).maxOpenLogs).toBe(64);
    expect(() => serve(['--max-open-logs', '0'])).toThrow(/--max-open-logs: /);
    expect(serve([]).heartbeatSeconds).toBe(15);
    expect(serve(['--heartbeat-seconds', '5'], { SANDBOX_HEARTBEAT_SECONDS: '30' }).heartbeatSeconds).toBe(5);
    expect(() => serve(['--heartbeat-seconds', '0'])).toThrow(/--heartbeat-seconds: /);
    // No --max-streams: main.ts derives the cap from the process's file limit.
    expect(serve([]).maxStreams).toBeUndefined();
    expect(serve([]).streamLifetime).toBe(3600);
    expect(serve(['--max-streams', '50'], { SANDBOX_MAX_STREAMS: '500' }).maxStreams).toBe(50);
    expect(serve([], { SANDBOX_MAX_STREAMS: '500', SANDBOX_STREAM_LIFETIME: '90s' })).toMatchObject({ maxStreams: 500, streamLifetime: 90 });
    expect(serve(['--stream-lifetime', '2h']).streamLifetime).toBe(7200);
    expect(() => serve(['--max-streams', '0'])).toThrow(/--max-streams: /);
    expect(() => serve(['--stream-lifetime', '0'])).toThrow(/--stream-lifetime: must be at least 1 second/);
    const c = serve(['--resource-retention', '90m', '--max-resources', '500'], { SANDBOX_TENANT_RETENTION: '0', SANDBOX_RESOURCE_RETENTION: '7d' });
    expect(c).toMatchObject({ resourceRetention: 5400, tenantRetention: 0, maxResources: 500 });
    expect(serve([], { SANDBOX_RESOURCE_RETENTION: '3600' }).resourceRetention).toBe(3600);
    expect(() => serve(['--tenant-retention', '2w'])).toThrow(/--tenant-retention: expected seconds, or a number with a unit: 90s, 45m, 12h, 7d/);
  });

  it('refuses a bad value, an unknown flag and an unknown command with the usage', () => {
    expect(() => serve(['--port', 'abc'])).toThrow(/--port/);
    expect(() => serve(['--nope'])).toThrow();
    expect(() => parseCli(['launch'], {})).toThrow(/Unknown command 'launch'/);
    expect(parseCli(['openapi'], {}).name).toBe('openapi');
  });

  it('takes the connection limits from flags and the environment, refusing headers that may take longer than the request', () => {
    expect(serve([])).toMatchObject({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxUnreadBytes: 65_536, unreadTimeoutMs: 30_000 });
    const c = serve(['--request-timeout-ms', '2000', '--keep-alive-timeout-ms', '0', '--max-unread-bytes', '1024'], {
      SANDBOX_HEADERS_TIMEOUT_MS: '1500',
      SANDBOX_REQUEST_TIMEOUT_MS: '9000',
      SANDBOX_UNREAD_TIMEOUT_MS: '750',
    });
    expect(c).toMatchObject({ headersTimeoutMs: 1500, requestTimeoutMs: 2000, keepAliveTimeoutMs: 0, maxUnreadBytes: 1024, unreadTimeoutMs: 750 });
    expect(() => serve(['--headers-timeout-ms', '5000', '--request-timeout-ms', '1000'])).toThrow(/--headers-timeout-ms: must not be longer than the request timeout/);
    expect(serve(['--headers-timeout-ms', '5000', '--request-timeout-ms', '0']).requestTimeoutMs).toBe(0);
    expect(() => serve(['--unread-timeout-ms', '-1'])).toThrow(/--unread-timeout-ms/);
  });

  it('warns at start when the sandbox listens beyond loopback and --webhook-targets was not given', () => {
    const warning = (argv: string[], address: string, env: Record<string, string> = {}) => {
      const cmd = parseCli(argv, env);
      if (cmd.name !== 'serve') throw new Error('expected serve');
      return webhookTargetsWarning(cmd.config, cmd.given, address);
    };
    const shown = warning(['--host', '0.0.0.0'], '0.0.0.0');
    expect(shown).toMatch(/^warning: listening on 0\.0\.0\.0, not a loopback address, and sending webhooks to any address \(--webhook-targets any, the default\)/);
    expect(shown).toContain('169.254.169.254');
    expect(shown).toContain('--webhook-targets public refuses');
    expect(warning([], '::', { HOST: '::' })).toMatch(/^warning: listening on ::,/);
    expect(warning([], '192.168.1.20', { HOST: '192.168.1.20' })).toBeDefined();
    // Said explicitly, by flag or environment, either way: no warning.
    expect(warning(['--host', '0.0.0.0', '--webhook-targets', 'any'], '0.0.0.0')).toBeUndefined();
    expect(warning(['--host', '0.0.0.0'], '0.0.0.0', { SANDBOX_WEBHOOK_TARGETS: 'any' })).toBeUndefined();
    expect(warning(['--host', '0.0.0.0', '--webhook-targets', 'public'], '0.0.0.0')).toBeUndefined();
    // A loopback address, however it is written or was named: no warning.
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) expect(warning([], address)).toBeUndefined();
    expect(warning(['--host', 'localhost'], '127.0.0.1')).toBeUndefined();
  });
});

describe('README.md, docs/ and --help name the options the command takes', () => {
  const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
  const readme = read('README.md');
  /** The "Running it" table: flag (or none), variables, default. */
  const rows = [...readme.matchAll(/^\| (`--[a-z-]+(?:[^|\\]|\\\|)*`|\(none\)) \| ([^|]*) \| ([^|]*) \|/gm)].map((m) => ({
    flag: /`(--[a-z-]+)/.exec(m[1])?.[1],
    envs: [...m[2].matchAll(/`([A-Z_]+)`/g)].map((e) => e[1]),
    byDefault: m[3].trim(),
  }));
  const usageFlags = new Set([...USAGE.matchAll(/^\s+(--[a-z-]+)/gm)].map((m) => m[1]));
  const usageEnvs = new Set([...USAGE.matchAll(/\b((?:SANDBOX|PORT|HOST|DATABASE)[A-Z_]*)\b/g)].map((m) => m[1]));
  const fieldOf = (flag: string) => flag.slice(2).replace(/-(\w)/g, (_m, ch: string) => ch.toUpperCase()) as keyof Config;

  it('every flag of the README table and of --help is taken, and the two list the same flags', () => {
    const tabled = rows.flatMap((r) => (r.flag ? [r.flag] : []));
    expect(new Set(tabled)).toEqual(new Set([...usageFlags].filter((f) => f !== '--help' && f !== '--url' && f !== '--key' && f !== '--format')));
    for (const flag of tabled) expect(() => parseCli([flag, flag === '--store' ? 'postgres://db/x' : '1'], {}), flag).not.toThrow(/Unknown option/);
  });

  it('every variable the sandbox reads is in the README table beside its flag, and in --help', () => {
    const tabled = rows.flatMap((r) => r.envs.map((env) => [env, r.flag] as const));
    expect(new Set(tabled.map(([env]) => env))).toEqual(new Set(Object.keys(ENV_NAMES)));
    for (const [env, flag] of tabled) if (flag) expect(ENV_NAMES[env], `${env} beside ${flag}`).toBe(fieldOf(flag));
    for (const env of Object.keys(ENV_NAMES)) expect(usageEnvs, env).toContain(env);
  });

  it('a default the README table gives as one value is the default in force', () => {
    const defaults = defaultConfig();
    const given = rows.filter((r) => r.flag && /^\S+$/.test(r.byDefault) && r.byDefault !== 'random');
    expect(given.length).toBeGreaterThan(15);
    for (const r of given) {
      const field = fieldOf(r.flag!);
      expect(serve([r.flag!, r.byDefault])[field], `${r.flag} ${r.byDefault}`).toEqual(defaults[field]);
    }
  });

  it('docs name no flag the command does not take', () => {
    const files = ['README.md', ...readdirSync(new URL('../docs/', import.meta.url)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const node = new Set(['--max-semi-space-size', '--no-allocation-site-pretenuring', '--heap-growing-percent', '--max-old-space-size']);
    const named = files.flatMap((file) => [...read(file).matchAll(/`(--[a-z][a-z0-9-]*)/g)].map((m) => `${file}: ${m[1]}`));
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((n) => !usageFlags.has(n.split(': ')[1]) && !node.has(n.split(': ')[1]))).toEqual([]);
  });
});
