// A database that stops answering on a connection already open (a paused server, a network path
// cut without the connection being closed): one replica reaches it through a proxy that can stop
// forwarding without closing anything, another reaches it directly. The first answers 503 within the
// round-trip limit, drops the connection that got no answer, and recovers by itself.
import { createServer as createHttpServer } from 'node:http';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { PostgresStore, type PostgresOptions } from '../../src/store/postgres.store.js';
import { createTestApp, KEY, KEY_B, payoutRequest, type TestApp } from '../support/app.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

const PAYOUTS = '/api/v1/partners/payouts';
const LIMIT_MS = 1000;
/** What a loaded machine may add to the limit. */
const MARGIN_MS = 3000;

/** Forwards each connection to the database. pause() stops forwarding on the connections open then,
 * both ways, keeping what arrives; holdOn(text) does so for the connection that sends `text` next,
 * from that message on. resume() delivers what was kept, in order, and forwards again. Connections
 * opened while paused are forwarded. */
class StallingProxy {
  private readonly server: Server;
  private readonly pairs = new Set<{ paused: boolean; kept: [Socket, Buffer][]; client: Socket; db: Socket }>();
  private hold: string | undefined;
  private stallText: string | undefined;
  private stalled = false;
  /** Connections accepted so far. */
  opened = 0;

