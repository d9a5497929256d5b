// Process entry: arguments, the start-up banner, signals and exit codes. The server itself (store,
// app, port, background work, graceful close) is startServer's.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createApp, scenarioFormatOf } from './app.js';
import { SandboxTenant } from './client/control.js';
import { parseCli, USAGE, webhookTargetsWarning } from './cli.js';
import type { Config } from './config.js';
import { validateScenarioFile } from './engine/scenario/scenario.load.js';
import { connectionCapFor } from './http/connections.js';
import { DEFAULT_FILE_LIMIT, streamCapFor, STREAMS_PER_KEY } from './http/streams.js';
import { systemClock } from './kernel/clock.js';
import { toJunit, toMarkdown } from './readiness/report.js';
import { startServer, type SandboxServer } from './server.js';
import { MemoryStore } from './store/memory.store.js';

/** A database URL without its password, for the banner. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/** The process's soft limit on open files, from /proc/self/limits on Linux (Node has no call for
 * it); undefined elsewhere, or when it is unlimited. */
function openFileLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+)\s/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** What the banner says of the streams' budgets: the cap, and where it comes from when no flag set it. */
function streamBudget(config: Config, derived: boolean, fileLimit: number | undefined): string {
  const why = !derived
    ? ''
    : fileLimit === undefined
      ? ` (a quarter of ${DEFAULT_FILE_LIMIT} open files: this process's limit is not known)`
      : ` (a quarter of the ${fileLimit} open files this process may hold)`;
  return `at most ${config.maxStreams} rate streams open for all keys${why}, ${STREAMS_PER_KEY} per key; each ends after ${config.streamLifetime} s`;
}

function banner(config: Config, s: SandboxServer, picked: boolean, streams: string, sockets: string): string {
  const scenario = s.scenario.file && s.scenario.origin === 'file' ? `${s.scenario.name} (${s.scenario.file})` : s.scenario.name;
  return [
    `payments-sandbox listening on ${s.url}`,
    `  store:    ${config.store ? `PostgreSQL at ${redact(config.store)}, shared with every replica given it` : config.data ? `lowdb files in ${config.data}` : `memory (fresh at each start)${process.env.DATABASE_URL ? '; DATABASE_URL is not read (give SANDBOX_STORE or --store to keep tenants in PostgreSQL)' : ''}`}`,
    `  scenario: ${scenario}`,
    `  seed:     ${config.seed}${picked ? ` (picked at random: start with --seed ${config.seed} to replay this run)` : ''}`,
    `  keys:     ${s.keys ? `${s.keys.size} from ${config.keys}` : 'any sk_test_ or sk_live_ key'}${config.keyFormat === 'live' ? ', live format only (32 lowercase hex)' : ''}`,
    `  streams:  ${streams}`,
    `  sockets:  ${sockets}`,
    `  webhooks: ${config.webhookTargets === 'public' ? 'public addresses only' : 'any address, loopback included'}`,
    `  memory:   ${s.memory ? `${s.memory.budgetMb} MB of live heap for all keys (${s.memory.percent} % of the ${s.memory.limitMb} MB the heap may hold); past it creates and keys first seen get 503` : 'no budget (--heap-budget 0)'}`,
    `  tenants:  ${config.store ? 'read from the database under a per-tenant lock on each request' : !config.data ? 'all kept in memory' : `loaded on first use${config.maxTenants ? `, at most ${config.maxTenants} in memory, idle ones reload from disk` : ''}`}`,
    `  docs:     ${s.url}/docs   OpenAPI: ${s.url}/openapi.json`,
  ].join('\n');
}

async function serve(given: Config, flags: ReadonlySet<keyof Config>) {
  // An unseeded start picks its seed and says so (banner, GET /_sandbox/health), so any run can be replayed.
  const picked = given.seed === undefined;
  const seeded = picked ? { ...given, seed: randomInt(0, 2 ** 31 - 1) } : given;
  // Without --max-streams, streams may take a quarter of the files this process may open; without
  // --max-connections, connections half.
  const fileLimit = openFileLimit();
  const files = fileLimit ?? DEFAULT_FILE_LIMIT;
  const config = { ...seeded, maxStreams: seeded.maxStreams ?? streamCapFor(files), maxConnections: seeded.maxConnections ?? connectionCapFor(files) };
  const server = await startServer(config);
  const sockets = `at most ${config.maxConnections} connections open for all keys${given.maxConnections === undefined ? ' (half of the open files this process may hold)' : ''}`;
  console.log(banner(config, server, picked, streamBudget(config, given.maxStreams === undefined, fileLimit), sockets));
  const exposed = webhookTargetsWarning(config, flags, new URL(server.url).hostname);
  if (exposed) console.warn(exposed);
  const stop = (signal: string) => {
    console.log(`payments-sandbox: ${signal} received, finishing in-flight requests`);
    server.close().then(
      () => {
        console.log('payments-sandbox: store flushed, bye');
        process.exit(0);
      },
      (err: unknown) => {
        console.error('payments-sandbox: could not flush the store:', err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

async function main() {
  const cmd = parseCli(process.argv.slice(2), process.env);
  if (cmd.name === 'help') {
    console.log(USAGE);
    return;
  }
  if (cmd.name === 'validate') {
    const { code, message } = validateScenarioFile(cmd.file, scenarioFormatOf());
    (code === 0 ? console.log : console.error)(message);
    process.exitCode = code;
    return;
  }
  if (cmd.name === 'report') {
    // One request: the JSON says whether the key is ready, and the other formats are written from it
    // as the sandbox writes them, so the verdict and the text printed are of the same moment.
    const report = await new SandboxTenant(cmd.url, cmd.key).report();
    const text = cmd.format === 'json' ? JSON.stringify(report, null, 2) : cmd.format === 'markdown' ? toMarkdown(report) : toJunit(report);
    console.log(text.trimEnd());
    process.exitCode = report.ready ? 0 : 1;
    return;
  }
  if (cmd.name === 'openapi') {
    const { app } = createApp({ config: cmd.config, store: new MemoryStore(), clock: systemClock });
    const res = await app.request('/openapi.json');
    console.log(JSON.stringify(await res.json(), null, 2));
    return;
  }
  await serve(cmd.config, cmd.given);
}

main().catch((err: Error) => {
  console.error(`payments-sandbox: ${err.message}`);
  process.exit(1);
});
