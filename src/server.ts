// startServer(config): one sandbox on a port. It opens the store, builds the app, listens with the
// connection limits of the config, applies due jobs in the background, and close() drains the
// connections and flushes the store. Nothing is kept at module level, so one process can run many;
// signals, exit codes and the start-up banner belong to main.ts.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createApp, scenarioFormatOf, streamsFor } from './app.js';
import type { Config } from './config.js';
import type { LoadedScenario } from './engine/scenario/scenario.load.js';
import { ScenarioRegistry } from './engine/scenario/scenario.registry.js';
import { connectionCapFor, Connections, timeoutOptions } from './http/connections.js';
import { Drain, Holds } from './http/drain.js';
import { DEFAULT_FILE_LIMIT } from './http/streams.js';
import { systemClock, type Clock } from './kernel/clock.js';
import { LowdbStore } from './store/lowdb.store.js';
import { MemoryStore } from './store/memory.store.js';
import { PostgresStore } from './store/postgres.store.js';
import type { Store } from './store/store.js';

export interface ServerOptions {
  /** The time every tenant's clock starts from; the system clock by default. */
  clock?: Clock;
  /** Where failures of background work are reported; console.error by default. */
  logError?: (message: string, err: unknown) => void;
  /** How often event streams send a heartbeat, in ms (the config's heartbeatSeconds by default). */
  heartbeatMs?: number;
  /** How long an event stream lives at most, in ms (the config's streamLifetime by default). */
  streamLifetimeMs?: number;
}

export interface SandboxServer {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  /** The scenario every tenant starts with. */
  scenario: LoadedScenario;
  /** The accepted keys, when --keys limits them. */
  keys?: ReadonlySet<string>;
  /** The process's memory budget (--heap-budget): its size and the heap limit, in MB; undefined when off. */
  memory?: { budgetMb: number; limitMb: number; percent: number };
  /** Stop accepting, let requests in flight finish, flush the store. The same promise on every call;
   * it rejects when the store could not be flushed. */
  close(): Promise<void>;
}

function readKeys(file: string): Set<string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new Error(`keys file ${file} cannot be read (${code}): give --keys (SANDBOX_KEYS) a file that lists the accepted keys, one per line`);
  }
  return new Set(
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** PostgreSQL with --store, lowdb files with --data, else memory. */
function openStore(config: Config): Promise<Store> {
  if (config.store) return PostgresStore.open(config.store);
  if (config.data) return LowdbStore.open(config.data, { maxOpenLogs: config.maxOpenLogs });
  return Promise.resolve(new MemoryStore());
}

export async function startServer(config: Config, opts: ServerOptions = {}): Promise<SandboxServer> {
  const logError = opts.logError ?? ((message, err) => console.error(message, err));
  const scenarios = ScenarioRegistry.load(config.scenario, scenarioFormatOf());
  const keys = config.keys ? readKeys(config.keys) : undefined;
  // With --data, no tenant is read here: each loads on its first request, so the port opens at once.
  const store = await openStore(config);
  const holds = new Holds();
  const clock = opts.clock ?? systemClock;
  const marketOrigin = await store.origin(clock.now()).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const streamOverrides = { ...(opts.heartbeatMs ? { heartbeatMs: opts.heartbeatMs } : {}), ...(opts.streamLifetimeMs ? { lifetimeMs: opts.streamLifetimeMs } : {}) };
  const { app, tenants, streams, heap, closeWebhooks } = createApp({ config, store, clock, marketOrigin, allowedKeys: keys, scenarios, sleep: holds.sleep, streams: streamsFor(config, streamOverrides) });

  const server = createAdaptorServer({ fetch: app.fetch, hostname: config.host, serverOptions: timeoutOptions(config) }) as Server;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.maxConnections = config.maxConnections ?? connectionCapFor(DEFAULT_FILE_LIMIT);
  const connections = new Connections(server, config);
  const drain = new Drain(server, connections, holds);
  let info: AddressInfo;
  try {
    info = await listen(server, config.port, config.host);
  } catch (err) {
    connections.stop();
    await store.close();
    throw err;
  }

  let ticking: Promise<void> | undefined;
  const tick = setInterval(() => {
    ticking ??= tenants
      .tick()
      .catch((err: unknown) => logError('[sandbox] background tick failed:', err))
      .finally(() => (ticking = undefined));
  }, config.tickMs);
  tick.unref();
  heap.start();

  let closing: Promise<void> | undefined;
  return {
    url: `http://${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`,
    port: info.port,
    scenario: scenarios.startDefault,
    keys,
    memory: heap.bytes ? heap.figures() : undefined,
    close: () =>
      (closing ??= (async () => {
        clearInterval(tick);
        heap.stop();
        streams.closeAll();
        await drain.run();
        connections.stop();
        await ticking;
        await closeWebhooks();
        await tenants.stop();
        await store.close();
      })()),
  };
}
