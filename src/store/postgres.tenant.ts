// One tenant of the PostgreSQL store: a copy of its records in memory, brought up to date at the
// start of each session and written back at its end.
//
// A session is one transaction that holds the tenant's row lock (SELECT … FOR UPDATE), so across
// every replica one session at a time reads and writes a tenant. Its first round trip takes the
// lock, reads the tenant's row and the records written since this copy's version (tombstones
// included), which are applied; all of them are read instead when this copy is too old or the
// tenant was dropped and begun again. Reads and writes in between are the memory store's; writes
// are logged and written in one query with the journal entries, the new version and COMMIT. Each
// round trip is one simple query of prepared statements (postgres.prepared.ts). In this process
// sessions of one tenant take turns, so a session never sees another's half-done work.
//
// A session holds one connection (a lane, postgres.lanes.ts) throughout, and each of its round trips
// has a time limit: past it the session fails as when the database cannot be reached, and the
// connection is dropped (its transaction, if the database ever reads on, is ended with it).
import postgres, { type ReservedSql, type Sql } from 'postgres';
import type { Held, Lanes } from './postgres.lanes.js';
import { int, lastResults, text } from './postgres.literal.js';
import { NOT_PREPARED, preparing } from './postgres.prepared.js';
import { mapFor, MemoryTenantStore, StoreUnavailableError, type JournalStore, type StoreOp } from './store.js';

/** A read writes the tenant's last use down at most this often (base-clock ms). */
const USED_EVERY_MS = 3600_000;

/** The journal is trimmed to its size once a copy has written this many entries. */
const TRIM_EVERY = 32;

/** Records read whose text is at least this long are looked up among the texts of the same read
 * before they are parsed (shorter ones cost less to parse than to look up). */
const SHARED_TEXT = 128;

/** Records parsed before the event loop gets its turn when a read brings many: about 2 ms of work
 * (the copy is changed after, in one turn). */
export const READ_SLICE = 1000;

/** Tombstones are kept for this many versions; a copy older than that reloads the tenant whole. */
export const TOMBSTONE_VERSIONS = 256;

interface Row {
  version: string;
  used_at: string | null;
  next_seq: string;
  purged: string;
  due_at: string | null;
  incarnation: string;
}

interface ChangeRow {
  coll: string;
  id: string;
  value: string | null;
  seq: string;
}

interface Change {
  v: string | null;
  seq: number;
  /** Removed and put again in this batch: it moves to the end of its collection. */
  moved: boolean;
}

export type Begun = 'fresh' | 'changed' | 'busy';

export class PostgresTenantStore extends MemoryTenantStore {
  private ops: StoreOp[] = [];
  /** The version this copy holds; -1 before the first read. */
  private at = -1;
  /** What the reads since the owner last took it (takeRead()) changed in the collections of
   * `noted`: each id with the record held before the first of them (undefined: none); 'whole' when
   * one of them read the tenant whole; undefined when nothing was read. */
  private read: Map<string, Map<string, unknown>> | 'whole' | undefined;
  /** The collections whose changed ids a read notes (set by the tenant's owner: what it takes in
   * by id); the others are read from the copy as they stand. */
  noted: ReadonlySet<string> = new Set();
  private nextSeq = 0;
  private incarnation = '';
  private dueAt: number | null = null;
  private usedAt: number | null = null;
  private conn: Held | undefined;
  private turn: Promise<void> = Promise.resolve();
  private unlock: (() => void) | undefined;
  /** The base-clock ms of the tenant's next timed move, written with each session (set by Tenants). */
  nextDue: () => number | null = () => null;
  /** The base-clock ms written as the tenant's last use; null for work that is no use (ticks). */
  now: () => number | null = () => null;
  /** Journal entries of this session, written with its commit, and how many the tenant keeps. */
  private entries: string[] = [];
  private keep = 0;
  private journalCleared = false;
  private journalWrites = 0;

