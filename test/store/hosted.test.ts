// Two replicas of the sandbox on one PostgreSQL database, as a hosted sandbox runs: each is a whole
// app with its own store connection and its own copy of the tenants; they share only the database
// and the time. A client's requests alternate between them and see one tenant.
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../src/domains/webhooks/index.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { PostgresStore } from '../../src/store/postgres.store.js';
import type { MemoryTenantStore } from '../../src/store/store.js';
import type { PostgresTenantStore } from '../../src/store/postgres.tenant.js';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
import { HeapBudget } from '../../src/kernel/heap-budget.js';
import { advance, createTestApp, KEY, KEY_B, type TestApp } from '../support/app.js';
import { afterThisTest } from '../support/cleanup.js';
import { gauge, MB } from '../support/heap.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { receiver } from '../support/webhooks.js';
import { INTENT, QUOTE } from '../support/quotes.js';
import { bulkRow } from '../support/bulk.js';

const PAYOUTS = '/api/v1/partners/payouts';

const payout = (over: Record<string, unknown> = {}) => ({
  reference: 'order-1',
  amount: 10000,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
  ...over,
});

let pg: TestPostgres;
let databases = 0;
let stores: PostgresStore[] = [];
let a: TestApp;
let b: TestApp;
let outboxes: Outbox[] = [];
/** The database of the current test. */
let dbUrl = '';

beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.stop());

beforeEach(async () => {
  const name = `hosted_${++databases}`;
  const admin = await PostgresStore.open(pg.url);
  await admin.sql.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const url = (dbUrl = pg.url.replace(/\/postgres$/, `/${name}`));
  stores = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
  const clock = new ManualClock();
  outboxes = [new Outbox(), new Outbox()];
  [a, b] = await Promise.all(stores.map((store, i) => createTestApp({ store, clock, outbox: outboxes[i] })));
});
afterEach(async () => {
  await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
});

const balance = async (t: TestApp, currency: string) =>
  (await t.call('GET', '/_sandbox/balances')).body.data.find((x: { key: string }) => x.key === currency).available as string;

