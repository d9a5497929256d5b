// Each fault kind and each trigger, applied by the one faults middleware.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { HELD_PER_KEY, type Sleep } from '../../src/http/fault-responses.js';
import { ConfigSchema } from '../../src/config.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { MemoryStore } from '../../src/store/memory.store.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { afterThisTest } from '../support/cleanup.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, KEY, KEY_B } from '../support/app.js';
import { fx, instruction, rejection } from '../support/fx.js';
import { payout, PAYOUTS, scenarioApp, useScenario } from './support.js';

type App = Awaited<ReturnType<typeof scenarioApp>>;
let t: App;
beforeEach(async () => {
  t = await scenarioApp();
});

const faults = (...rules: unknown[]) => ({ scenario: { faults: rules } });
const get = (ref = 'missing', key = KEY) => t.call('GET', `${PAYOUTS}/${ref}`, { key });

describe('error faults', () => {
  it('answer 503 in the error envelope with Retry-After, before the request is processed', async () => {
    await useScenario(t, faults({ route: { method: 'POST', path: PAYOUTS }, fault: { kind: 'error', status: 503, retryAfter: 2 } }));
    const res = await t.call('POST', PAYOUTS, { body: payout('e-1') });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('x-sandbox-fault')).toBe('error 503');
    expect(res.body).toEqual({
      status: 'error',
      message: 'The service could not handle the request (HTTP 503, set by the sandbox scenario). Retry after 2 seconds.',
      error: { type: 'api_error', code: 'SERVICE_UNAVAILABLE', details: [] },
    });
    expect((await get('e-1')).status).toBe(404);
  });

  it('answer 429 RATE_LIMITED with the scenario’s own message, and 500, 502, 504 with their codes', async () => {
    await useScenario(t, faults({ sequence: [
      { kind: 'error', status: 429, retryAfter: 30, message: 'Slow down.' },
      { kind: 'error', status: 500 },
      { kind: 'error', status: 502 },
      { kind: 'error', status: 504 },
    ] }));
    const r429 = await get();
    expect(r429.status).toBe(429);
    expect(r429.headers.get('retry-after')).toBe('30');
    expect(r429.body).toMatchObject({ message: 'Slow down.', error: { type: 'rate_limit_error', code: 'RATE_LIMITED' } });
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const r = await get();
      expect(r.headers.get('retry-after')).toBeNull();
      codes.push([r.status, r.body.error.code]);
    }
    expect(codes).toEqual([[500, 'INTERNAL_ERROR'], [502, 'BAD_GATEWAY'], [504, 'GATEWAY_TIMEOUT']]);
    expect((await get()).status).toBe(404);
  });
});