  /** The tenant's request journal, in the database: every replica's requests, written with each session. */
  readonly journal: JournalStore = {
    add: (entry, keep) => {
      this.entries.push(entry);
      this.keep = keep;
    },
    list: async (limit) => {
      const read = (sql: Sql) => sql<{ id: string; entry: string }[]>`SELECT id::text, entry FROM sandbox_journal WHERE tenant = ${this.id} ORDER BY id DESC LIMIT ${limit}`;
      try {
        return await (this.conn ? this.trip(read) : this.lanes.run(read));
      } catch (err) {
        throw unavailable(err);
      }
    },
    clear: () => {
      this.entries = [];
      this.journalCleared = true;
    },
  };

  constructor(
    readonly id: string,
    private readonly lanes: Lanes,
  ) {
    super((op) => this.ops.push(op));
  }

  override get flushed(): boolean {
    return this.ops.length === 0;
  }

  /** What was read into this copy since the last call (see `read`), for the owner to take in: a
   * read by a session the owner did not open (background writes) counts too. */
  takeRead(): Map<string, Map<string, unknown>> | 'whole' | undefined {
    const read = this.read;
    this.read = undefined;
    return read;
  }

  /** The committed version this copy holds. */
  get version(): number {
    return this.at;
  }

  /** Writes made since the session began (or the last commit), not yet sent. */
  override get pendingWrites(): number {
    return this.ops.length;
  }

  /** Whether a session of this process holds the tenant. */
  get held(): boolean {
    return this.unlock !== undefined;
  }

  /**
   * Take the tenant's turn in this process and its row lock in the database, and bring this copy up
   * to date. 'changed' when records were read (derived state must be rebuilt). With `skipLocked`,
   * answers 'busy' at once when a session here or elsewhere holds the tenant, or it does not exist.
   */
  async begin(mode: string, opts: { skipLocked?: boolean } = {}): Promise<Begun> {
    if (opts.skipLocked && this.held) return 'busy';
    await this.take();
    try {
      this.conn = await this.lanes.reserve();
      // A copy that has read the tenant knows its row exists: the row is only created when missing
      // (the tenant was dropped elsewhere meanwhile), in a second round trip.
      let opened = await this.open(mode, { begin: true, create: !opts.skipLocked && this.at < 0, skipLocked: opts.skipLocked });
      if (!opened.row && !opts.skipLocked) opened = await this.open(mode, { begin: false, create: true });
      if (!opened.row) {
        await this.close('ROLLBACK');
        this.release();
        return 'busy';
      }
      return (await this.sync(opened.row, opened.changes)) ? 'changed' : 'fresh';
    } catch (err) {
      await this.close('ROLLBACK');
      const failed = unavailable(err);
      // A lock wait past its limit read nothing: the copy stays as it was.
      if (!failed.lockWait) this.at = -1;
      this.release();
      throw failed;
    }
  }

  /** One round trip: BEGIN, create the tenant's row if asked, lock it (SELECT … FOR UPDATE), and
   * read what was written since this copy's version. The lock is granted before the changes are
   * read, and each statement reads what was committed when it starts, so they include every
   * session that held the lock before. */
  private async open(
    mode: string,
    how: { begin: boolean; create: boolean; skipLocked?: boolean },
  ): Promise<{ row: Row | undefined; changes: ChangeRow[] | undefined }> {
    const id = text(this.id);
    const known = this.at >= 0;
    const statements = [
      how.begin ? 'BEGIN' : '',
      how.create ? `EXECUTE sandbox_create(${id}, ${text(mode)}, ${int(this.now())})` : '',
      `EXECUTE ${how.skipLocked ? 'sandbox_lock_skip' : 'sandbox_lock'}(${id})`,
      known ? `EXECUTE sandbox_changes(${id}, ${int(this.at)})` : '',
    ].filter(Boolean);
    let reply: unknown;
    try {
      reply = await this.trip((sql) => sql.unsafe(statements.join(';\n')));
    } catch (err) {
      // A connection that has not prepared the session's statements: prepare them and begin again.
      if (!how.begin || (err as { code?: string }).code !== NOT_PREPARED) throw err;
      // The ones it lacks: PREPARE is not undone by a rollback, so a batch cut short leaves some.
      const [, have] = lastResults<{ name: string }>(await this.trip((sql) => sql.unsafe('ROLLBACK;\nSELECT name FROM pg_prepared_statements')), 2);
      const missing = preparing(have.map((r) => r.name));
      if (missing) await this.trip((sql) => sql.unsafe(missing));
      reply = await this.trip((sql) => sql.unsafe(statements.join(';\n')));
    }
    const results = lastResults<Row | ChangeRow>(reply, known ? 2 : 1);
    return { row: results[0][0] as Row | undefined, changes: known ? (results[1] as ChangeRow[]) : undefined };
  }

