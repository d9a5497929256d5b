// The shared store (--store postgres://…): every tenant in one PostgreSQL database, so several
// replicas can answer any tenant. Each replica keeps a copy of the tenants it has served and brings
// it up to date under the tenant's row lock at the start of each session (postgres.tenant.ts).
// The schema is created and migrated on open (postgres.schema.ts).
import type { Sql } from 'postgres';
import { IDLE_IN_TRANSACTION_MS, Lanes, LOCK_WAIT_MS, ROUND_TRIP_MS } from './postgres.lanes.js';
import { migrate } from './postgres.schema.js';
import { DEFAULT_POOL, poolSizeOf, urlSets } from './postgres.url.js';
import { PostgresTenantStore } from './postgres.tenant.js';
import { StoreUnavailableError, type Store } from './store.js';

export interface PostgresOptions {
  /** Connections in the pool: a session holds one for its whole request. */
  max?: number;
  /** Seconds a new connection may take to connect before the request is answered 503 (a request
   * that finds every connection taken waits in the pool's queue for one, without a limit). */
  connectTimeout?: number;
  /** Milliseconds a round trip may take before the request is answered 503 and its connection
   * dropped (ROUND_TRIP_MS by default). */
  roundTripMs?: number;
  /** Milliseconds the database lets a session sit idle in its transaction before ending it and
   * letting its lock go (IDLE_IN_TRANSACTION_MS by default; a setting of the URL, the role or the
   * database wins). */
  idleInTransactionMs?: number;
  /** Milliseconds a session waits for its tenant's row lock before the request is answered 503, its
   * connection kept (LOCK_WAIT_MS by default; in proportion to `roundTripMs` when only that is
   * given, so that it stays below the round trip's limit). */
  lockWaitMs?: number;
}