describe('latency', () => {
  it('waits a fixed time, then answers normally, saying so in X-Sandbox-Fault', async () => {
    await useScenario(t, faults({ route: { method: 'GET', path: '/api/v1/partners/payouts/{reference}' }, fault: { kind: 'latency', ms: 250 } }));
    const res = await get();
    expect(res.status).toBe(404);
    expect(res.headers.get('x-sandbox-fault')).toBe('latency 250ms');
    expect(t.slept).toEqual([250]);
    expect((await t.call('POST', PAYOUTS, { body: payout('l-1') })).status).toBe(201);
    expect(t.slept).toEqual([250]);
  });

  // In memory a hold runs after the journal; with --data (as on PostgreSQL) once the key is let go.
  const inMemory = async () => undefined;
  const withData = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'held-'));
    const store = await LowdbStore.open(dir);
    // Its files closed before they are removed.
    afterThisTest(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    return store;
  };
  // What a held request's client meets once its hold ends: latency answers, a timeout drops it.
  const LATENCY = { fault: { kind: 'latency', ms: 60_000 }, ended: 404 };
  const TIMEOUT = { fault: { kind: 'timeout', holdMs: 60_000 }, ended: 'dropped' };
  const outcome = (p: Promise<{ status: number }>) =>
    p.then(
      (r) => r.status,
      (err: Error) => (err.message.includes('connection dropped') ? 'dropped' : Promise.reject(err)),
    );
  it.each([
    ['latency, in memory', inMemory, LATENCY],
    ['latency, with --data', withData, LATENCY],
    ['timeout, in memory', inMemory, TIMEOUT],
    ['timeout, with --data', withData, TIMEOUT],
  ])('holds at most 100 requests of a key at once, %s: the next is refused with 429 RATE_LIMITED, and held ones ended make room', async (_, store, { fault, ended }) => {
    const gates: (() => void)[] = [];
    const h = await createTestApp({ store: await store(), sleep: () => new Promise<void>((open) => gates.push(open)) });
    const rule = faults({ route: { path: '/api/**' }, fault });
    await useScenario(h, rule);
    await useScenario(h, rule, KEY_B);
    const held = Array.from({ length: HELD_PER_KEY }, (_, i) => outcome(h.call('GET', `${PAYOUTS}/held-${i}`)));
    while (gates.length < HELD_PER_KEY) await new Promise((r) => setImmediate(r));
    const refused = await h.call('GET', `${PAYOUTS}/one-more`);
    expect([refused.status, refused.headers.get('retry-after'), refused.body.error.code, refused.body.error.details]).toEqual([
      429,
      '60',
      'RATE_LIMITED',
      [{ field: 'faults', issue: 'latency and timeout faults hold at most 100 requests of a key at once' }],
    ]);
    // Another key's requests are held as its own rule says.
    const other = outcome(h.call('GET', `${PAYOUTS}/other`, { key: KEY_B }));
    while (gates.length < HELD_PER_KEY + 1) await new Promise((r) => setImmediate(r));
    gates.splice(0).forEach((open) => open());
    expect(await Promise.all(held)).toEqual(Array(HELD_PER_KEY).fill(ended));
    expect(await other).toBe(ended);
    // The held requests ended, the key's next one is held again.
    const again = outcome(h.call('GET', `${PAYOUTS}/again`));
    while (gates.length < 1) await new Promise((r) => setImmediate(r));
    gates[0]();
    expect(await again).toBe(ended);
  });

  it('draws a range from the seed, the same in every run', async () => {
    const range = faults({ fault: { kind: 'latency', ms: { min: 200, max: 800 } } });
    const run = async (seed: number) => {
      const a = await scenarioApp({ seed });
      await useScenario(a, range);
      for (let i = 0; i < 30; i++) await a.call('GET', `${PAYOUTS}/x`);
      return a.slept;
    };
    const first = await run(7);
    expect(first).toHaveLength(30);
    expect(Math.min(...first)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...first)).toBeLessThanOrEqual(800);
    expect(new Set(first).size).toBeGreaterThan(20);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
  });
});