  /** Write this session's changes and commit; the turn stays taken until end(). */
  async commit(): Promise<void> {
    const c = this.conn;
    if (!c) return;
    const ops = this.ops;
    this.ops = [];
    const entries = this.entries;
    this.entries = [];
    const journalCleared = this.journalCleared;
    this.journalCleared = false;
    const due = this.nextDue();
    const now = this.now();
    // The last use is written with every write, and by a read at most hourly.
    const used = now !== null && (ops.length > 0 || this.usedAt === null || now - this.usedAt >= USED_EVERY_MS) ? now : null;
    try {
      if (!ops.length && due === this.dueAt && used === null && !entries.length && !journalCleared) {
        await this.close('COMMIT');
        return;
      }
      const version = ops.length ? this.at + 1 : this.at;
      const { clears, changes, nextSeq } = collapse(ops, this.nextSeq);
      const id = text(this.id);
      const v = int(version);
      const queries: string[] = [];
      if (journalCleared) queries.push(`DELETE FROM sandbox_journal WHERE tenant = ${id}`);
      for (const clear of clears) {
        queries.push(
          clear.coll !== undefined
            ? `UPDATE sandbox_records SET value = NULL, ver = ${v} WHERE tenant = ${id} AND coll = ${text(clear.coll)} AND value IS NOT NULL`
            : `UPDATE sandbox_records SET value = NULL, ver = ${v} WHERE tenant = ${id} AND value IS NOT NULL${
                clear.keep.length ? ` AND coll NOT IN (${clear.keep.map(text).join(', ')})` : ''
              }`,
        );
      }
      const colls: string[] = [];
      const ids: string[] = [];
      const seqs: string[] = [];
      const values: string[] = [];
      const moved: string[] = [];
      for (const [coll, byId] of changes) {
        const c = text(coll);
        for (const [rid, ch] of byId) {
          const r = text(rid);
          colls.push(c);
          ids.push(r);
          seqs.push(int(ch.seq));
          values.push(ch.v === null ? 'NULL' : text(ch.v));
          if (ch.moved) moved.push(`(${c}, ${r})`);
        }
      }
      if (moved.length) {
        queries.push(`UPDATE sandbox_records SET value = NULL WHERE tenant = ${id} AND (coll, id) IN (${moved.join(', ')})`);
      }
      const purge = ops.length > 0 && version % TOMBSTONE_VERSIONS === 0 ? version - TOMBSTONE_VERSIONS : undefined;
      // A session that only adds journal entries leaves the tenant's row as it is.
      const mark = ops.length > 0 || due !== this.dueAt || used !== null;
      const array = (items: string[], type: string) => (items.length ? `ARRAY[${items.join(', ')}]` : `'{}'`) + `::${type}[]`;
      queries.push(
        `EXECUTE sandbox_write(${id}, ${v}, ${array(colls, 'text')}, ${array(ids, 'text')}, ${array(seqs, 'bigint')}, ${array(values, 'text')}, ` +
          `${array(entries.map(text), 'text')}, ${int(nextSeq)}, ${int(due)}, ${int(purge ?? 0)}, ${int(used)}, ${mark})`,
      );
      if (entries.length) {
        // The tenant keeps its newest `keep` entries, as the embedded journal does; trimmed every
        // TRIM_EVERY entries this copy writes (the journal never lists more than `keep`).
        this.journalWrites += entries.length;
        if (this.journalWrites >= TRIM_EVERY) {
          this.journalWrites = 0;
          queries.push(`DELETE FROM sandbox_journal WHERE tenant = ${id} AND id <= (
            SELECT id FROM sandbox_journal WHERE tenant = ${id} ORDER BY id DESC OFFSET ${int(this.keep)} LIMIT 1)`);
        }
      }
      if (purge !== undefined) {
        queries.push(`DELETE FROM sandbox_records WHERE tenant = ${id} AND value IS NULL AND ver <= ${int(purge)}`);
      }
      queries.push('COMMIT');
      const batch = queries.join(';\n');
      this.conn = undefined;
      // One simple query: one message out, one reply back; a statement that fails skips the rest,
      // COMMIT included, and the transaction is rolled back below.
      await this.lanes.roundTrip(c, (sql) => sql.unsafe(batch));
      this.lanes.finish(c, true);
      this.at = version;
      this.nextSeq = nextSeq;
      this.dueAt = due;
    } catch (err) {
      // Nothing of the batch may be kept: the copy is read whole again by the next session.
      this.conn = c;
      await this.close('ROLLBACK');
      this.at = -1;
      throw unavailable(err);
    }
  }