describe('two replicas on one database', () => {
  it('carry a payout through its lifecycle whichever replica each request reaches', async () => {
    const created = await a.call('POST', PAYOUTS, { body: payout() });
    expect(created.status).toBe(201);
    const read = await b.call('GET', `${PAYOUTS}/order-1`);
    expect(read.body.data).toEqual(created.body.data);

    const replay = await b.call('POST', PAYOUTS, { body: payout() });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(replay.body).toEqual(created.body);
    const conflict = await a.call('POST', PAYOUTS, { body: payout({ amount: 20000 }) });
    expect([conflict.status, conflict.body.error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);

    await advance(b, 30);
    expect((await a.call('GET', `${PAYOUTS}/order-1`)).body.data.status).toBe('PROCESSING');
    await advance(a, 3600);
    expect((await b.call('GET', `${PAYOUTS}/order-1`)).body.data.status).toBe('SUCCESSFUL');
    expect(await balance(a, 'NGN')).toBe('499989950.00');
    expect(await balance(b, 'NGN')).toBe('499989950.00');
    const events = await Promise.all([a, b].map(async (t) => (await t.call('GET', '/_sandbox/events?type=payout')).body.data));
    expect(events[0].map((e: { event: string }) => e.event)).toEqual(['payout.pending', 'payout.processing', 'payout.successful']);
    expect(events[1]).toEqual(events[0]);
  });

  it('carry a quote from intent to expiry across replicas, with the clock advanced on either', async () => {
    const intent = await a.call('POST', INTENT, { body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' } });
    expect(intent.status).toBe(201);
    const id = intent.body.quoteId;
    expect((await b.call('GET', `${QUOTE}/${id}`)).body.status).toBe('pending');
    await advance(b, 20);
    const completed = await b.call('PUT', `/api/v1/quotes/complete/${id}`, { body: { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } } });
    expect(completed.status).toBe(200);
    expect(completed.body.createdAt).toBe('2026-01-15T09:00:20.000Z');
    await advance(a, 3600);
    expect((await b.call('GET', `${QUOTE}/${id}`)).body.status).toBe('expired');
    const clocks = await Promise.all([a, b].map(async (t) => (await t.call('GET', '/_sandbox/clock')).body));
    expect(clocks[1]).toEqual(clocks[0]);
  });

  it('never take a balance below zero under concurrent payouts on both replicas', async () => {
    const all = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).call('POST', PAYOUTS, { body: payout({ reference: `big-${i}`, currency: 'USD', amount: 60000 }) })),
    );
    const ok = all.filter((r) => r.status === 201);
    const refused = all.filter((r) => r.status !== 201);
    const fee = ok[0].body.data.fee as number;
    expect(ok).toHaveLength(Math.floor(1_000_000 / (60000 + fee)));
    expect(new Set(refused.map((r) => `${r.status} ${r.body.error.code}`))).toEqual(new Set(['400 INSUFFICIENT_BALANCE']));
    expect(await balance(b, 'USD')).toBe((1_000_000 - ok.length * (60000 + fee)).toFixed(2));
  });

  it('make one payout from identical requests sent to both replicas at once', async () => {
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).call('POST', PAYOUTS, { body: payout() })));
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(all.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(new Set(all.map((r) => r.body.data.transactionReference)).size).toBe(1);
    expect((await a.call('GET', '/_sandbox/events?type=payout')).body.data).toHaveLength(1);
  });

  it('draw different ids on either replica for one tenant', async () => {
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push((await (i % 2 ? a : b).call('POST', PAYOUTS, { body: payout({ reference: `r-${i}` }) })).body.data.transactionReference);
    expect(new Set(ids).size).toBe(6);
  });

  it('number events on from the newest whichever replica wrote it, and from the start again after a reset on the other', async () => {
    for (let i = 0; i < 6; i++) expect((await (i % 2 ? a : b).call('POST', PAYOUTS, { body: payout({ reference: `e-${i}` }) })).status).toBe(201);
    const ids = (await a.call('GET', '/_sandbox/events?type=payout.pending')).body.data.map((e: { id: string }) => e.id);
    expect(ids).toEqual(['evt_0000000001', 'evt_0000000002', 'evt_0000000003', 'evt_0000000004', 'evt_0000000005', 'evt_0000000006']);
    expect((await b.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect((await a.call('POST', PAYOUTS, { body: payout({ reference: 'after-reset' }) })).status).toBe(201);
    expect((await b.call('GET', '/_sandbox/events')).body.data.map((e: { id: string; event: string }) => `${e.id} ${e.event}`)).toEqual([
      'evt_0000000001 payout.pending',
    ]);
  });

  it('apply a due move once when both replicas tick together', async () => {
    await a.call('POST', PAYOUTS, { body: payout() });
    a.clock.advance(400);
    await Promise.all([a.tenants.tick(), b.tenants.tick(), a.tenants.tick(), b.tenants.tick()]);
    const rows = await stores[0].sql<{ due_at: string | null }[]>`SELECT due_at FROM sandbox_tenants`;
    expect(rows).toEqual([{ due_at: null }]);
    const events = (await b.call('GET', '/_sandbox/events?type=payout')).body.data;
    expect(events.map((e: { event: string }) => e.event)).toEqual(['payout.pending', 'payout.processing', 'payout.successful']);
  });

  it('apply a bulk file\'s due rows from the tick in sessions of 256 moves, every row once and in file order', async () => {
    const rows = 600;
    const items = Array.from({ length: rows }, (_, i) => bulkRow(i + 1));
    const uploaded = await a.call('POST', '/_sandbox/bulk-disbursements', { body: { name: 'Payroll', items }, headers: { 'x-service-source': 'payroll' } });
    expect(uploaded.status, uploaded.text).toBe(201);
    const version = async () => Number((await stores[0].sql<{ version: string }[]>`SELECT version::text FROM sandbox_tenants`)[0].version);
    // A retention pass now, so the tick starts none (its catch-up would hold the key meanwhile).
    await a.tenants.retain();
    const before = await version();
    a.clock.advance(31);
    await a.tenants.tick();
    // Three sessions (256, 256 and 88 rows), each committed by itself: one session applied them all,
    // its SQL built for every row in one turn of the event loop.
    expect((await version()) - before).toBe(3);
    const events = (await b.call('GET', '/_sandbox/events?type=transfer.processing&limit=1000')).body.data;
    expect(events.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(items.map((r) => r.reference));
  });

  it("apply a key's due moves before its request in sessions of 256 moves, each committed, and answer with every one applied", async () => {
    const count = 600;
    for (let i = 0; i < count; i++) expect((await a.call('POST', PAYOUTS, { body: payout({ reference: `due-${i}` }) })).status).toBe(201);
    const version = async () => Number((await stores[0].sql<{ version: string }[]>`SELECT version::text FROM sandbox_tenants`)[0].version);
    const before = await version();
    // Past the first move of every payout, with no tick: the key's next request finds 600 due.
    a.clock.advance(31);
    const read = await b.call('GET', `${PAYOUTS}/due-${count - 1}`);
    expect(read.body.data.status).toBe('PROCESSING');
    // Two sessions of 256 moves, each committed by itself, then the request's own with the last 88:
    // the request's one session applied them all, its statement built for every move in one go.
    expect((await version()) - before).toBe(3);
    const events = (await a.call('GET', '/_sandbox/events?type=payout.processing&limit=1000')).body.data;
    expect(events.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(Array.from({ length: count }, (_, i) => `due-${i}`));
  });

  it("keep a key's copy between the sessions of its catch-up on a replica that keeps one copy: it is read whole once", async () => {
    const count = 600;
    for (let i = 0; i < count; i++) expect((await a.call('POST', PAYOUTS, { body: payout({ reference: `due-${i}` }) })).status).toBe(201);
    const c = await createTestApp({ store: await PostgresStore.open(dbUrl), clock: a.clock, config: { maxTenants: 1 } });
    afterThisTest(() => c.store.close());
    // The other key's copy is held (a session of its own) while the key catches up: past the one copy
    // kept, the key's is the one a session's end would forget.
    expect((await c.call('POST', PAYOUTS, { key: KEY_B, body: payout() })).status).toBe(201);
    const other = await c.tenants.acquire(KEY_B, 'sandbox');
    const store = c.store as PostgresStore;
    const copy = store.copy.bind(store);
    const copies = new Set<unknown>();
    store.copy = (id: string) => {
      const made = copy(id);
      if (id === tenantIdOf(KEY)) copies.add(made);
      return made;
    };
    a.clock.advance(31);
    const read = await c.call('GET', `${PAYOUTS}/due-${count - 1}`);
    expect(read.body.data.status).toBe('PROCESSING');
    c.tenants.release(other);
    // One copy for the three sessions (256, 256 and 88 moves): forgotten at each session's end, the
    // key was read whole again by each.
    expect(copies.size).toBe(1);
  });

  it("leave a frozen key's pending moves to its advance: no tick opens it meanwhile, and once the clock runs again a tick applies them", async () => {
    const dueAt = async () => (await stores[0].sql<{ due_at: string | null }[]>`SELECT due_at FROM sandbox_tenants`).map((r) => r.due_at);
    expect((await a.call('PUT', '/_sandbox/clock', { body: { frozen: true } })).status).toBe(200);
    expect((await a.call('POST', PAYOUTS, { body: payout() })).status).toBe(201);
    a.clock.advance(400);
    await Promise.all([a.tenants.tick(), b.tenants.tick()]);
    // Nothing falls due by the base clock while the key's clock stands still: the key is not among
    // the tenants a tick asks for (before, it stayed due, and every tick of every replica opened it).
    expect(await dueAt()).toEqual([null]);
    expect((await b.call('GET', `${PAYOUTS}/order-1`)).body.data.status).toBe('PENDING');
    expect((await b.call('PUT', '/_sandbox/clock', { body: { frozen: false } })).status).toBe(200);
    expect(await dueAt()).toEqual([String(a.clock.now() + 30_000)]);
    a.clock.advance(31);
    await Promise.all([a.tenants.tick(), b.tenants.tick()]);
    const events = (await stores[0].sql<{ n: string }[]>`SELECT count(*)::text AS n FROM sandbox_records WHERE coll = 'events' AND value LIKE '%payout.processing%'`)[0];
    expect(events.n).toBe('1');
    expect((await a.call('GET', `${PAYOUTS}/order-1`)).body.data.status).toBe('PROCESSING');
  });

  it('answer 503 in the error envelope while the database is down, and recover by themselves', async () => {
    expect((await a.call('POST', PAYOUTS, { body: payout() })).status).toBe(201);
    await pg.halt();
    try {
      for (const t of [a, b]) {
        const res = await t.call('GET', `${PAYOUTS}/order-1`);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(res.body.error).toMatchObject({ type: 'api_error', code: 'SERVICE_UNAVAILABLE' });
        expect(res.body.message).toContain("The sandbox's database cannot be reached");
      }
    } finally {
      await pg.start();
    }
    const back = await b.call('GET', `${PAYOUTS}/order-1`);
    expect([back.status, back.body.data.reference]).toEqual([200, 'order-1']);
    expect((await a.call('POST', PAYOUTS, { body: payout({ reference: 'order-2' }) })).status).toBe(201);
  });
});

describe('the journal on a shared store', () => {
  const lines = async (t: TestApp) =>
    ((await t.call('GET', '/_sandbox/requests?limit=10')).body.data as { method: string; path: string; status: number }[]).map((e) => `${e.method} ${e.path} ${e.status}`);

  it('shows the requests both replicas served, newest first, on either, and a reset clears it on both', async () => {
    expect((await a.call('POST', PAYOUTS, { body: payout() })).status).toBe(201);
    expect((await b.call('GET', `${PAYOUTS}/order-1`)).status).toBe(200);
    expect((await a.call('GET', `${PAYOUTS}/missing`)).status).toBe(404);
    const want = [`GET ${PAYOUTS}/missing 404`, `GET ${PAYOUTS}/order-1 200`, `POST ${PAYOUTS} 201`];
    expect(await lines(a)).toEqual(want);
    expect(await lines(b)).toEqual(want);
    const [, , created] = (await b.call('GET', '/_sandbox/requests?limit=10')).body.data;
    expect(created.requestBody).toMatchObject({ reference: 'order-1', amount: 10000 });
    expect(created.requestHeaders.authorization).toBe('Bearer [redacted]…0001');
    expect(created.responseBody.data.reference).toBe('order-1');
    expect((await b.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect(await lines(a)).toEqual([]);
  });

  it('filters by method, path, status and since as the memory store does, whichever replica served each request', async () => {
    const memory = await createTestApp({ clock: new ManualClock() });
    const sent: [TestApp, string, string, unknown][] = [
      [a, 'POST', PAYOUTS, payout({ reference: 'f-1' })],
      [b, 'POST', PAYOUTS, { reference: 'f-2' }],
      [a, 'GET', `${PAYOUTS}/f-1`, undefined],
      [b, 'GET', `${PAYOUTS}/nope`, undefined],
      [a, 'GET', '/api/v1/partners/banks?currency=NGN', undefined],
    ];
    for (const [t, method, path, body] of sent) {
      const [shared, kept] = await Promise.all([t.call(method, path, { body }), memory.call(method, path, { body })]);
      expect(shared.status).toBe(kept.status);
    }
    const listed = async (t: TestApp, query: string) =>
      ((await t.call('GET', `/_sandbox/requests${query}`)).body.data as { method: string; path: string; status: number; requestBody: unknown }[]).map(
        (e) => [e.method, e.path, e.status, e.requestBody],
      );
    const since = (await a.call('GET', '/_sandbox/requests?limit=5')).body.data[3].id;
    for (const query of ['?method=post', '?path=/api/v1/partners/payouts/*', '?status=4xx', '?status=201', '?method=GET&limit=2', '?method=DELETE']) {
      const want = await listed(memory, query);
      expect(await listed(a, query), query).toEqual(want);
      expect(await listed(b, query), query).toEqual(want);
    }
    expect((await listed(b, `?since=${since}`)).map(([m, p, st]) => `${m} ${p} ${st}`)).toEqual([
      'GET /api/v1/partners/banks 200',
      `GET ${PAYOUTS}/nope 404`,
      `GET ${PAYOUTS}/f-1 200`,
    ]);
  });

  it('keeps the newest entries of a key, as many as --journal-size', async () => {
    const small = await createTestApp({ store: stores[1], clock: new ManualClock(), config: { journalSize: 2 } });
    for (const ref of ['j-1', 'j-2', 'j-3']) expect((await small.call('POST', PAYOUTS, { body: payout({ reference: ref }) })).status).toBe(201);
    const list = (await small.call('GET', '/_sandbox/requests?limit=10')).body.data as { requestBody: { reference: string } }[];
    expect(list.map((e) => e.requestBody.reference)).toEqual(['j-3', 'j-2']);
  });
});

describe('faults on a shared store', () => {
  it("hold only their own request: the key's other requests on either replica answer at once", async () => {
    const doc = { name: 'slow-payouts', faults: [{ route: { method: 'POST', path: PAYOUTS }, fault: { kind: 'latency', ms: 2000 } }] };
    expect((await a.call('PUT', '/_sandbox/scenario', { body: { scenario: doc } })).status).toBe(200);
    const began = Date.now();
    const slow = a.call('POST', PAYOUTS, { body: payout() });
    await new Promise((r) => setTimeout(r, 300));
    const before = Date.now();
    // Written already, and the key's lock let go while the answer waits.
    const read = await b.call('GET', `${PAYOUTS}/order-1`);
    expect(Date.now() - before).toBeLessThan(1000);
    expect([read.status, read.body.data.status]).toEqual([200, 'PENDING']);
    expect((await a.call('GET', '/_sandbox/clock')).status).toBe(200);
    expect(Date.now() - before).toBeLessThan(1500);
    const created = await slow;
    expect([created.status, created.headers.get('x-sandbox-fault')]).toEqual([201, 'latency 2000ms']);
    expect(Date.now() - began).toBeGreaterThanOrEqual(2000);
  });
});

describe('a long clock advance on a shared store', () => {
  it("applies its moves in slices under the key's lock: another key on the replica is answered during it, the key on the other replica after it", async () => {
    const count = 1500;
    for (let i = 0; i < count; i++) expect((await a.call('POST', PAYOUTS, { body: payout({ reference: `adv-${i}` }) })).status).toBe(201);
    // The other key exists already: its request during the advance is one session (a first request
    // creates its tenant too), which a machine running every suite at once answers in time.
    expect((await a.call('GET', '/_sandbox/clock', { key: KEY_B })).status).toBe(200);
    const tenant = [...a.tenants.loaded()].find((x) => x.id === tenantIdOf(KEY))!;
    const first = tenant.scheduler.nextDueAt()!;
    let advanced = false;
    const order: string[] = [];
    const sent: Promise<unknown>[] = [];
    // At each turn of the event loop, a look at the key's next move: once it has moved on and the
    // advance is not over, it is part-way.
    let partWay = 0;
    const probe = () => {
      const next = tenant.scheduler.nextDueAt();
      if (!advanced && next !== undefined && next > first && partWay++ === 0) {
        sent.push(a.call('GET', '/_sandbox/clock', { key: KEY_B }).then((r) => order.push(`other key ${r.status}`)));
        sent.push(b.call('GET', '/_sandbox/clock').then((r) => order.push(`same key ${r.body.now}`)));
      }
      if (!advanced) setImmediate(probe);
    };
    setImmediate(probe);
    const res = await a.call('POST', '/_sandbox/clock/advance', { body: { seconds: 365 * 86400 } });
    advanced = true;
    order.push(`advance ${res.body.now}`);
    await Promise.all(sent);
    expect([res.status, res.body.applied]).toEqual([200, 2 * count]);
    expect(partWay).toBeGreaterThanOrEqual(2);
    expect(order[0]).toBe('other key 200');
    // The other replica waited for the key's lock, so it reads the clock at the advance's instant.
    expect(order.slice(1).sort()).toEqual([`advance ${res.body.now}`, `same key ${res.body.now}`]);
    const events = (await b.call('GET', '/_sandbox/events?type=payout.successful&limit=1000')).body.data;
    // In order, the last 1,000 of them (the page's bound).
    expect(events.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(Array.from({ length: 1000 }, (_, i) => `adv-${count - 1000 + i}`));
  }, 60_000);
});

describe('webhooks with two replicas', () => {
  it('record each attempt whichever replica sent it, and retry on the replica that finds the retry due', async () => {
    const r = await receiver();
    r.plan.push(500);
    expect((await a.call('PUT', '/_sandbox/webhooks', { body: { url: r.url, events: ['payout.pending'] } })).status).toBe(200);
    expect((await b.call('POST', PAYOUTS, { body: payout() })).status).toBe(201);
    await outboxes[1].idle();
    await r.waitFor(1);
    // The attempt is recorded in memory at once and written by a session of its own a moment later
    // (the payout's session may still hold the tenant): read it back before moving the clock.
    await expect.poll(async () => (await a.call('GET', '/_sandbox/webhooks/deliveries')).body.data[0]?.tries, { timeout: 10_000 }).toBe(1);
    await advance(a, 5);
    await outboxes[0].idle();
    await r.waitFor(2);
    const log = (await b.call('GET', '/_sandbox/webhooks/deliveries')).body;
    expect(log.counts).toEqual({ pending: 0, succeeded: 1, failed: 0 });
    expect(log.data[0]).toMatchObject({ event: 'payout.pending', status: 'succeeded', tries: 2 });
    expect(log.data[0].attempts.map((x: { trigger: string; statusCode: number }) => [x.trigger, x.statusCode])).toEqual([
      ['initial', 500],
      ['retry', 200],
    ]);
    expect(r.got.map((g) => g.headers['webhook-id'])).toEqual([log.data[0].id, log.data[0].id]);
  });
});

describe('a webhook attempt handed to a replica that dies before sending it', () => {
  it('is sent by the other replica once its deadline has passed, and recorded once', async () => {
    // A replica that died right after its commit: its outbox never sends what it was handed.
    class DeadOutbox extends Outbox {
      override send(): void {}
    }
    const clock = new ManualClock();
    // No resource retention: its pass would hold the tenant in a session of its own, beside the ticks.
    const config = { resourceRetention: 0 };
    const dead = await createTestApp({ store: stores[0], clock, outbox: new DeadOutbox(), config });
    const alive = await createTestApp({ store: stores[1], clock, outbox: outboxes[1], config });
    const r = await receiver();
    expect((await dead.call('PUT', '/_sandbox/webhooks', { body: { url: r.url, events: ['payout.pending'] } })).status).toBe(200);
    expect((await dead.call('POST', PAYOUTS, { body: payout() })).status).toBe(201);
    clock.advance(30);
    await alive.tenants.tick();
    await outboxes[1].idle();
    expect(r.got).toHaveLength(0);
    clock.advance(31);
    await alive.tenants.tick();
    await outboxes[1].idle();
    await r.waitFor(1);
    // its own handoff, recorded since, is forgotten at its deadline, not sent again
    clock.advance(61);
    await alive.tenants.tick();
    await outboxes[1].idle();
    expect(r.got).toHaveLength(1);
    const log = (await alive.call('GET', '/_sandbox/webhooks/deliveries')).body;
    expect(log.data[0]).toMatchObject({ event: 'payout.pending', status: 'succeeded', tries: 1 });
    expect(log.data[0].attempts.map((x: { trigger: string; statusCode: number }) => [x.trigger, x.statusCode])).toEqual([['initial', 200]]);
    const rows = await stores[0].sql`SELECT 1 FROM sandbox_records WHERE coll = 'webhook_handoffs' AND value IS NOT NULL`;
    expect(rows.length).toBe(0);
  });
});

describe('reset and retention on a shared store', () => {
  it('reset clears one key on every replica and leaves the other keys alone', async () => {
    const other = KEY.replace(/1$/, '8');
    await a.call('POST', PAYOUTS, { body: payout() });
    await a.call('POST', PAYOUTS, { body: payout(), key: other });
    expect((await b.call('GET', `${PAYOUTS}/order-1`)).status).toBe(200);
    expect((await b.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect((await a.call('GET', `${PAYOUTS}/order-1`)).status).toBe(404);
    expect(await balance(a, 'NGN')).toBe('500000000.00');
    expect((await a.call('GET', `${PAYOUTS}/order-1`, { key: other })).status).toBe(200);
  });

  it('drops a key with no write for the tenant retention age, on whichever replica runs the pass', async () => {
    const clock = new ManualClock();
    const config = { tenantRetention: 3600 };
    const [x, y] = await Promise.all(stores.map((store) => createTestApp({ store, clock, config })));
    const idle = KEY.replace(/1$/, '7');
    await x.call('POST', PAYOUTS, { body: payout(), key: idle });
    expect((await y.call('GET', `${PAYOUTS}/order-1`, { key: idle })).status).toBe(200);
    clock.advance(1800);
    await x.call('POST', PAYOUTS, { body: payout() });
    // the idle key's timed moves fall due meanwhile: applied by a tick, they are no use of the key
    await y.tenants.tick();
    // A tick may start a retention pass of its own: let it end, so the pass below is one begun later.
    await y.tenants.retain();
    clock.advance(1801);
    await y.tenants.retain();
    const rows = await stores[0].sql<{ n: number }[]>`SELECT count(*)::int AS n FROM sandbox_tenants`;
    expect(rows[0].n).toBe(1);
    expect((await x.call('GET', `${PAYOUTS}/order-1`, { key: idle })).status).toBe(404);
    expect((await x.call('GET', `${PAYOUTS}/order-1`)).status).toBe(200);
  });
});

describe('a retention sweep on a shared store', () => {
  it('drops a large key\'s old resources in sessions of its own, each committed by itself, and leaves nothing of them', async () => {
    const headers = { 'x-service-source': 'payroll' };
    const pages: string[] = [];
    for (let file = 0; file < 3; file++) {
      const items = Array.from({ length: 400 }, (_, i) => bulkRow(file * 400 + i + 1));
      const uploaded = await a.call('POST', '/_sandbox/bulk-disbursements', { body: { name: `Payroll ${file}`, items }, headers });
      expect(uploaded.status, uploaded.text).toBe(201);
      pages.push(`/api/v1/transfers/bulk/${uploaded.body.id}/transfers?page=0&size=100`);
    }
    await advance(a, 3600);
    expect((await b.call('GET', pages[2], { headers })).body.content[0].status).toBe('SUCCESSFUL');
    const version = async () => Number((await stores[0].sql<{ version: string }[]>`SELECT version::text FROM sandbox_tenants`)[0].version);
    const before = await version();
    // Past the default retention age (7 days of real time): the files, their rows and their events go.
    a.clock.advance(8 * 86_400);
    await a.tenants.retain();
    // The events (the log keeps its newest 1,000), then three files of 401 records each: a session
    // ends once it holds 1,000 drops (a file goes whole), and each is committed by itself. One
    // session dropped them all, its statement built for every drop in one go.
    expect((await version()) - before).toBeGreaterThanOrEqual(2);
    for (const page of pages) {
      const gone = await b.call('GET', page, { headers });
      expect([gone.status, gone.body.error?.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    }
    // Only the newest event stays (event ids go on from it).
    expect((await b.call('GET', '/_sandbox/events?limit=1000')).body.data.length).toBeLessThanOrEqual(1);
    const left = await stores[0].sql<{ n: number }[]>`SELECT count(*)::int AS n FROM sandbox_records WHERE coll IN ('transfers', 'bulk_disbursements', 'events') AND value IS NOT NULL`;
    expect(left[0].n).toBeLessThanOrEqual(1);
  });
});

describe('a key on a replica', () => {
  it('is the key everywhere: another key on the other replica sees nothing of it', async () => {
    await a.call('POST', PAYOUTS, { body: payout() });
    expect((await b.call('GET', `${PAYOUTS}/order-1`, { key: KEY.replace(/1$/, '9') })).status).toBe(404);
  });
});

describe('a replica past its memory budget', () => {
  it('forgets the copies of its idle keys and refuses creates, while both keys read on', async () => {
    const { g, heap } = gauge();
    const budget = new HeapBudget(0.75, heap);
    const c = await createTestApp({ store: await PostgresStore.open(dbUrl), heap: budget });
    afterThisTest(() => c.store.close());
    expect((await c.call('POST', PAYOUTS, { body: payout() })).status).toBe(201);
    expect((await c.call('POST', PAYOUTS, { key: KEY_B, body: payout() })).status).toBe(201);
    expect([...c.tenants.loaded()].map((t) => t.id).sort()).toEqual([tenantIdOf(KEY), tenantIdOf(KEY_B)].sort());
    g.inUse = g.live = 800 * MB;
    g.at = 10_000;
    budget.sample();
    // A session of one key ends, and the other's idle copy goes: its data stay in the database.
    expect((await c.call('GET', `${PAYOUTS}/order-1`, { key: KEY_B })).status).toBe(200);
    expect([...c.tenants.loaded()].map((t) => t.id)).toEqual([tenantIdOf(KEY_B)]);
    const read = await c.call('GET', `${PAYOUTS}/order-1`);
    expect([read.status, read.body.data.reference]).toEqual([200, 'order-1']);
    const refused = await c.call('POST', PAYOUTS, { body: payout({ reference: 'order-2' }) });
    expect([refused.status, refused.headers.get('retry-after'), refused.body.error.code]).toEqual([503, '10', 'SERVICE_UNAVAILABLE']);
    // The other replica, within its budget, creates for the key.
    expect((await a.call('POST', PAYOUTS, { body: payout({ reference: 'order-2' }) })).status).toBe(201);
  });
});

describe('a receiver probe whose next session cannot begin', () => {
  it("answers 503 and leaves alone the session of the request that took the key meanwhile", async () => {
    // The replica's connections (postgres.lanes.ts): a session begins by taking one.
    const lanes = (stores[0] as unknown as { lanes: { take: () => Promise<unknown> } }).lanes;
    const take = lanes.take;
    let other: Promise<Awaited<ReturnType<TestApp['tenants']['acquire']>>> | undefined;
    // The receiver: on the first delivery the probing request has let the key go. The next session
    // to begin is the probe's own: the database is unreachable for it, while another request of the
    // key (the partner's call back) waits for its turn behind it.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (!other) {
          lanes.take = () => {
            lanes.take = take;
            other = a.tenants.acquire(KEY, 'sandbox');
            return new Promise((_, reject) => setTimeout(() => reject(new Error('ECONNRESET')), 50));
          };
        }
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      expect((await a.call('PUT', '/_sandbox/webhooks', { body: { url } })).status).toBe(200);
      const probed = await a.call('POST', '/_sandbox/webhooks/probe');
      expect([probed.status, probed.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      const held = await other!;
      held.store.collection<number>('calls').put('back-1', 1);
      // The probing request's end let go nothing of the request holding the key now.
      await new Promise((r) => setTimeout(r, 100));
      expect((held.store as PostgresTenantStore).held).toBe(true);
      held.store.collection<number>('calls').put('back-2', 2);
      await a.tenants.persist(held);
      const rows = await stores[0].sql<{ id: string }[]>`SELECT id FROM sandbox_records WHERE tenant = ${tenantIdOf(KEY)} AND coll = 'calls' AND value IS NOT NULL ORDER BY id`;
      a.tenants.release(held);
      expect(rows.map((r) => r.id)).toEqual(['back-1', 'back-2']);
      // The key goes on: both replicas answer it.
      expect((await b.call('POST', PAYOUTS, { body: payout() })).status).toBe(201);
      expect((await a.call('GET', `${PAYOUTS}/order-1`)).status).toBe(200);
    } finally {
      lanes.take = take;
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('a receiver probe on one replica', () => {
  it('is the one probe of its key: the other replica answers 429 while it is sent, and probes again once it is recorded', async () => {
    let second: Promise<{ status: number; code?: string }> | undefined;
    let posts = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        posts++;
        second ??= b.call('POST', '/_sandbox/webhooks/probe').then((r) => ({ status: r.status, code: r.body.error?.code }));
        void second.then(() => res.writeHead(200).end('ok'));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      expect((await a.call('PUT', '/_sandbox/webhooks', { body: { url } })).status).toBe(200);
      expect((await a.call('POST', '/_sandbox/webhooks/probe')).status).toBe(200);
      expect(await second).toEqual({ status: 429, code: 'RATE_LIMITED' });
      expect(posts).toBe(7);
      expect((await b.call('POST', '/_sandbox/webhooks/probe')).status).toBe(200);
      expect(posts).toBe(14);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('a database the previous version wrote', () => {
  it('is served as that version served it, on either replica: replays byte for byte, 409 for another body, moves that fall due', async () => {
    // The previous version's records (fixtures/previous-format, as its --data files hold them),
    // put in sandbox_records as that version wrote them there: each record's JSON, in insertion order.
    const fixture = path.join(import.meta.dirname, 'fixtures', 'previous-format');
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-previous-pg-'));
    await cp(path.join(fixture, 'tenants'), path.join(dir, 'tenants'), { recursive: true });
    const files = await LowdbStore.open(dir);
    const id = tenantIdOf(KEY);
    const rows: { tenant: string; coll: string; id: string; seq: number; ver: number; value: string }[] = [];
    for (const [coll, map] of ((await files.tenant(id)) as MemoryTenantStore).data) for (const [rid, v] of map) rows.push({ tenant: id, coll, id: rid, seq: rows.length, ver: 1, value: JSON.stringify(v) });
    await files.close();
    expect(rows.length).toBeGreaterThan(10);
    await stores[0].sql`INSERT INTO sandbox_tenants (id, mode, version, next_seq) VALUES (${id}, 'sandbox', 1, ${rows.length})`;
    await stores[0].sql`INSERT INTO sandbox_records ${stores[0].sql(rows)}`;

    const answers = JSON.parse(await readFile(path.join(fixture, 'answers.json'), 'utf8')) as { method: string; path: string; body: unknown; headers: Record<string, string>; status: number; text: string }[];
    const creations = answers.filter((x) => x.status === 201);
    expect(creations).toHaveLength(4);
    for (const [i, x] of creations.entries()) {
      const again = await (i % 2 ? a : b).call(x.method, x.path, { body: x.body, headers: x.headers });
      expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([201, 'true', x.text]);
    }
    const other = await a.call('POST', PAYOUTS, { body: { ...(creations[0].body as object), amount: 2000 } });
    expect([other.status, other.body.error.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    await advance(b, 600);
    expect((await a.call('GET', `${PAYOUTS}/fixture-pending`)).body.data.status).toBe('SUCCESSFUL');
    const events = (await b.call('GET', '/_sandbox/events?limit=100')).body.data as { id: string; event: string; data: { reference: string } }[];
    expect(events.slice(6, 8).map((e) => e.id)).toEqual(['evt_0000000007', 'evt_0000000008']);
    expect(events[6]).toMatchObject({ event: 'payout.processing', data: { reference: 'fixture-pending' } });
  });
});
