// The PostgreSQL schema, as numbered migrations the sandbox applies itself on start. Replicas that
// start together take turns under one advisory lock, so each migration runs once; a database that a
// newer sandbox migrated is refused rather than written with an older layout.
import type { Sql } from 'postgres';

/** Key of the advisory lock migrations run under (any constant the sandbox alone uses). */
export const MIGRATION_LOCK = 0x5a4e_4442;

/**
 * tenants: one row per tenant; the row lock is the tenant's lock across replicas. `version` counts
 *   committed writes, `next_seq` orders records by first insertion, `purged` is the newest version
 *   whose removals are no longer kept as tombstones, `due_at` the base-clock ms of its next timed move.
 *   `incarnation` changes when a tenant is dropped and begun again, so a replica's copy of the
 *   dropped one is never taken for the new one.
 * records: every record of every collection, as JSON text (written and read back byte for byte).
 *   A removed record stays as a tombstone (value NULL) so other replicas learn of the removal.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE sandbox_tenants (
     id text PRIMARY KEY,
     mode text NOT NULL,
     incarnation text NOT NULL DEFAULT gen_random_uuid()::text,
     version bigint NOT NULL DEFAULT 0,
     next_seq bigint NOT NULL DEFAULT 0,
     purged bigint NOT NULL DEFAULT 0,
     due_at bigint
   );
   CREATE INDEX sandbox_tenants_due ON sandbox_tenants (due_at) WHERE due_at IS NOT NULL;
   CREATE TABLE sandbox_records (
     tenant text NOT NULL,
     coll text NOT NULL,
     id text NOT NULL,
     seq bigint NOT NULL,
     ver bigint NOT NULL,
     value text,
     PRIMARY KEY (tenant, coll, id)
   );
   CREATE INDEX sandbox_records_changes ON sandbox_records (tenant, ver);`,
  // The base-clock ms of the tenant's last write, so idle tenants are found without reading them.
  `ALTER TABLE sandbox_tenants ADD COLUMN used_at bigint;
   CREATE INDEX sandbox_tenants_used ON sandbox_tenants (used_at);`,
  // What the whole sandbox keeps, shared by every replica: when it began (the market's origin).
  `CREATE TABLE sandbox_meta (key text PRIMARY KEY, value text NOT NULL);`,
  // The request journal of each tenant, written by whichever replica served the request.
  `CREATE TABLE sandbox_journal (id bigserial PRIMARY KEY, tenant text NOT NULL, entry text NOT NULL);
   CREATE INDEX sandbox_journal_tenant ON sandbox_journal (tenant, id);`,
];

export class SchemaTooNewError extends Error {}

/** Bring the schema to the latest version; returns the version it is at. */
export async function migrate(sql: Sql): Promise<number> {
  return sql.begin(async (tx) => {
    // A replica waits for another's migration, however long it takes: not bounded by the lock limit
    // each connection is given for sessions.
    await tx`SET LOCAL lock_timeout = 0`;
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS sandbox_schema (version integer NOT NULL)`;
    const [row] = await tx<{ version: number }[]>`SELECT version FROM sandbox_schema`;
    const at = row?.version ?? 0;
    if (at > MIGRATIONS.length) {
      throw new SchemaTooNewError(
        `The database's sandbox schema is at version ${at}, newer than this sandbox knows (${MIGRATIONS.length}): run the newer sandbox, or point this one at another database.`,
      );
    }
    for (const step of MIGRATIONS.slice(at)) await tx.unsafe(step);
    if (!row) await tx`INSERT INTO sandbox_schema (version) VALUES (${MIGRATIONS.length})`;
    else if (at < MIGRATIONS.length) await tx`UPDATE sandbox_schema SET version = ${MIGRATIONS.length}`;
    return MIGRATIONS.length;
  });
}
