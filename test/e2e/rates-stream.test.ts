// The rate stream with a real SSE client (the eventsource package) against a sandbox on port 0 in
// this process, so the test sees the server's timers: updates while the key's clock advances,
// heartbeats in real time, nothing left behind after a disconnect, and an end on shutdown.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { EventSource } from 'eventsource';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { startServer, type SandboxServer } from '../../src/server.js';

const KEY = 'sk_test_00000000000000000000000000000001';
const STREAM = '/api/v1/partners/marketplace/rates/stream';
const HEARTBEAT_MS = 100;

let server: SandboxServer | undefined;
const sources: EventSource[] = [];
afterEach(async () => {
  for (const s of sources.splice(0)) s.close();
  await server?.close();
  server = undefined;
});

const start = async () => (server = await startServer(ConfigSchema.parse({ port: 0, seed: 7 }), { clock: new ManualClock(), heartbeatMs: HEARTBEAT_MS }));

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(server!.url + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
};

interface Update {
  from: string;
  to: string;
  rate: number;
  timestamp: string;
  source: string;
  percentChange24h: number;
}

function open(query: string) {
  const updates: Update[] = [];
  const heartbeats: { status: string; timestamp: string }[] = [];
  const errors: unknown[] = [];
  const es = new EventSource(`${server!.url}${STREAM}?${query}`, {
    fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, authorization: `Bearer ${KEY}` } }),
  });
  sources.push(es);
  es.addEventListener('rate_update', (e) => updates.push(JSON.parse(e.data)));
  es.addEventListener('heartbeat', (e) => heartbeats.push(JSON.parse(e.data)));
  es.addEventListener('error', (e) => errors.push(e));
  return { es, updates, heartbeats, errors };
}

async function until(check: () => boolean, what: string | (() => string), ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const timers = (list: string) => list.split(',').filter((k) => k === 'Timeout').length;

/** The process's active handles and requests, by kind. */
const handles = () => process.getActiveResourcesInfo().filter((k) => k !== 'TTYWrap').sort().join(',');

/** The handles once they have stopped changing: a start-up timer still running when the count is
 * taken would otherwise be counted as the process's own and then go. */
async function settledHandles(): Promise<string> {
  let last = handles();
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const now = handles();
    if (now === last) return now;
    last = now;
  }
}

