// Process entry: config → store → createApp → serve → graceful shutdown. The only file doing I/O
// at start.
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp, scenarioFormatOf } from './app.js';
import { parseCli, USAGE } from './cli.js';
import { validateScenarioFile } from './engine/scenario.load.js';
import { ScenarioRegistry } from './engine/scenario.registry.js';
import { systemClock } from './kernel/clock.js';
import { LowdbStore } from './store/lowdb.store.js';
import { MemoryStore } from './store/memory.store.js';
import type { Config } from './config.js';

function readKeys(file: string): Set<string> {
  return new Set(
    readFileSync(file, 'utf8')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}

async function start(config: Config) {
  const scenarios = ScenarioRegistry.load(config.scenario, scenarioFormatOf());
  // With --data, no tenant is read here: each loads on its first request, so the port opens at once.
  const store = config.data ? await LowdbStore.open(config.data) : new MemoryStore();
  const allowedKeys = config.keys ? readKeys(config.keys) : undefined;
  const { app, tenants } = createApp({ config, store, clock: systemClock, allowedKeys, scenarios });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info: AddressInfo) => {
    const url = `http://${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`;
    console.log(
      [
        `payments-sandbox listening on ${url}`,
        `  store:    ${config.data ? `lowdb files in ${config.data}` : 'memory (fresh at each start)'}`,
        `  scenario: ${scenarios.startDefault.name}${scenarios.startDefault.file && scenarios.startDefault.origin === 'file' ? ` (${scenarios.startDefault.file})` : ''}`,
        `  seed:     ${config.seed ?? 'random'}`,
        `  keys:     ${allowedKeys ? `${allowedKeys.size} from ${config.keys}` : 'any sk_test_ or sk_live_ key'}`,
        `  tenants:  ${!config.data ? 'all kept in memory' : `loaded on first use${config.maxTenants ? `, at most ${config.maxTenants} in memory, idle ones reload from disk` : ''}`}`,
        `  docs:     ${url}/docs   OpenAPI: ${url}/openapi.json`,
      ].join('\n'),
    );
  });

  let ticking = false;
  const tick = setInterval(() => {
    if (ticking) return;
    ticking = true;
    tenants
      .tick()
      .catch((err: unknown) => console.error('[sandbox] background tick failed:', err))
      .finally(() => (ticking = false));
  }, config.tickMs);
  tick.unref();

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`payments-sandbox: ${signal} received, finishing in-flight requests`);
    clearInterval(tick);
    server.close(async () => {
      try {
        await tenants.stop();
        await store.close();
        console.log('payments-sandbox: store flushed, bye');
        process.exit(0);
      } catch (err) {
        console.error('payments-sandbox: could not flush the store:', err);
        process.exit(1);
      }
    });
    // Keep-alive connections would hold close() open: close each as soon as it is idle, so in-flight
    // requests finish first; after 10 s, close whatever is left.
    const http = server as import('node:http').Server;
    const reaper = setInterval(() => http.closeIdleConnections(), 20);
    reaper.unref();
    setTimeout(() => http.closeAllConnections(), 10_000).unref();
    http.closeIdleConnections();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
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
  if (cmd.name === 'openapi') {
    const { app } = createApp({ config: cmd.config, store: new MemoryStore(), clock: systemClock });
    const res = await app.request('/openapi.json');
    console.log(JSON.stringify(await res.json(), null, 2));
    return;
  }
  await start(cmd.config);
}

main().catch((err: Error) => {
  console.error(`payments-sandbox: ${err.message}`);
  process.exit(1);
});