  constructor(dbPort: number) {
    this.server = createServer((client) => {
      this.opened++;
      const db = createConnection(dbPort, '127.0.0.1');
      const pair = { paused: this.stalled, kept: [] as [Socket, Buffer][], client, db };
      this.pairs.add(pair);
      const forward = (from: Socket, to: Socket) =>
        from.on('data', (chunk) => {
          if (!pair.paused && from === client && this.hold !== undefined && chunk.includes(this.hold)) {
            this.hold = undefined;
            pair.paused = true;
          }
          if (!pair.paused && from === client && this.stallText !== undefined && chunk.includes(this.stallText)) {
            this.stallText = undefined;
            this.stalled = true;
            for (const p of this.pairs) p.paused = true;
          }
          if (pair.paused) pair.kept.push([to, chunk]);
          else to.write(chunk);
        });
      forward(client, db);
      forward(db, client);
      const close = () => {
        this.pairs.delete(pair);
        client.destroy();
        db.destroy();
      };
      for (const s of [client, db]) s.on('close', close).on('error', close);
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  pause(): void {
    for (const pair of this.pairs) pair.paused = true;
  }

  holdOn(text: string): void {
    this.hold = text;
  }

  /** From the next message that contains `text`, stop forwarding on every connection, those opened
   * later included, until resume(). */
  stallFrom(text: string): void {
    this.stallText = text;
  }

  /** Stop reading from the replica's connections, as a stopped server whose kernel still acknowledges:
   * not even their close is seen, until resume(). */
  freeze(): void {
    for (const pair of this.pairs) {
      pair.paused = true;
      pair.client.pause();
    }
  }

  resume(): void {
    this.stalled = false;
    for (const pair of this.pairs) {
      pair.client.resume();
      pair.paused = false;
      for (const [to, chunk] of pair.kept.splice(0)) to.write(chunk);
    }
  }

  close(): Promise<void> {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.db.destroy();
    }
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let pg: TestPostgres;
let databases = 0;
let proxy: StallingProxy;
let stores: PostgresStore[] = [];
/** The database of the latest replicas(), reached directly. */
let directUrl = '';

beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.stop());
afterEach(async () => {
  await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
  stores = [];
  await proxy?.close();
});

/** Replica `a` through the proxy (one connection, the given limits), `b` directly, on a new database. */
async function replicas(opts: PostgresOptions): Promise<{ a: TestApp; b: TestApp; clock: ManualClock }> {
  const name = `stalled_${++databases}`;
  const admin = await PostgresStore.open(pg.url);
  await admin.sql.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  proxy = new StallingProxy(pg.port);
  const port = await proxy.listen();
  const direct = (directUrl = pg.url.replace(/\/postgres$/, `/${name}`));
  const proxied = direct.replace(`:${pg.port}/`, `:${port}/`);
  stores = [await PostgresStore.open(proxied, { max: 1, ...opts }), await PostgresStore.open(direct)];
  const clock = new ManualClock();
  const [a, b] = await Promise.all(stores.map((store) => createTestApp({ store, clock })));
  return { a, b, clock };
}

/** The call's result and how long it took (ms). */
async function timed<T>(call: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await call();
  return [result, performance.now() - start];
}

describe('a database that stops answering on an open connection', () => {
  it('answers 503 within the limit, drops the connection, serves other keys and recovers by itself', async () => {
    const { a, b } = await replicas({ roundTripMs: LIMIT_MS });
    const created = await a.call('POST', PAYOUTS, { body: payoutRequest('order-1') });
    expect(created.status).toBe(201);

    proxy.pause();
    const [stalled, took] = await timed(() => a.call('GET', `${PAYOUTS}/order-1`));
    expect([stalled.status, stalled.headers.get('retry-after'), stalled.body.error?.code]).toEqual([503, '1', 'SERVICE_UNAVAILABLE']);
    expect(stalled.body.message).toContain("The sandbox's database cannot be reached");
    expect(took).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(took).toBeLessThan(LIMIT_MS + MARGIN_MS);

    // The connection that got no answer is gone from the replica's pool (of one): another key's
    // request opens a new one, which the proxy forwards, instead of waiting behind it.
    const other = await a.call('POST', PAYOUTS, { key: KEY_B, body: payoutRequest('order-b') });
    expect(other.status).toBe(201);
    // A replica that reaches the database answers the key meanwhile.
    expect((await b.call('GET', `${PAYOUTS}/order-1`)).body.data).toEqual(created.body.data);

    // Background work is bounded the same way: a tick and a retention pass on the stalled connection
    // give up within the limit, saying why (the next tick retries).
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    proxy.pause();
    const [outcome, backgroundTook] = await timed(() => Promise.allSettled([a.tenants.tick(), a.tenants.retain()]));
    const logged = errors.mock.calls.flat();
    errors.mockRestore();
    const said = [...logged, ...outcome.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []))].map(String).join('\n');
    expect(said).toContain('the database is unavailable: no answer from the database within 1 s');
    expect(backgroundTook).toBeLessThan(LIMIT_MS + MARGIN_MS);

    proxy.resume();
    const back = await a.call('GET', `${PAYOUTS}/order-1`);
    expect([back.status, back.body.data]).toEqual([200, created.body.data]);
    expect((await a.call('POST', PAYOUTS, { body: payoutRequest('order-2') })).status).toBe(201);
    expect((await b.call('GET', `${PAYOUTS}/order-2`)).status).toBe(200);
    expect((await a.call('GET', `${PAYOUTS}/order-b`, { key: KEY_B })).status).toBe(200);
  });

  it('answers 503 to a write whose commit gets no answer, keeps none of it, and the database lets the key go', async () => {
    const { a, b } = await replicas({ roundTripMs: LIMIT_MS, idleInTransactionMs: 1500 });
    const created = await a.call('POST', PAYOUTS, { body: payoutRequest('order-1') });
    expect(created.status).toBe(201);

    // The commit of the next write is kept by the proxy: the session took the key's lock, and its
    // writes never reach the database.
    proxy.holdOn('EXECUTE sandbox_write(');
    const [stalled, took] = await timed(() => a.call('POST', PAYOUTS, { body: payoutRequest('order-2') }));
    expect([stalled.status, stalled.headers.get('retry-after'), stalled.body.error?.code]).toEqual([503, '1', 'SERVICE_UNAVAILABLE']);
    expect(stalled.body.message).toContain("while this request's changes were being written");
    expect(took).toBeLessThan(LIMIT_MS + MARGIN_MS);

    // The database ends the session left idle in its transaction, and its lock with it: the other
    // replica answers the key, and finds nothing of the write that got no answer.
    const [read, readTook] = await timed(() => b.call('GET', `${PAYOUTS}/order-1`));
    expect(read.body.data).toEqual(created.body.data);
    expect(readTook).toBeLessThan(1500 + MARGIN_MS);
    expect((await b.call('GET', `${PAYOUTS}/order-2`)).status).toBe(404);

    proxy.resume();
    expect((await a.call('GET', `${PAYOUTS}/order-2`)).status).toBe(404);
    const again = await a.call('POST', PAYOUTS, { body: payoutRequest('order-2') });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect((await b.call('GET', `${PAYOUTS}/order-2`)).body.data).toEqual(again.body.data);
  });

  /** Three keys with a payout each, whose next moves have fallen due: a tick finds three tenants. */
  async function threeDue() {
    const { a, clock } = await replicas({ roundTripMs: LIMIT_MS });
    const keys = [KEY, KEY_B, 'sk_test_00000000000000000000000000000003'];
    for (const key of keys) expect((await a.call('POST', PAYOUTS, { key, body: payoutRequest('order-1') })).status).toBe(201);
    // A tick with the database answering (it starts the minute's retention pass, which ends first).
    await a.tenants.tick();
    await a.tenants.retain();
    clock.advance(31);
    return { a, clock, keys };
  }

  it('ends a tick and a retention pass at the second tenant the database does not answer for, and logs the outage when it begins and ends', async () => {
    const { a, keys } = await threeDue();

    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // The database stops answering once the tick opens its first tenant.
      proxy.stallFrom('sandbox_lock_skip');
      const before = proxy.opened;
      await a.tenants.tick();
      // Two attempts: the first tenant on the connection the tick had, the second on a new one; the
      // tick gave up there, opening no connection for the third.
      expect(proxy.opened - before).toBe(1);
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([
        '[sandbox] background moves paused, retried every tick: the database is unavailable: no answer from the database within 1 s',
      ]);
      // The outage goes on: the next ticks try again (one connection each, the two tenants that failed
      // left alone for a while), and say nothing more.
      await a.tenants.tick();
      await a.tenants.tick();
      expect(proxy.opened - before).toBe(3);
      expect(errors).toHaveBeenCalledTimes(1);

      // A retention pass: the database answers its search for idle tenants and stops answering at
      // the first tenant it sweeps. The pass leaves that tenant out, as the tick does, and ends at the
      // second (a new connection for it), not trying the third; it says so once.
      proxy.resume();
      proxy.stallFrom('sandbox_lock_skip');
      errors.mockClear();
      const beforePass = proxy.opened;
      await a.tenants.retain();
      expect(proxy.opened - beforePass).toBe(2);
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual(['[sandbox] retention pass failed:']);
      expect(String(errors.mock.calls[0][1])).toContain('no answer from the database within 1 s');

      // The database answers again: the tick says so, once.
      errors.mockClear();
      proxy.resume();
      await a.tenants.tick();
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^\[sandbox\] background moves resumed: the database answers again \(after \d+ s\)$/)]);
      await a.tenants.tick();
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
    }
    for (const key of keys) expect((await a.call('GET', `${PAYOUTS}/order-1`, { key })).body.data.status).toBe('PROCESSING');
  });

  it('skips for a while a tenant the database does not answer for and serves the other due tenants', async () => {
    const { a, clock, keys } = await threeDue();
    /** The keys whose next move is due now, as the database has them. */
    const due = async () => {
      const rows = await stores[1].sql<{ id: string }[]>`SELECT id FROM sandbox_tenants WHERE due_at <= ${clock.now()}`;
      return keys.filter((key) => rows.some((r) => r.id === tenantIdOf(key)));
    };
    expect(await due()).toEqual(keys);

    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // Only the session of KEY's tenant gets no answer (a tenant too large to read in time, say).
      proxy.holdOn(`sandbox_lock_skip('${tenantIdOf(KEY)}')`);
      await a.tenants.tick();
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([
        `[sandbox] background moves of tenant ${tenantIdOf(KEY)} skipped for 60 s: the database is unavailable: no answer from the database within 1 s`,
      ]);
      // The other two tenants' moves were applied by that tick.
      expect(await due()).toEqual([KEY]);
      // The next tick leaves KEY's tenant alone (no new connection, nothing said).
      proxy.resume();
      const before = proxy.opened;
      errors.mockClear();
      await a.tenants.tick();
      expect([proxy.opened - before, errors.mock.calls.length]).toEqual([0, 0]);
      expect(await due()).toEqual([KEY]);
    } finally {
      errors.mockRestore();
    }
    // A request of the key catches its moves up itself.
    for (const key of keys) expect((await a.call('GET', `${PAYOUTS}/order-1`, { key })).body.data.status).toBe('PROCESSING');
  });

  it('destroys the socket of a connection it drops, though the database reads nothing (a paused server)', async () => {
    const { a } = await replicas({ roundTripMs: LIMIT_MS });
    const created = await a.call('POST', PAYOUTS, { body: payoutRequest('order-1') });
    expect(created.status).toBe(201);
    const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;

    // The proxy reads nothing more from the replica's connection, not even its close.
    proxy.freeze();
    const open = sockets();
    const stalled = await a.call('GET', `${PAYOUTS}/order-1`);
    expect(stalled.status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Its socket is gone from this process: ending it politely would have left it half-closed,
    // open until the database read the close.
    expect(sockets()).toBe(open - 1);

    proxy.resume();
    const back = await a.call('GET', `${PAYOUTS}/order-1`);
    expect([back.status, back.body.data]).toEqual([200, created.body.data]);
  });
});

