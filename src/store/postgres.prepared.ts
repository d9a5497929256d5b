// The statements of a session, prepared on each connection (PREPARE) and run with EXECUTE inside the
// session's simple queries (postgres.tenant.ts): the database plans each once per connection
// instead of once per request, and a round trip stays one message and one reply. Arguments go as
// literals (postgres.literal.ts). A connection that has not prepared them (new, or reconnected)
// answers 26000 to the first EXECUTE; the session then prepares the ones it lacks and begins again.

const STATEMENTS = [
  `PREPARE sandbox_lock(text) AS
     SELECT version, next_seq, purged, due_at, incarnation, used_at FROM sandbox_tenants WHERE id = $1 FOR UPDATE`,
  `PREPARE sandbox_lock_skip(text) AS
     SELECT version, next_seq, purged, due_at, incarnation, used_at FROM sandbox_tenants WHERE id = $1 FOR UPDATE SKIP LOCKED`,
  `PREPARE sandbox_changes(text, bigint) AS
     SELECT coll, id, value, seq FROM sandbox_records WHERE tenant = $1 AND ver > $2 ORDER BY seq`,
  `PREPARE sandbox_create(text, text, bigint) AS
     INSERT INTO sandbox_tenants (id, mode, used_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
  // A session's writes as one statement: its journal entries, each record's last value (NULL:
  // removed, kept as a tombstone; a record put again after a removal takes its new insertion
  // order), and, when $12, the tenant row's version, next_seq, due_at, purged and used_at (NULL:
  // unchanged). Data-modifying parts of a WITH all run, whether or not the rest reads them.
  `PREPARE sandbox_write(text, bigint, text[], text[], bigint[], text[], text[], bigint, bigint, bigint, bigint, boolean) AS
     WITH journal AS (INSERT INTO sandbox_journal (tenant, entry) SELECT $1, unnest($7)),
       mark AS (UPDATE sandbox_tenants SET version = $2, next_seq = $8, due_at = $9, purged = GREATEST(purged, $10),
         used_at = COALESCE($11, used_at) WHERE id = $1 AND $12)
     INSERT INTO sandbox_records (tenant, coll, id, seq, ver, value)
     SELECT $1, u.c, u.i, u.s, $2, u.v FROM unnest($3, $4, $5, $6) AS u(c, i, s, v)
     ON CONFLICT (tenant, coll, id) DO UPDATE SET value = excluded.value, ver = excluded.ver,
       seq = CASE WHEN sandbox_records.value IS NULL THEN excluded.seq ELSE sandbox_records.seq END`,
];

/** The PREPAREs of the statements a connection lacks, given the names it has prepared. */
export function preparing(have: Iterable<string>): string {
  const known = new Set(have);
  return STATEMENTS.filter((s) => !known.has(/^PREPARE (\w+)/.exec(s)![1])).join(';\n');
}

/** SQLSTATE of an EXECUTE naming a statement this connection has not prepared. */
export const NOT_PREPARED = '26000';
