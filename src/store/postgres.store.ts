// The shared store (--store postgres://…): every tenant in one PostgreSQL database, so several
// replicas can answer any tenant. Each replica keeps a copy of the tenants it has served and brings
// it up to date under the tenant's row lock at the start of each session (postgres.tenant.ts).
// The schema is created and migrated on open (postgres.schema.ts).
import postgres, { type Sql } from 'postgres';
import { migrate } from './postgres.schema.js';
import { PostgresTenantStore } from './postgres.tenant.js';
import { StoreUnavailableError, type Store } from './store.js';

export interface PostgresOptions {
  /** Connections in the pool: a session holds one for its whole request. */
  max?: number;
  /** Seconds to wait for a connection before the request is answered 503. */
  connectTimeout?: number;
}

export interface DueTenant {
  id: string;
  mode: string;
}

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  private readonly tenants = new Map<string, PostgresTenantStore>();

  private constructor(readonly sql: Sql) {}

  /** Connect and bring the schema up to date (replicas starting together take turns). */
  static async open(url: string, opts: PostgresOptions = {}): Promise<PostgresStore> {
    const sql = postgres(url, {
      max: opts.max ?? 20,
      connect_timeout: opts.connectTimeout ?? 5,
      idle_timeout: 60,
      onnotice: () => undefined,
      connection: { application_name: 'payments-sandbox' },
    });
    try {
      await migrate(sql);
    } catch (err) {
      await sql.end({ timeout: 1 });
      throw err;
    }
    return new PostgresStore(sql);
  }

  /** This replica's copy of a tenant, without reading it: a session brings it up to date. */
  copy(tenantId: string): PostgresTenantStore {
    let t = this.tenants.get(tenantId);
    if (!t) this.tenants.set(tenantId, (t = new PostgresTenantStore(tenantId, this.sql)));
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

  async storedTenantIds(): Promise<string[]> {
    const rows = await this.query(() => this.sql<{ id: string }[]>`SELECT id FROM sandbox_tenants`);
    return rows.map((r) => r.id);
  }

  /** Tenants whose next timed move is due by `baseMs`, soonest first. */
  async due(baseMs: number, limit: number): Promise<DueTenant[]> {
    return this.query(
      () => this.sql<DueTenant[]>`SELECT id, mode FROM sandbox_tenants WHERE due_at <= ${baseMs} ORDER BY due_at LIMIT ${limit}`,
    );
  }

  /** Forget this replica's copy; the data stay in the database. */
  async evict(tenantId: string): Promise<void> {
    const t = this.tenants.get(tenantId);
    if (t && !t.held && t.flushed) this.tenants.delete(tenantId);
  }

  /** Delete the tenant's records and row, under its lock: a session elsewhere finishes first. */
  async drop(tenantId: string): Promise<void> {
    this.tenants.get(tenantId)?.forget();
    this.tenants.delete(tenantId);
    await this.query(() =>
      this.sql.begin(async (tx) => {
        await tx`SELECT 1 FROM sandbox_tenants WHERE id = ${tenantId} FOR UPDATE`;
        await tx`DELETE FROM sandbox_records WHERE tenant = ${tenantId}`;
        await tx`DELETE FROM sandbox_tenants WHERE id = ${tenantId}`;
      }),
    );
  }

  async close(): Promise<void> {
    try {
      for (const t of this.tenants.values()) if (!t.flushed) await t.flush();
    } finally {
      await this.sql.end({ timeout: 5 });
    }
  }

  private async query<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw new StoreUnavailableError(err);
    }
  }
}