describe('a database address that fails at once', () => {
  it('refuses to open, and the process goes on (the failure reaches the caller, not an unhandled socket error)', async () => {
    const uncaught: unknown[] = [];
    const note = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', note);
    try {
      // A broadcast address: connecting fails before the driver listens on the socket (ENETUNREACH).
      await expect(PostgresStore.open('postgres://sandbox@255.255.255.255:5432/sandbox')).rejects.toThrow(/255\.255\.255\.255/);
      // A closed port: the refusal comes a moment later.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      await expect(PostgresStore.open(`postgres://sandbox@127.0.0.1:${port}/sandbox`)).rejects.toThrow('ECONNREFUSED');
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', note);
    }
    expect(uncaught).toEqual([]);
  });
});

describe('a key held on another replica', () => {
  /** Holds the key's row lock on a connection of a store of its own, as a long session would. */
  async function holdKey(key: string) {
    const own = await PostgresStore.open(directUrl);
    stores.push(own);
    const holder = await own.sql.reserve();
    await holder`BEGIN`;
    await holder`SELECT 1 FROM sandbox_tenants WHERE id = ${tenantIdOf(key)} FOR UPDATE`;
    return async () => {
      await holder`COMMIT`;
      holder.release();
    };
  }
  /** Backends of the database waiting for a lock. */
  const waiting = async () =>
    (await stores[1].sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0].n;

  it('answers 503 to a request that waits for the key past the lock limit, and uses its connection again', async () => {
    // The round-trip limit is longer than the lock limit: the database answers first.
    const { a } = await replicas({ roundTripMs: 5000, lockWaitMs: 300 });
    const created = await a.call('POST', PAYOUTS, { body: payoutRequest('order-1') });
    expect(created.status).toBe(201);
    const connections = proxy.opened;

    const release = await holdKey(KEY);
    const [waited, took] = await timed(() => a.call('GET', `${PAYOUTS}/order-1`));
    expect([waited.status, waited.headers.get('retry-after'), waited.body.error?.code]).toEqual([503, '1', 'SERVICE_UNAVAILABLE']);
    expect(waited.body.message).toBe(
      'Another request of this API key held its data for longer than this request may wait (a clock advance waiting for webhook attempts, on another replica), so nothing of this request was done. Retry it shortly.',
    );
    expect(took).toBeLessThan(5000);
    // Its backend waits no more, and the replica's connection (a pool of one) is kept.
    expect(await waiting()).toBe(0);
    await release();

    const read = await a.call('GET', `${PAYOUTS}/order-1`);
    expect([read.status, read.body.data]).toEqual([200, created.body.data]);
    expect((await a.call('POST', PAYOUTS, { body: payoutRequest('order-2') })).status).toBe(201);
    expect(proxy.opened).toBe(connections);
  });

  it('bounds a statement outside a session by the lock limit too: a drop of a held key is refused and its connection kept', async () => {
    const { a } = await replicas({ roundTripMs: 5000, lockWaitMs: 300 });
    expect((await a.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(201);
    const connections = proxy.opened;
    const release = await holdKey(KEY);
    try {
      const [refused, took] = await timed(() => stores[0].drop(tenantIdOf(KEY)).then(() => 'dropped', (err: Error) => err.message));
      expect(refused).toContain('lock timeout');
      expect(took).toBeLessThan(5000);
      expect(await waiting()).toBe(0);
    } finally {
      await release();
    }
    expect((await a.call('GET', `${PAYOUTS}/order-1`)).status).toBe(200);
    expect(proxy.opened).toBe(connections);
  });

  it('answers a probe whose next session waits past the lock limit that what it wrote before is kept', async () => {
    const { a } = await replicas({ roundTripMs: 5000, lockWaitMs: 300 });
    // The receiver: at the first delivery the probing request has committed its plan and let the key
    // go; another replica takes the key and holds it past the lock limit.
    let holding: Promise<() => Promise<void>> | undefined;
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => void (holding ??= holdKey(KEY)).then(() => res.writeHead(200).end('ok')));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      expect((await a.call('PUT', '/_sandbox/webhooks', { body: { url } })).status).toBe(200);
      const probed = await a.call('POST', '/_sandbox/webhooks/probe');
      expect([probed.status, probed.headers.get('retry-after'), probed.body.error?.code]).toEqual([503, '1', 'SERVICE_UNAVAILABLE']);
      // Not "nothing of this request was done": its plan was committed before the key was let go.
      expect(probed.body.message).toBe(
        'Another request of this API key held its data for longer than this request may wait (a clock advance waiting for webhook attempts, on another replica), so this request could not finish. What it had written before is kept: retry it shortly, and a retry with the same reference or idempotency key answers from what was kept.',
      );
      expect(holding).toBeDefined();
    } finally {
      await (await holding)?.();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    expect((await a.call('GET', '/_sandbox/webhooks')).status).toBe(200);
  });

  it('leaves a tenant another connection holds out of a retention drop at once: a tenant in use is not idle', async () => {
    const { a } = await replicas({ roundTripMs: 5000 });
    expect((await a.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(201);
    const release = await holdKey(KEY);
    try {
      const [dropped, took] = await timed(() => stores[0].dropIdle(tenantIdOf(KEY), Number.MAX_SAFE_INTEGER));
      expect(dropped).toBe(false);
      expect(took).toBeLessThan(1000);
      expect(await waiting()).toBe(0);
    } finally {
      await release();
    }
    expect((await a.call('GET', `${PAYOUTS}/order-1`)).status).toBe(200);
    // Let go, it is dropped as any idle tenant.
    expect(await stores[0].dropIdle(tenantIdOf(KEY), Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(await stores[1].sql`SELECT 1 FROM sandbox_tenants WHERE id = ${tenantIdOf(KEY)}`).toHaveLength(0);
  });

  it('asks the database to cancel the statement of a connection it drops, so its backend stops waiting for the lock', async () => {
    // A lock limit above the round-trip limit: the round trip is cut off while its backend still waits.
    const { a } = await replicas({ roundTripMs: LIMIT_MS, lockWaitMs: 10 * LIMIT_MS });
    expect((await a.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(201);
    const release = await holdKey(KEY);
    try {
      // A drop of the tenant waits for its lock, past the round-trip limit.
      await expect(stores[0].drop(tenantIdOf(KEY))).rejects.toThrow('no answer from the database within 1 s');
      expect(await waiting()).toBe(1);
      // Once the database has answered the replica again (another key's request), the dropped
      // connection's statement is cancelled: its backend no longer waits for the lock.
      expect((await a.call('POST', PAYOUTS, { key: KEY_B, body: payoutRequest('order-b') })).status).toBe(201);
      await expect.poll(waiting, { timeout: MARGIN_MS }).toBe(0);
    } finally {
      await release();
    }
    expect((await a.call('GET', `${PAYOUTS}/order-1`)).status).toBe(200);
  });

  it('cancels only the backend the dropped connection had, named by its pid and start, not whatever session has its pid now', async () => {
    const { a } = await replicas({ roundTripMs: LIMIT_MS, lockWaitMs: 10 * LIMIT_MS });
    expect((await a.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(201);
    // The replica's connection is taken for one whose backend started at another instant, as when the
    // database restarted between the drop and the cancel and the pid now names another session.
    const lanes = (stores[0] as unknown as { lanes: { all: Set<{ started?: string }>; cancelling: boolean } }).lanes;
    for (const lane of lanes.all) lane.started = '0';
    const release = await holdKey(KEY);
    try {
      await expect(stores[0].drop(tenantIdOf(KEY))).rejects.toThrow('no answer from the database within 1 s');
      expect(await waiting()).toBe(1);
      // The database answers the replica again, and the queued cancel is sent: it finds no backend of
      // that pid and start, so the backend of that pid goes on waiting.
      expect((await a.call('POST', PAYOUTS, { key: KEY_B, body: payoutRequest('order-b') })).status).toBe(201);
      await expect.poll(() => lanes.cancelling, { timeout: MARGIN_MS }).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await waiting()).toBe(1);
    } finally {
      await release();
    }
    expect((await a.call('GET', `${PAYOUTS}/order-1`)).status).toBe(200);
  });
});

describe('the connection for work outside sessions (tests, tools)', () => {
  it('has the lock limit on its first statement and again after its connection was lost and opened anew', async () => {
    const { a } = await replicas({ roundTripMs: 5000, lockWaitMs: 300 });
    expect((await a.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(201);
    // The replica's one pooled connection is in use: its statements go on a connection of their own.
    const lanes = (stores[0] as unknown as { lanes: { take: () => Promise<unknown>; give: (lane: unknown) => void; tools?: { closes: number } } }).lanes;
    const lane = await lanes.take();
    try {
      const limit = async () => (await stores[0].sql<{ lock_timeout: string }[]>`SHOW lock_timeout`)[0].lock_timeout;
      expect(await limit()).toBe('300ms');
      const [{ pid }] = await stores[0].sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      // Its connection is lost while idle (the backend ends when it takes the signal, not at once).
      await stores[1].sql`SELECT pg_terminate_backend(${pid})`;
      await expect.poll(() => lanes.tools?.closes, { timeout: MARGIN_MS }).toBe(1);
      // The next statement opens a new connection, which is given the limit again.
      const [{ pid: after }] = await stores[0].sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      expect(after).not.toBe(pid);
      expect(await limit()).toBe('300ms');
    } finally {
      lanes.give(lane);
    }
  });
});