describe('malformed body', () => {
  it('processes the request and sends half of the body, which is not JSON', async () => {
    await useScenario(t, faults({ route: { method: 'POST', path: PAYOUTS }, fault: { kind: 'malformed' } }));
    const res = await t.app.request(PAYOUTS, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(payout('m-1')),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-sandbox-fault')).toBe('malformed');
    const text = await res.text();
    expect(text.startsWith('{"status":"success","message":"Payout initiated successfully"')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
    expect((await get('m-1')).body.data.status).toBe('PENDING');
  });
});

describe('malformed body forms', () => {
  const post = async (reference: string) => {
    const res = await t.app.request(PAYOUTS, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(payout(reference)) });
    return { status: res.status, type: res.headers.get('content-type'), fault: res.headers.get('x-sandbox-fault'), text: await res.text() };
  };

  it('invalid: the whole body, with its keys unquoted, so no JSON parser reads it; the payout is made', async () => {
    await useScenario(t, faults({ route: { method: 'POST', path: PAYOUTS }, fault: { kind: 'malformed', form: 'invalid' } }));
    const res = await post('i-1');
    expect([res.status, res.fault]).toEqual([201, 'malformed invalid']);
    expect(res.text.startsWith('{status:"success",message:"Payout initiated successfully",data:{reference:"i-1"')).toBe(true);
    expect(() => JSON.parse(res.text)).toThrow();
    expect((await get('i-1')).status).toBe(200);
  });

  it('invalid on the FX interface: the XML without its root\'s end tag', async () => {
    await useScenario(t, faults({ route: { method: 'GET', path: '/api/v1/partners/fx/listings' }, fault: { kind: 'malformed', form: 'invalid' } }));
    const res = await t.call('GET', '/api/v1/partners/fx/listings', { headers: { 'content-type': 'application/xml' } });
    expect(res.status).toBe(200);
    const root = /^<\?xml[^>]*\?>\s*<([A-Za-z]+)/.exec(res.text)?.[1];
    expect(root).toBe('FndPrcgPsptRpt');
    expect(res.text).not.toContain(`</${root}>`);
  });

  it('html: a proxy\'s 502 error page in text/html, and nothing was done', async () => {
    await useScenario(t, faults({ route: { method: 'POST', path: PAYOUTS }, fault: { kind: 'malformed', form: 'html' } }));
    const res = await post('h-1');
    expect([res.status, res.type, res.fault]).toEqual([502, 'text/html', 'malformed html']);
    expect(res.text).toContain('<title>502 Bad Gateway</title>');
    expect((await get('h-1')).status).toBe(404);
  });

  it('content-type: the JSON answer labelled text/plain', async () => {
    await useScenario(t, faults({ route: { method: 'POST', path: PAYOUTS }, fault: { kind: 'malformed', form: 'content-type' } }));
    const res = await post('c-1');
    expect([res.status, res.type]).toEqual([201, 'text/plain; charset=utf-8']);
    expect(JSON.parse(res.text).data.reference).toBe('c-1');
  });
});

describe('faults that speak the API\'s language', () => {
  it('answer any code of the error table, to the requests `when` picks: references starting dup- get 409', async () => {
    await useScenario(t, faults({ route: { method: 'POST', path: PAYOUTS }, when: { reference: '^dup-' }, fault: { kind: 'error', code: 'IDEMPOTENCY_CONFLICT' } }));
    const dup = await t.call('POST', PAYOUTS, { body: payout('dup-1') });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      status: 'error',
      message: 'Idempotency conflict (answered by the sandbox scenario).',
      error: { type: 'conflict_error', code: 'IDEMPOTENCY_CONFLICT', details: [] },
    });
    expect(dup.headers.get('x-sandbox-fault')).toBe('error 409');
    expect((await get('dup-1')).status).toBe(404);
    expect((await t.call('POST', PAYOUTS, { body: payout('order-1') })).status).toBe(201);
  });

  it('count only the requests that match: the 2nd payout is refused 400 INSUFFICIENT_BALANCE with the rule\'s message', async () => {
    await useScenario(t, faults({
      route: { method: 'POST', path: PAYOUTS },
      when: { currency: 'NGN', header: { 'x-test-case': '^balance' } },
      nth: 2,
      fault: { kind: 'error', code: 'INSUFFICIENT_BALANCE', status: 400, message: 'Insufficient balance in the NGN account.' },
    }));
    const headers = { 'x-test-case': 'balance-2' };
    expect((await t.call('POST', PAYOUTS, { body: payout('b-1'), headers })).status).toBe(201);
    // Without the header the rule does not match, so this one is not counted.
    expect((await t.call('POST', PAYOUTS, { body: payout('b-2') })).status).toBe(201);
    const second = await t.call('POST', PAYOUTS, { body: payout('b-3'), headers });
    expect([second.status, second.body.error.code, second.body.message]).toEqual([400, 'INSUFFICIENT_BALANCE', 'Insufficient balance in the NGN account.']);
    expect((await t.call('POST', PAYOUTS, { body: payout('b-4'), headers })).status).toBe(201);
  });

  it('answer the FX interface with its XML reject', async () => {
    await useScenario(t, faults({ route: { path: '/api/v1/partners/fx/trades' }, fault: { kind: 'error', code: 'INSUFFICIENT_LIQUIDITY' } }));
    const res = await fx(t, 'POST', '/trades', { xml: instruction() });
    expect(rejection(res)).toMatchObject({ status: 400, code: 'INSUFFICIENT_LIQUIDITY', text: 'Insufficient liquidity (answered by the sandbox scenario).' });
  });

  it('refuse a misspelt code, a status its code does not have, and a status that needs a code', async () => {
    const put = (fault: unknown) => t.call('PUT', '/_sandbox/scenario', { body: faults({ fault }) });
    const details = async (fault: unknown) => (await put(fault)).body.error.details;
    expect((await details({ kind: 'error', code: 'INSUFICIENT_BALANCE' }))[0]).toMatchObject({ field: 'scenario.faults[0].fault.code', issue: expect.stringContaining('did you mean "INSUFFICIENT_BALANCE"?') });
    expect(await details({ kind: 'error', code: 'INSUFFICIENT_BALANCE', status: 409 })).toEqual([
      { field: 'scenario.faults[0].fault.status', issue: 'INSUFFICIENT_BALANCE is answered with 400: send status 400, or leave status out' },
    ]);
    const badCurrency = await t.call('PUT', '/_sandbox/scenario', { body: faults({ when: { currency: 'NGNN' }, fault: { kind: 'error', status: 503 } }) });
    expect(badCurrency.body.error.details).toEqual([{ field: 'scenario.faults[0].when.currency', issue: "'NGNN' is not a currency of the API: did you mean 'NGN'?" }]);
    expect(await details({ kind: 'error', status: 409 })).toEqual([
      { field: 'scenario.faults[0].fault.code', issue: 'status 409 needs a code: one of IDEMPOTENCY_CONFLICT, INVALID_STATE_TRANSITION' },
    ]);
  });
});

