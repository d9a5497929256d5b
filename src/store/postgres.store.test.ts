// The PostgreSQL store as several replicas see it: two stores on one database, each with its own copy.
import { availableParallelism } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/postgres.js';
import { MIGRATION_LOCK, MIGRATIONS } from './postgres.schema.js';
import { PostgresStore } from './postgres.store.js';
import { READ_SLICE, TOMBSTONE_VERSIONS, type PostgresTenantStore } from './postgres.tenant.js';

let pg: TestPostgres;
let databases = 0;
const opened: PostgresStore[] = [];
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.stop());
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function database(): Promise<string> {
  const name = `replicas_${++databases}`;
  const admin = await PostgresStore.open(pg.url);
  await admin.sql.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  return pg.url.replace(/\/postgres$/, `/${name}`);
}

async function replicas(url: string): Promise<[PostgresStore, PostgresStore]> {
  const both = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
  opened.push(...both);
  return both;
}

/** One session: begin, work, commit. */
async function session<T>(t: PostgresTenantStore, work: (t: PostgresTenantStore) => T): Promise<T> {
  await t.begin('sandbox');
  try {
    return work(t);
  } finally {
    await t.end();
  }
}

describe('postgres store across replicas', () => {
  it('creates the schema once when two replicas start together, and records its version', async () => {
    const url = await database();
    const [a] = await replicas(url);
    const rows = await a.sql<{ version: number }[]>`SELECT version FROM sandbox_schema`;
    expect(rows).toEqual([{ version: MIGRATIONS.length }]);
  });

  it("waits for another replica's migration past the lock limit sessions are given", async () => {
    const url = await database();
    const [a] = await replicas(url);
    // A replica migrating: the migrations' advisory lock held on a connection of its own for 1 s.
    const holder = await a.sql.reserve();
    await holder.unsafe('BEGIN');
    await holder.unsafe(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    const released = new Promise((resolve) => setTimeout(resolve, 1000)).then(() => holder.unsafe('COMMIT')).finally(() => holder.release());
    const started = Date.now();
    const b = await PostgresStore.open(url, { lockWaitMs: 200 });
    opened.push(b);
    await released;
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(await b.sql<{ version: number }[]>`SELECT version FROM sandbox_schema`).toEqual([{ version: MIGRATIONS.length }]);
  });

  it("opens the pool the URL's max asks for (two per core, 4 to 20, without it), which the driver alone would not take from a URL", async () => {
    const url = await database();
    const [plain] = await replicas(url);
    const sized = await PostgresStore.open(`${url}?max=3`);
    opened.push(sized);
    expect([plain.poolSize, sized.poolSize]).toEqual([Math.min(20, Math.max(4, 2 * availableParallelism())), 3]);
    // The driver's own URL options win over the sandbox's defaults (5 s to connect, 60 s idle), and
    // so does the URL's setting of how long the database lets a session idle in its transaction.
    const timed = await PostgresStore.open(`${url}?connect_timeout=9&idle_timeout=30&idle_in_transaction_session_timeout=30000`);
    opened.push(timed);
    expect([plain.sql.options.connect_timeout, plain.sql.options.idle_timeout]).toEqual([5, 60]);
    expect([timed.sql.options.connect_timeout, timed.sql.options.idle_timeout]).toEqual([9, 30]);
    const idleInTransaction = async (s: PostgresStore) => (await s.sql<{ t: string }[]>`SHOW idle_in_transaction_session_timeout`.values())[0][0];
    expect([await idleInTransaction(plain), await idleInTransaction(timed)]).toEqual(['1min', '30s']);
    expect(await sized.sql`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it("leaves an idle-in-transaction limit the database sets for itself, and starts connections without one (a pooler refuses a start parameter it does not know)", async () => {
    const url = await database();
    const [first] = await replicas(url);
    const name = (await first.sql<{ db: string }[]>`SELECT current_database() AS db`)[0].db;
    await first.sql.unsafe(`ALTER DATABASE "${name}" SET idle_in_transaction_session_timeout = '45s'`);
    const later = await PostgresStore.open(url);
    opened.push(later);
    expect((await later.sql<{ t: string }[]>`SHOW idle_in_transaction_session_timeout`.values())[0][0]).toBe('45s');
    // The parameters a connection starts with: the application name only.
    expect(later.sql.options.connection).toEqual({ application_name: 'payments-sandbox' });
  });

  it('answers statements outside its own work while a session holds every connection of its pool', async () => {
    const store = await PostgresStore.open(await database(), { max: 1 });
    opened.push(store);
    const t = store.copy('t');
    await t.begin('sandbox');
    try {
      const answer = await Promise.race([store.sql`SELECT 1 AS one`, new Promise((resolve) => setTimeout(() => resolve('no answer within 3 s'), 3000))]);
      expect(answer).toEqual([{ one: 1 }]);
    } finally {
      await t.end();
    }
  });

  it('gives every replica the origin of the first one to start, even when they start together', async () => {
    const url = await database();
    const [a, b] = await replicas(url);
    const [x, y] = await Promise.all([a.origin(1_000), b.origin(2_000)]);
    expect(x).toBe(y);
    expect([1_000, 2_000]).toContain(x);
    const [c] = await replicas(url);
    expect(await c.origin(9_000)).toBe(x);
  });

  it('migrates a database an older sandbox created, keeping its data', async () => {
    const url = await database();
    const [a] = await replicas(url);
    await session(a.copy('t'), (t) => t.collection('x').put('1', 'kept'));
    // as the first version of the schema left it
    await a.sql`ALTER TABLE sandbox_tenants DROP COLUMN used_at`;
    await a.sql`DROP TABLE sandbox_meta`;
    await a.sql`DROP TABLE sandbox_journal`;
    await a.sql`UPDATE sandbox_schema SET version = 1`;
    const [b] = await replicas(url);
    expect(await b.sql`SELECT version FROM sandbox_schema`).toEqual([{ version: MIGRATIONS.length }]);
    expect(await b.sql`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'sandbox_tenants' AND column_name = 'used_at'`).toEqual([{ n: 1 }]);
    expect(await session(b.copy('t'), (t) => t.collection('x').get('1'))).toBe('kept');
  });

  it('refuses a database migrated by a newer sandbox', async () => {
    const url = await database();
    const [a] = await replicas(url);
    await a.sql`UPDATE sandbox_schema SET version = ${MIGRATIONS.length + 1}`;
    await expect(PostgresStore.open(url)).rejects.toThrow(`schema is at version ${MIGRATIONS.length + 1}, newer than this sandbox knows`);
  });

  it('shows each replica the other one’s puts, removes and clears, in the writer’s order', async () => {
    const [a, b] = await replicas(await database());
    const ta = a.copy('t');
    const tb = b.copy('t');
    await session(ta, (t) => {
      const c = t.collection<number>('x');
      c.put('k1', 1);
      c.put('k2', 2);
      c.put('k3', 3);
    });
    expect(await session(tb, (t) => [...t.collection<number>('x').keys()])).toEqual(['k1', 'k2', 'k3']);
    await session(tb, (t) => {
      const c = t.collection<number>('x');
      c.remove('k1');
      c.put('k2', 20);
      c.put('k1', 10);
      t.collection('y').put('a', 'y');
    });
    expect(await session(ta, (t) => [...t.collection<number>('x').keys()].map((k) => [k, t.collection<number>('x').get(k)]))).toEqual([
      ['k2', 20],
      ['k3', 3],
      ['k1', 10],
    ]);
    await session(ta, (t) => t.clear(['y']));
    expect(await session(tb, (t) => [t.collection('x').size, t.collection('y').get('a')])).toEqual([0, 'y']);
    await session(tb, (t) => t.collection('x').put('new', 1));
    expect(await session(ta, (t) => [...t.collection('x').keys()])).toEqual(['new']);
  });

  it('keeps quotes, backslashes and any Unicode in ids, collection names, values and journal entries as written', async () => {
    const [a, b] = await replicas(await database());
    const odd = `it's a \\ back'\\'slash; DROP TABLE sandbox_records; -- \u00e9\u{1F600} \\x27 $$`;
    const value = { text: odd, nested: [odd, { [odd]: odd }], lone: '\ud800' };
    await session(a.copy(odd), (t) => {
      t.collection(odd).put(odd, value);
      t.journal.add(odd, 10);
    });
    expect(await session(b.copy(odd), (t) => [[...t.collection(odd).keys()], t.collection(odd).get(odd)])).toEqual([[odd], value]);
    expect((await b.copy(odd).journal.list(10)).map((e) => e.entry)).toEqual([odd]);
    await session(b.copy(odd), (t) => t.clear([odd]));
    expect(await session(a.copy(odd), (t) => t.collection(odd).get(odd))).toEqual(value);
    await session(b.copy(odd), (t) => t.clear());
    expect(await session(a.copy(odd), (t) => t.collection(odd).size)).toBe(0);
  });

  it('prepares again what a connection lacks of its statements, and goes on', async () => {
    const url = await database();
    const [a] = await replicas(url);
    // one connection, so the DEALLOCATEs below reach the one the sessions use
    const b = await PostgresStore.open(url, { max: 1 });
    opened.push(b);
    await session(a.copy('t'), (t) => t.collection('x').put('1', 'one'));
    expect(await session(b.copy('t'), (t) => t.collection('x').get('1'))).toBe('one');
    await b.sql.unsafe('DEALLOCATE sandbox_changes');
    await session(a.copy('t'), (t) => t.collection('x').put('2', 'two'));
    expect(await session(b.copy('t'), (t) => [...t.collection('x').keys()])).toEqual(['1', '2']);
    await b.sql.unsafe('DEALLOCATE ALL');
    await session(b.copy('t'), (t) => t.collection('x').put('3', 'three'));
    expect(await session(a.copy('t'), (t) => [...t.collection('x').keys()])).toEqual(['1', '2', '3']);
    expect((await b.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'sandbox%'`)[0].n).toBe(5);
  });

  it('fails a session whose connection the database ended between its round trips, keeps none of it, and goes on', async () => {
    const [a, b] = await replicas(await database());
    await session(a.copy('t'), (t) => t.collection('x').put('1', 'one'));
    const t = a.copy('t');
    await t.begin('sandbox');
    // The session's backend, idle in its transaction between the session's round trips, is ended.
    const ended = await b.sql<{ done: boolean }[]>`
      SELECT pg_terminate_backend(pid, 5000) AS done FROM pg_stat_activity WHERE application_name = 'payments-sandbox' AND state = 'idle in transaction'`;
    expect(ended).toEqual([{ done: true }]);
    t.collection('x').put('2', 'two');
    await expect(t.end()).rejects.toThrow('the database is unavailable');
    expect(t.held).toBe(false);
    expect(await session(b.copy('t'), (c) => [...c.collection('x').keys()])).toEqual(['1']);
    await session(a.copy('t'), (c) => c.collection('x').put('3', 'three'));
    expect(await session(b.copy('t'), (c) => [...c.collection('x').keys()])).toEqual(['1', '3']);
  });

  it('makes sessions of one tenant take turns across replicas: no update is lost', async () => {
    const [a, b] = await replicas(await database());
    const copies = [a.copy('t'), b.copy('t')];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        session(copies[i % 2], (t) => {
          const c = t.collection<number>('counter');
          c.put('n', (c.get('n') ?? 0) + 1);
        }),
      ),
    );
    expect(await session(copies[0], (t) => t.collection('counter').get('n'))).toBe(40);
  });

  it('reads the tenant whole when a copy is older than the kept tombstones', async () => {
    const [a, b] = await replicas(await database());
    const ta = a.copy('t');
    const tb = b.copy('t');
    await session(tb, (t) => t.collection('x').put('gone', 1));
    for (let i = 0; i < 2 * TOMBSTONE_VERSIONS; i++) {
      await session(ta, (t) => {
        t.collection('x').remove('gone');
        t.collection('x').put(`k${i % 3}`, i);
      });
    }
    const rows = await a.sql`SELECT 1 FROM sandbox_records WHERE tenant = 't' AND value IS NULL`;
    expect(rows.length).toBe(0);
    expect(await session(tb, (t) => [...t.collection('x').keys()].sort())).toEqual(['k0', 'k1', 'k2']);
  });

  it('reads a large tenant whole in slices between turns of the event loop, and no turn sees the copy half read', async () => {
    const [a, b] = await replicas(await database());
    const n = READ_SLICE * 3 + 5;
    await session(a.copy('t'), (t) => {
      for (let i = 0; i < n; i++) t.collection('x').put(`k${i}`, { i });
    });
    await session(a.copy('t'), (t) => t.collection('x').put('k0', { i: -1 }));
    // What the other turns of the event loop see of b's copy while it is read (whole: its first read).
    const tb = b.copy('t');
    const seen: number[] = [];
    let reading = true;
    const look = () => {
      seen.push(tb.data.get('x')?.size ?? 0);
      if (reading) setImmediate(look);
    };
    look();
    const read = await session(tb, (t) => ({ size: t.collection('x').size, first: t.collection('x').get('k0'), last: t.collection('x').get(`k${n - 1}`) }));
    reading = false;
    expect(read).toEqual({ size: n, first: { i: -1 }, last: { i: n - 1 } });
    // Turns went by while the rows were parsed, and each saw the copy before the read or after it.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.filter((size) => size !== 0 && size !== n)).toEqual([]);
  });

  it('answers busy to a session that skips locked tenants while another replica holds it', async () => {
    const [a, b] = await replicas(await database());
    const ta = a.copy('t');
    await ta.begin('sandbox');
    expect(await b.copy('t').begin('sandbox', { skipLocked: true })).toBe('busy');
    await ta.end();
    expect(await b.copy('t').begin('sandbox', { skipLocked: true })).toBe('changed');
    await b.copy('t').end();
  });

  it('starts a dropped tenant empty on the replica that still has a copy of it', async () => {
    const [a, b] = await replicas(await database());
    await session(a.copy('t'), (t) => t.collection('x').put('1', 'old'));
    expect(await session(b.copy('t'), (t) => t.collection('x').get('1'))).toBe('old');
    await a.drop('t');
    await session(a.copy('t'), (t) => t.collection('y').put('1', 'new'));
    expect(await session(b.copy('t'), (t) => [t.collection('x').size, t.collection('y').get('1')])).toEqual([0, 'new']);
  });
});