describe('GET /api/v1/partners/marketplace/rates/stream', () => {
  it('streams the moved market on clock advances and heartbeats in real time, then leaves nothing behind', async () => {
    await start();
    const before = await settledHandles();
    const s = open('from=USDT&to=NGN');
    await until(() => s.updates.length === 1 && s.heartbeats.length >= 1, 'the opening events');
    expect(s.heartbeats[0]).toEqual({ status: 'connected', timestamp: '2026-01-15T09:00:00.000Z' });
    // The stream's one timer: its heartbeat.
    expect(timers(handles())).toBe(timers(before) + 1);
    const first = s.updates[0];
    const rate = (await api('GET', '/api/v1/partners/rates?from=USDT&to=NGN')).body;
    expect(first).toEqual({ from: 'USDT', to: 'NGN', rate: rate.rate, timestamp: rate.timestamp, source: 'MARKET_MAKER', percentChange24h: expect.any(Number) });

    // An hour on the key's clock: one update per minute it skipped, the last being the market now.
    expect((await api('POST', '/_sandbox/clock/advance', { seconds: 3600 })).status).toBe(200);
    await until(() => s.updates.length === 61, '60 updates');
    expect(s.updates.slice(1).map((u) => u.timestamp)).toEqual(
      Array.from({ length: 60 }, (_, i) => new Date(Date.parse('2026-01-15T09:01:00.000Z') + i * 60_000).toISOString()),
    );
    const last = s.updates[60];
    const moved = (await api('GET', '/api/v1/partners/rates?from=USDT&to=NGN')).body;
    expect(moved).toMatchObject({ rate: last.rate, timestamp: '2026-01-15T10:00:00.000Z' });
    expect(last.rate).not.toBe(first.rate);
    // The FX maker-rate message reports the same rate and 24-hour change.
    const maker = (await api('GET', '/api/v1/partners/fx/rates/makers?from=USDT&to=NGN')).body as string;
    expect(maker).toContain(`<XchgRate>${last.rate}</XchgRate>`);
    expect(Number(/<PctChg24H>([^<]+)</.exec(maker)![1])).toBe(last.percentChange24h);
    // A quote made now trades on the moved market: its best pool is the moved rate's market, within the pools' spread.
    const [quote] = (await api('POST', '/api/v1/partners/marketplace/express/quote', { sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 100 })).body;
    const poolRates = ['1575', '1571.4', '1568.75', '1562.3'].map((r) => (Number(r) * last.rate) / 1569.3625);
    expect(quote.allocationResult.weightedAverageRate).toBeCloseTo(poolRates[0], 3);
    expect(Math.abs(quote.allocationResult.weightedAverageRate - last.rate)).toBeLessThanOrEqual(poolRates[0] - poolRates[3]);

    // A longer advance is bounded: at most 60 updates, evenly spread, the last one now.
    await api('POST', '/_sandbox/clock/advance', { seconds: 86_400 });
    await until(() => s.updates.length === 121, '60 more updates');
    expect(s.updates[120].timestamp).toBe('2026-01-16T10:00:00.000Z');
    expect(s.updates[61].timestamp).toBe('2026-01-15T10:24:00.000Z');

    // Heartbeats come in real time, with the clock standing still.
    const beats = s.heartbeats.length;
    await until(() => s.heartbeats.length >= beats + 3, 'three heartbeats');
    expect(s.heartbeats.at(-1)).toEqual({ status: 'connected', timestamp: '2026-01-16T10:00:00.000Z' });
    expect(s.updates).toHaveLength(121);

    // Every event's data is as /openapi.json documents it.
    const doc = (await api('GET', '/openapi.json')).body;
    const { contentSchema } = doc.paths[STREAM].get.responses['200'].content['text/event-stream'].schema;
    expect(contentSchema.oneOf.map((s: { $ref: string }) => s.$ref)).toEqual(['#/components/schemas/RateUpdate', '#/components/schemas/RateStreamHeartbeat']);
    const ajv = new Ajv2020({ strict: false });
    const schemaOf = (name: string) => ({ ...doc.components.schemas[name], components: doc.components });
    const [isUpdate, isHeartbeat] = [ajv.compile(schemaOf('RateUpdate')), ajv.compile(schemaOf('RateStreamHeartbeat'))];
    expect(s.updates.every((u) => isUpdate(u))).toBe(true);
    expect(s.heartbeats.every((h) => isHeartbeat(h))).toBe(true);
    expect(isUpdate({ ...s.updates[0], rate: '1' })).toBe(false);

    s.es.close();
    // The stream's timer goes as soon as the client leaves; the keep-alive connections of the
    // client's requests close a few seconds later, and then every handle of before is back.
    await until(() => timers(handles()) === timers(before), 'the stream\'s timer to go', 2_000);
    await until(() => handles() === before, () => `the handles of before (${before}; now ${handles()})`, 15_000);
  }, 40_000);

  it('sends the market again after a reset takes the key\'s clock back', async () => {
    await start();
    const s = open('from=GHS&to=USDC');
    await until(() => s.updates.length === 1, 'the opening update');
    await api('POST', '/_sandbox/clock/advance', { seconds: 120 });
    await until(() => s.updates.length === 3, 'two updates');
    expect((await api('POST', '/_sandbox/reset')).status).toBe(200);
    await until(() => s.updates.length === 4, 'the market after the reset');
    expect(s.updates[3]).toEqual(s.updates[0]);
  });

  it('sends a price a scenario sets inside a minute when it takes hold, as the JSON rate reads it', async () => {
    await start();
    const s = open('from=USDT&to=NGN');
    await until(() => s.updates.length === 1, 'the opening update');
    await api('POST', '/_sandbox/clock/advance', { seconds: 10 });
    const market = { 'USDT/NGN': { pin: 1600, moves: [{ after: 20, percent: -5 }] } };
    expect((await api('PUT', '/_sandbox/scenario', { scenario: { name: 'pinned', market } })).status).toBe(200);

    // Bound at 09:00:10: the next heartbeat carries the pin, not the minute's earlier price.
    await until(() => s.updates.length === 2, 'the pinned price');
    const pinned = { from: 'USDT', to: 'NGN', rate: 1600, timestamp: '2026-01-15T09:00:10.000Z', source: 'ADMIN_OVERRIDE' };
    expect(s.updates[1]).toMatchObject(pinned);
    expect((await api('GET', '/api/v1/partners/rates?from=USDT&to=NGN')).body).toMatchObject({ ...pinned, from: 'usdt' });
    // A stream opened now starts from the pinned price too.
    const later = open('from=USDT&to=NGN');
    await until(() => later.updates.length === 1, 'the second stream\'s opening update');
    expect(later.updates[0]).toMatchObject(pinned);

    // The move falls due at 09:00:30, inside the same minute: an advance past it sends it.
    await api('POST', '/_sandbox/clock/advance', { seconds: 25 });
    await until(() => s.updates.length === 3, 'the moved price');
    expect(s.updates[2]).toMatchObject({ rate: 1520, timestamp: '2026-01-15T09:00:30.000Z', source: 'ADMIN_OVERRIDE' });
    // Heartbeats with nothing new send no update; the next minute sends one.
    const beats = s.heartbeats.length;
    await until(() => s.heartbeats.length >= beats + 2, 'two heartbeats');
    expect(s.updates).toHaveLength(3);
    await api('POST', '/_sandbox/clock/advance', { seconds: 30 });
    await until(() => s.updates.length === 4, 'the next minute');
    expect(s.updates[3]).toMatchObject({ rate: 1520, timestamp: '2026-01-15T09:01:00.000Z' });
  });

  it('refuses a bad pair with the error envelope before any event', async () => {
    await start();
    const res = await api('GET', `${STREAM}?from=USDT&to=USDC`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'UNSUPPORTED_CURRENCY', details: [{ field: 'to' }] });
    const none = await fetch(`${server!.url}${STREAM}?from=NGN&to=USDT`);
    expect(none.status).toBe(401);
  });

  it('ends every stream on shutdown without waiting for the drain', async () => {
    await start();
    const s = open('base=NGN&quote=USDT');
    await until(() => s.updates.length === 1, 'the opening update');
    expect(s.updates[0]).toMatchObject({ from: 'NGN', to: 'USDT' });
    const started = Date.now();
    await server!.close();
    server = undefined;
    expect(Date.now() - started).toBeLessThan(5_000);
    await until(() => s.errors.length > 0, 'the client to see the end');
  });

  it('sends heartbeats at the interval --heartbeat-seconds sets', async () => {
    server = await startServer(ConfigSchema.parse({ port: 0, heartbeatSeconds: 1 }));
    const s = open('from=NGN&to=USDT');
    await until(() => s.heartbeats.length >= 1, 'the opening heartbeat');
    const opened = Date.now();
    await until(() => s.heartbeats.length >= 2, 'the heartbeat a second later', 3_000);
    expect(Date.now() - opened).toBeGreaterThan(700);
    expect(s.heartbeats[1].status).toBe('connected');
  });
});