  /** Commit (or end) the session and give the turn to the next one. */
  async end(): Promise<void> {
    try {
      await this.commit();
    } finally {
      this.release();
    }
    // Writes background work made after this session's commit get a session of their own.
    if (this.ops.length && !this.held) this.flush().catch((err: unknown) => console.error(`[sandbox] could not write background work of tenant ${this.id}:`, err));
  }

  /** Writes made outside a session (by background work) get one of their own. While a session of
   * this process holds the tenant, they go with it instead, written by its commit, or by a session
   * of their own once it ends (end()): that session may itself be waiting for the background work
   * (an advance waits for webhook attempts), so waiting for it would deadlock, and committing it
   * from here would end a session its holder is still using (one still beginning, or a request
   * that writes after the work it awaited). The holder commits with commit(). */
  override async flush(): Promise<void> {
    if (!this.ops.length || this.held) return;
    await this.begin('sandbox');
    await this.end();
  }

  /** Resolves once the sessions begun so far have ended. */
  settled(): Promise<void> {
    return this.turn;
  }

  /** Forget this copy: the next session reads the tenant whole. */
  forget(): void {
    this.at = -1;
  }

  private take(): Promise<void> {
    const before = this.turn;
    let unlock!: () => void;
    this.turn = before.then(() => new Promise<void>((resolve) => (unlock = resolve)));
    return before.then(() => {
      this.unlock = unlock;
    });
  }

  private release(): void {
    const unlock = this.unlock;
    this.unlock = undefined;
    unlock?.();
  }

  private async close(command: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    const c = this.conn;
    if (!c) return;
    this.conn = undefined;
    // A connection that closed, or got no answer in time, ended the transaction with it: nothing to send.
    if (c.lane.closes !== c.closes || c.lane.stuck) return this.lanes.finish(c, true);
    try {
      await this.lanes.roundTrip(c, (sql) => sql.unsafe(command));
      this.lanes.finish(c, true);
    } catch (err) {
      // An error the database answered leaves the connection usable; nothing was committed on one that failed.
      this.lanes.finish(c, err instanceof postgres.PostgresError);
    }
  }

  /** One round trip of the session, within the round-trip limit. */
  private trip<T>(run: (sql: ReservedSql) => PromiseLike<T>): Promise<T> {
    return this.lanes.roundTrip(this.conn!, run);
  }