describe('dropped connections and timeouts, in process', () => {
  it('drop: no answer; the request is not processed unless the rule says so', async () => {
    await useScenario(t, faults(
      { route: { path: '/api/v1/partners/payouts' }, nth: 1, fault: { kind: 'drop' } },
      { route: { path: '/api/v1/partners/payouts' }, nth: 2, fault: { kind: 'drop', processed: true } },
    ));
    await expect(t.call('POST', PAYOUTS, { body: payout('d-1') })).rejects.toThrow('connection dropped by the sandbox scenario');
    expect((await get('d-1')).status).toBe(404);
    await expect(t.call('POST', PAYOUTS, { body: payout('d-2') })).rejects.toThrow('connection dropped by the sandbox scenario');
    expect((await get('d-2')).status).toBe(200);
    const retry = await t.call('POST', PAYOUTS, { body: payout('d-2') });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('journal what the client got: the rule that struck, the sandbox\'s own answer, and dropped or timeout', async () => {
    await useScenario(t, faults(
      { route: { path: '/api/v1/partners/payouts' }, nth: 1, fault: { kind: 'drop' } },
      { route: { path: '/api/v1/partners/payouts' }, nth: 2, fault: { kind: 'timeout', holdMs: 10, processed: true } },
      { route: { path: '/api/v1/partners/payouts' }, nth: 3, fault: { kind: 'error', status: 503 } },
    ));
    await expect(t.call('POST', PAYOUTS, { body: payout('j-1') })).rejects.toThrow('connection dropped');
    await expect(t.call('POST', PAYOUTS, { body: payout('j-2') })).rejects.toThrow('connection dropped');
    expect((await t.call('POST', PAYOUTS, { body: payout('j-3') })).status).toBe(503);
    expect((await t.call('POST', PAYOUTS, { body: payout('j-4') })).status).toBe(201);
    const entries = (await t.call('GET', '/_sandbox/requests?limit=4')).body.data.reverse();
    const told = entries.map((e: { status: number | null; sent: unknown; fault: { kind: string; rule: number } | null; responseBody: unknown }) => [
      e.status,
      e.sent,
      e.fault && [e.fault.kind, e.fault.rule],
      e.responseBody === null ? null : 'body',
    ]);
    expect(told).toEqual([
      [null, 'dropped', ['drop', 0], null],
      [201, 'timeout', ['timeout', 1], 'body'],
      [503, 503, ['error', 2], 'body'],
      [201, 201, null, 'body'],
    ]);
    expect(entries[0].fault.scenario).toBe(entries[2].fault.scenario);
  });

  it('timeout: holds for holdMs (default 30 s), then closes without an answer', async () => {
    await useScenario(t, faults({ sequence: [{ kind: 'timeout' }, { kind: 'timeout', holdMs: 5000, processed: true }] }));
    await expect(t.call('POST', PAYOUTS, { body: payout('t-1') })).rejects.toThrow('connection dropped');
    await expect(t.call('POST', PAYOUTS, { body: payout('t-2') })).rejects.toThrow('connection dropped');
    expect(t.slept).toEqual([30_000, 5000]);
    expect((await get('t-1')).status).toBe(404);
    expect((await get('t-2')).status).toBe(200);
  });
});

describe('dropped connections and timeouts, over a real socket', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  async function listen(rules: unknown[], sleep?: Sleep) {
    const config = ConfigSchema.parse({ seed: 7 });
    const { app } = createApp({ config, store: new MemoryStore(), clock: new ManualClock(), sleep });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    close = () => server.close();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const put = await fetch(`${url}/_sandbox/scenario`, { method: 'PUT', headers, body: JSON.stringify({ scenario: { faults: rules } }) });
    expect(put.status).toBe(200);
    return { url, headers };
  }

  it('counts a held request no longer once its client has left: a key whose 100 held clients gave up is held again', async () => {
    const gates: (() => void)[] = [];
    const sleep: Sleep = () => new Promise<void>((open) => gates.push(open));
    const { url, headers } = await listen([{ route: { path: '/api/**' }, fault: { kind: 'latency', ms: 60_000 } }], sleep);
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((r) => setTimeout(r, 5));
    };
    const clients = Array.from({ length: HELD_PER_KEY }, () => new AbortController());
    const gone = clients.map((client, i) => fetch(`${url}${PAYOUTS}/gone-${i}`, { headers, signal: client.signal }).then(() => 'answered', () => 'left'));
    await until(() => gates.length === HELD_PER_KEY);
    expect((await fetch(`${url}${PAYOUTS}/refused`, { headers })).status).toBe(429);
    clients.forEach((client) => client.abort());
    expect(new Set(await Promise.all(gone))).toEqual(new Set(['left']));
    // Their waits go on (no gate is opened), but they hold no connection: once the server has seen
    // them close, the key's next request is held, not refused.
    let next: Promise<Response> | undefined;
    for (let tries = 0; tries < 200 && !next; tries++) {
      const before = gates.length;
      const sent = fetch(`${url}${PAYOUTS}/next`, { headers });
      const outcome = await Promise.race([sent.then((r) => r.status), until(() => gates.length > before).then(() => 'held')]);
      if (outcome === 'held') next = sent;
      else {
        expect(outcome).toBe(429);
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    expect(next).toBeDefined();
    gates.forEach((open) => open());
    expect((await next!).headers.get('x-sandbox-fault')).toBe('latency 60000ms');
  });

  it('drop destroys the socket: the client sees the connection end with no response', async () => {
    const { url, headers } = await listen([{ nth: 1, fault: { kind: 'drop' } }]);
    const err = await fetch(`${url}${PAYOUTS}/x`, { headers }).then(() => null, (e: Error) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(String((err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error & { cause?: Error }).cause?.message)).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
    expect((await fetch(`${url}${PAYOUTS}/x`, { headers })).status).toBe(404);
  });

  it('malformed reset sends the status, the headers and half the body, then resets the connection', async () => {
    const { url, headers } = await listen([{ route: { method: 'POST', path: PAYOUTS }, fault: { kind: 'malformed', form: 'reset' } }]);
    const res = await fetch(`${url}${PAYOUTS}`, { method: 'POST', headers, body: JSON.stringify(payout('r-1')) });
    expect([res.status, res.headers.get('x-sandbox-fault')]).toEqual([201, 'malformed reset']);
    const err = await res.text().then(() => null, (e: Error) => e);
    expect(err).toBeInstanceOf(TypeError);
    // The payout was made: a retry with its reference replays it.
    const retry = await fetch(`${url}${PAYOUTS}/r-1`, { headers });
    expect(retry.status).toBe(200);
  });

  it('timeout holds the request until the client gives up, then closes the socket', async () => {
    // Each hold waits on a gate the test opens, so the order of events is what is checked, not how long they took.
    const holds: { ms: number; release: () => void }[] = [];
    const reached: (() => void)[] = [];
    const sleep: Sleep = (ms) =>
      new Promise<void>((release) => {
        holds.push({ ms, release });
        reached.shift()?.();
      });
    const held = (n: number) => (holds.length >= n ? Promise.resolve() : new Promise<void>((r) => reached.push(r)));
    const { url, headers } = await listen([{ sequence: [{ kind: 'timeout', holdMs: 600 }, { kind: 'timeout', holdMs: 100 }] }], sleep);

    // A round trip on another connection: whatever the held one was sent before it has arrived by then.
    const meanwhile = async () => expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);

    const client = new AbortController();
    let firstSettled = false;
    const first = fetch(`${url}${PAYOUTS}/x`, { headers, signal: client.signal }).then(
      () => null,
      (e: Error) => e,
    ).finally(() => (firstSettled = true));
    await held(1);
    await meanwhile();
    // The sandbox holds the request: no answer, until the client gives up.
    expect([holds[0].ms, firstSettled]).toEqual([600, false]);
    client.abort(new DOMException('The client gave up waiting', 'TimeoutError'));
    expect((await first)?.name).toBe('TimeoutError');
    holds[0].release();

    let secondSettled = false;
    const second = fetch(`${url}${PAYOUTS}/x`, { headers }).then(
      () => null,
      (e: Error) => e,
    ).finally(() => (secondSettled = true));
    await held(2);
    await meanwhile();
    expect([holds[1].ms, secondSettled]).toEqual([100, false]);
    // Once the hold ends, the socket is closed without an answer.
    holds[1].release();
    expect(await second).toBeInstanceOf(TypeError);
  });
});

describe('triggers', () => {
  it('nth and every count calls that match the route, per tenant', async () => {
    const rules = faults(
      { route: { method: 'GET', path: '/api/**' }, nth: [2, 3], fault: { kind: 'error', status: 503 } },
      { route: { method: 'GET', path: '/api/**' }, every: 5, fault: { kind: 'error', status: 502 } },
    );
    await useScenario(t, rules);
    await useScenario(t, rules, KEY_B);
    const seen = [];
    for (let i = 0; i < 10; i++) seen.push((await get()).status);
    expect(seen).toEqual([404, 503, 503, 404, 502, 404, 404, 404, 404, 502]);
    expect((await t.call('POST', PAYOUTS, { body: payout('n-1') })).status).toBe(201);
    expect((await get('missing', KEY_B)).status).toBe(404);
    expect((await get('missing', KEY_B)).status).toBe(503);
  });

  it('a sequence plays once (first 503, then success), or over and over with repeat', async () => {
    await useScenario(t, faults({ sequence: [{ kind: 'error', status: 503 }, 'pass'] }));
    expect([(await get()).status, (await get()).status, (await get()).status]).toEqual([503, 404, 404]);
    await useScenario(t, faults({ sequence: [{ kind: 'error', status: 503 }, 'pass'], repeat: true }));
    expect([(await get()).status, (await get()).status, (await get()).status, (await get()).status]).toEqual([503, 404, 503, 404]);
  });

  it('probability follows the tenant seed: same seed, same failures', async () => {
    const rules = faults({ probability: 0.3, fault: { kind: 'error', status: 503 } });
    const pattern = async (seed: number, key = KEY) => {
      const a = await scenarioApp({ seed });
      await useScenario(a, rules, key);
      let out = '';
      for (let i = 0; i < 60; i++) out += (await a.call('GET', `${PAYOUTS}/x`, { key })).status === 503 ? 'x' : '.';
      return out;
    };
    const first = await pattern(7);
    expect(first.split('x').length - 1).toBeGreaterThan(8);
    expect(first.split('x').length - 1).toBeLessThan(30);
    expect(await pattern(7)).toBe(first);
    expect(await pattern(11)).not.toBe(first);
    expect(await pattern(7, KEY_B)).not.toBe(first);
  });

  it('a route with a trailing / fires on the route without it', async () => {
    await useScenario(t, faults({ route: { path: '/api/v1/partners/banks/' }, fault: { kind: 'error', status: 503 } }));
    expect((await t.call('GET', '/api/v1/partners/banks?currency=NGN')).status).toBe(503);
  });

  it('refuses a route path outside /api with 400 naming the path, and keeps the old scenario', async () => {
    await useScenario(t, { name: 'instant' });
    for (const path of ['/v1/partners/banks', '/_sandbox/**']) {
      const res = await t.call('PUT', '/_sandbox/scenario', { body: faults({ route: { path }, fault: { kind: 'error', status: 503 } }) });
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'INVALID_SCENARIO',
        details: [{ field: 'scenario.faults[0].route.path', issue: expect.stringMatching(/^must begin with \/api\/, since faults apply to \/api requests only/) }],
      });
    }
    expect((await t.call('GET', '/_sandbox/scenario')).body.name).toBe('instant');
  });
});