export interface DueTenant {
  id: string;
  mode: string;
}

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  private readonly tenants = new Map<string, PostgresTenantStore>();

  private constructor(private readonly lanes: Lanes) {}

  /** Connect and bring the schema up to date (replicas starting together take turns). */
  static async open(url: string, opts: PostgresOptions = {}): Promise<PostgresStore> {
    const lanes = new Lanes(
      url,
      {
        // The URL's own connect_timeout and idle_timeout (which the driver reads) win over these defaults.
        ...(opts.connectTimeout !== undefined || !urlSets(url, 'connect_timeout') ? { connect_timeout: opts.connectTimeout ?? 5 } : {}),
        ...(urlSets(url, 'idle_timeout') ? {} : { idle_timeout: 60 }),
        onnotice: () => undefined,
        // Sent when each connection starts.
        connection: { application_name: 'payments-sandbox' },
      },
      // The driver takes no pool size from the URL (it reads `max` there as text): `?max=N` is read here.
      opts.max ?? poolSizeOf(url) ?? DEFAULT_POOL,
      opts.roundTripMs ?? ROUND_TRIP_MS,
      // Set on each connection at its first use, unless the URL, the role or the database set one.
      opts.idleInTransactionMs ?? IDLE_IN_TRANSACTION_MS,
      opts.lockWaitMs ?? (opts.roundTripMs === undefined ? LOCK_WAIT_MS : Math.round((opts.roundTripMs * LOCK_WAIT_MS) / ROUND_TRIP_MS)),
    );
    try {
      await lanes.run((sql) => migrate(sql), { bounded: false });
    } catch (err) {
      await lanes.end(1);
      throw err;
    }
    return new PostgresStore(lanes);
  }

  /** Connections this replica opens at most. */
  get poolSize(): number {
    return this.lanes.size;
  }

  /** Statements outside the sandbox's own work (tests, tools), on one of its connections. */
  get sql(): Sql {
    return this.lanes.first();
  }

  /** This replica's copy of a tenant, without reading it: a session brings it up to date. */
  copy(tenantId: string): PostgresTenantStore {
    let t = this.tenants.get(tenantId);
    if (!t) this.tenants.set(tenantId, (t = new PostgresTenantStore(tenantId, this.lanes)));
    return t;
  }

  /** The tenant, read from the database the first time it is asked for. */
  async tenant(tenantId: string): Promise<PostgresTenantStore> {
    const fresh = !this.tenants.has(tenantId);
    const t = this.copy(tenantId);
    if (fresh) {
      await t.begin('sandbox');
      await t.end();
    }
    return t;
  }

  tenantIds(): string[] {
    return [...this.tenants.keys()];
  }

  async origin(now: number): Promise<number> {
    // The first replica to start sets it; the others, then and later, read that one.
    const rows = await this.query(
      (sql) => sql<{ value: string }[]>`
        WITH added AS (INSERT INTO sandbox_meta (key, value) VALUES ('origin', ${String(now)}) ON CONFLICT (key) DO NOTHING RETURNING value)
        SELECT value FROM added UNION ALL SELECT value FROM sandbox_meta WHERE key = 'origin'`,
    );
    // A replica inserting at the same instant commits after this statement's snapshot: read it now.
    const [row] = rows.length ? rows : await this.query((sql) => sql<{ value: string }[]>`SELECT value FROM sandbox_meta WHERE key = 'origin'`);
    return Number(row.value);
  }

  async storedTenantIds(): Promise<string[]> {
    const rows = await this.query((sql) => sql<{ id: string }[]>`SELECT id FROM sandbox_tenants`);
    return rows.map((r) => r.id);
  }

  /** Tenants whose next timed move is due by `baseMs`, soonest first. */
  async due(baseMs: number, limit: number): Promise<DueTenant[]> {
    return this.query(
      (sql) => sql<DueTenant[]>`SELECT id, mode FROM sandbox_tenants WHERE due_at <= ${baseMs} ORDER BY due_at LIMIT ${limit}`,
    );
  }

  /** Tenants whose last write is older than `beforeMs` (base clock). */
  async idle(beforeMs: number, limit: number): Promise<string[]> {
    const rows = await this.query((sql) => sql<{ id: string }[]>`SELECT id FROM sandbox_tenants WHERE used_at < ${beforeMs} LIMIT ${limit}`);
    return rows.map((r) => r.id);
  }

  /** Forget this replica's copy; the data stay in the database. */
  async evict(tenantId: string): Promise<void> {
    const t = this.tenants.get(tenantId);
    if (t && !t.held && t.flushed) this.tenants.delete(tenantId);
  }

  /** Delete the tenant's records and row, under its lock: a session elsewhere finishes first. */
  async drop(tenantId: string): Promise<void> {
    await this.remove(tenantId);
  }

  /** Drop the tenant only if its last write is still older than `unusedSince` (base clock): it may
   * have been used since it was found idle. A tenant whose row a session holds is in use, so not
   * idle: it is skipped at once (SKIP LOCKED) rather than waited for, which a long session would make
   * last past the round-trip limit. True when it was dropped. */
  dropIdle(tenantId: string, unusedSince: number): Promise<boolean> {
    return this.remove(tenantId, unusedSince);
  }

  private async remove(tenantId: string, unusedSince?: number): Promise<boolean> {
    const dropped = await this.query((sql) =>
      sql.begin(async (tx) => {
        const [row] =
          unusedSince === undefined
            ? await tx<{ used_at: string | null }[]>`SELECT used_at FROM sandbox_tenants WHERE id = ${tenantId} FOR UPDATE`
            : await tx<{ used_at: string | null }[]>`SELECT used_at FROM sandbox_tenants WHERE id = ${tenantId} FOR UPDATE SKIP LOCKED`;
        if (unusedSince !== undefined && (!row || row.used_at === null || Number(row.used_at) >= unusedSince)) return false;
        await tx`DELETE FROM sandbox_records WHERE tenant = ${tenantId}`;
        await tx`DELETE FROM sandbox_journal WHERE tenant = ${tenantId}`;
        await tx`DELETE FROM sandbox_tenants WHERE id = ${tenantId}`;
        return true;
      }),
    );
    if (dropped) {
      this.tenants.get(tenantId)?.forget();
      this.tenants.delete(tenantId);
    }
    return dropped;
  }

  async close(): Promise<void> {
    try {
      // A session still ending (a read's COMMIT goes after its response) finishes first.
      await Promise.all([...this.tenants.values()].map((t) => t.settled()));
      for (const t of this.tenants.values()) if (!t.flushed) await t.flush();
    } finally {
      await this.lanes.end(5);
    }
  }

  /** One statement (or transaction) on a connection of its own, within the round-trip limit. */
  private async query<T>(run: (sql: Sql) => PromiseLike<T>): Promise<T> {
    try {
      return await this.lanes.run(run);
    } catch (err) {
      throw new StoreUnavailableError(err);
    }
  }
}