  /** Apply what other sessions wrote since this copy's version; true when anything was read. */
  private async sync(row: Row, changes: ChangeRow[] | undefined): Promise<boolean> {
    const version = Number(row.version);
    this.dueAt = row.due_at === null ? null : Number(row.due_at);
    this.usedAt = row.used_at === null ? null : Number(row.used_at);
    if (version === this.at && row.incarnation === this.incarnation) return false;
    const whole = this.at < 0 || row.incarnation !== this.incarnation || this.at < Number(row.purged) || version < this.at;
    // The changes since this copy's version came with the lock (open(), for every copy with a
    // version); a copy too old for them, or of a tenant dropped and begun again, reads it whole.
    const rows: ChangeRow[] = whole
      ? await this.trip((sql) => sql<ChangeRow[]>`SELECT coll, id, value, seq FROM sandbox_records WHERE tenant = ${this.id} AND value IS NOT NULL ORDER BY seq`)
      : changes!;
    // The records are parsed first, in slices between turns of the event loop (a tenant read whole can
    // be a hundred thousand); the copy is then changed in one turn, so work that runs beside this
    // session (a webhook attempt's record) never sees it half read.
    // A record written twice in one session under two names (a resource and its idempotency
    // record as created) is one object in the writer's copy: parsed once, it is one here too.
    const parsed = rows.length > 1 ? new Map<string, unknown>() : undefined;
    const values: unknown[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      if (i > 0 && i % READ_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const text = rows[i]!.value;
      if (text === null) continue;
      if (parsed && text.length >= SHARED_TEXT) {
        let value = parsed.get(text);
        if (value === undefined) parsed.set(text, (value = JSON.parse(text)));
        values[i] = value;
      } else values[i] = JSON.parse(text);
    }
    if (whole) for (const map of this.data.values()) map.clear();
    // Added to what earlier reads brought that the owner has not taken yet.
    const changed = whole ? undefined : this.read === 'whole' ? undefined : (this.read ?? new Map<string, Map<string, unknown>>());
    let map: Map<string, unknown> | undefined;
    let mapColl: string | undefined;
    let ids: Map<string, unknown> | undefined;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (r.coll !== mapColl) {
        mapColl = r.coll;
        map = this.data.get(r.coll);
        if (!map) this.data.set(r.coll, (map = mapFor(r.coll)));
        ids = undefined;
        if (changed && this.noted.has(r.coll)) {
          ids = changed.get(r.coll);
          if (!ids) changed.set(r.coll, (ids = new Map()));
        }
      }
      if (ids && !ids.has(r.id)) ids.set(r.id, map!.get(r.id));
      if (r.value === null) map!.delete(r.id);
      else {
        // Put first after this copy's version: it goes to the end, where the writer put it.
        if (!whole && Number(r.seq) >= this.nextSeq) map!.delete(r.id);
        map!.set(r.id, values[i]);
      }
    }
    this.at = version;
    this.read = changed ?? 'whole';
    this.nextSeq = Number(row.next_seq);
    this.incarnation = row.incarnation;
    // Writes made outside a session, not yet written, stay on top.
    for (const op of this.ops) this.apply(op);
    return true;
  }
}

/** A batch of writes as its end state: collections cleared, then each record's last value. */
function collapse(ops: StoreOp[], firstSeq: number) {
  const clears: { coll?: string; keep: string[] }[] = [];
  const changes = new Map<string, Map<string, Change>>();
  // A record put under two names (a resource and its record as created) is one object: written once.
  // Values are read here, at commit, so the text is the same whichever put it is taken from.
  const texts = new Map<unknown, string>();
  const json = (v: unknown): string => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    let t = texts.get(v);
    if (t === undefined) texts.set(v, (t = JSON.stringify(v)));
    return t;
  };
  let seq = firstSeq;
  for (const op of ops) {
    if (op.op === 'clearAll') {
      const keep = op.keep ?? [];
      for (const coll of changes.keys()) if (!keep.includes(coll)) changes.delete(coll);
      clears.push({ keep });
      continue;
    }
    if (op.op === 'clear') {
      changes.delete(op.c);
      clears.push({ coll: op.c, keep: [] });
      continue;
    }
    let byId = changes.get(op.c);
    if (!byId) changes.set(op.c, (byId = new Map()));
    const ch = byId.get(op.id);
    if (op.op === 'del') {
      if (ch) ch.v = null;
      else byId.set(op.id, { v: null, seq: 0, moved: false });
    } else if (!ch) byId.set(op.id, { v: json(op.v), seq: seq++, moved: false });
    else if (ch.v === null) Object.assign(ch, { v: json(op.v), seq: seq++, moved: true });
    else ch.v = json(op.v);
  }
  return { clears, changes, nextSeq: seq };
}

function unavailable(err: unknown): StoreUnavailableError {
  return err instanceof StoreUnavailableError ? err : new StoreUnavailableError(err);
}
