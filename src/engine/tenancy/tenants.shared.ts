// Tenants on a shared store (PostgreSQL): any replica may serve any tenant, so every request, timed
// move and background write runs in a session that holds the tenant's row lock across replicas and
// starts from its latest committed state (postgres.tenant.ts).
//
// - A request: begin (lock, read what changed), catch up due moves, the handler, commit, unlock.
//   Read-your-writes, idempotent replays, 409s, balances and unique references follow from the lock:
//   no two sessions of one tenant ever interleave, wherever they run.
// - Timed moves: each commit writes the base-clock time of the tenant's next move (due_at). Every
//   replica's tick asks for tenants whose due_at has passed and opens each with SKIP LOCKED: a
//   tenant held elsewhere is skipped (its holder catches up itself). A move is taken from the jobs
//   and applied in the same transaction, so it happens once; a replica that dies mid-move rolls it
//   back with its connection, and the next tick anywhere applies it. Work a replica holds in memory
//   after a commit (webhook attempts) is written down with a deadline (env.overdue), which counts
//   in due_at; past it, the tick resumes it.
// - Randomness (ids, names): reseeded at each session from the tenant's seed and the version it
//   starts from, so two replicas never draw the same ids for one tenant.
import { BoundedMap } from '../../kernel/bounded-map.js';
import { nextTurn } from '../../kernel/turns.js';
import { TenantRandom, tenantSeed } from '../../kernel/random.js';
import type { PostgresStore } from '../../store/postgres.store.js';
import type { PostgresTenantStore } from '../../store/postgres.tenant.js';
import { StoreUnavailableError } from '../../store/store.js';
import { RETENTION, SWEEP_WRITES, slices, sweepTenant } from './retention.js';
import { CATCH_UP_SLICE, RELOADED_BY_ID, Tenant, type Mode, type TenantEnv } from './tenant.js';

/** Background sessions (they skip locked tenants) are no use of the key. */
const noUse = () => null;

/** Tenants a tick looks at, at most. */
const DUE_BATCH = 100;

/** How long the ticks leave alone a tenant whose session met an unavailable database (real ms): a
 * tenant too large to read within the round-trip limit would otherwise stop every tick, and it sorts
 * first by its due time. */
const SKIP_FAILED_MS = 60_000;

export class SharedTenants {
  private readonly byId = new Map<string, Tenant>();
  private readonly idOf = new BoundedMap<string, string>(10_000);
  private readonly seeds = new Map<string, number>();
  /** Tenants a request has let go while it waits outside (see outside()): never forgotten meanwhile,
   * so the request begins its next session on the same object. */
  private readonly away = new Set<Tenant>();
  private readonly now = () => this.env.clock.now();
  /** When the tick last found the database unavailable, since it last answered (real ms). */
  private outageSince: number | undefined;
  /** Tenants whose session in a tick met an unavailable database, and until when (real ms) the ticks
   * skip them. */
  private readonly failedUntil = new BoundedMap<string, number>(1000);
  /** The same for retention's sweeps. */
  private readonly sweepFailedUntil = new BoundedMap<string, number>(1000);

  constructor(
    private readonly store: PostgresStore,
    private readonly env: TenantEnv,
    private readonly seed: number | undefined,
    private readonly keyToId: (key: string) => string,
    private readonly options: { maxLoaded?: number; idleMs?: number; busy?: (t: Tenant) => boolean } = {},
  ) {}

  /** Begin a request's session on the key's tenant. Moves due in thousands (a frozen clock let go,
   * a bulk file's rows) are first applied CATCH_UP_SLICE at a time in sessions of their own, each
   * committed, with a turn of the event loop between: in the request's session they were one commit
   * whose statement was built for every move in one go, while every key on the replica waited. */
  async acquire(key: string, mode: Mode): Promise<Tenant> {
    let id = this.idOf.get(key);
    if (id === undefined) this.idOf.set(key, (id = this.keyToId(key)));
    // Between its sessions the tenant is away, as a request waiting outside is: a replica keeping
    // few copies would otherwise forget it at each session's end, and read it whole at the next. An
    // away tenant is never forgotten, so each session opens the same object.
    let away: Tenant | undefined;
    try {
      for (;;) {
        const t = (await this.open(id, mode))!;
        let ran: number;
        try {
          ran = t.catchUp(CATCH_UP_SLICE);
        } catch (err) {
          this.release(t);
          throw err;
        }
        if (ran < CATCH_UP_SLICE) return t;
        this.away.add((away = t));
        await this.end(t);
        await nextTurn();
      }
    } finally {
      if (away) this.away.delete(away);
    }
  }

  /** Begin a session on a tenant; undefined when `skipLocked` and someone holds it. */
  async open(id: string, mode: Mode, skipLocked = false): Promise<Tenant | undefined> {
    const ts = this.store.copy(id);
    ts.now = skipLocked ? noUse : this.now;
    ts.noted = RELOADED_BY_ID;
    if ((await ts.begin(mode, { skipLocked })) === 'busy') return undefined;
    // What this copy read since the tenant object last took it in (this session's read, and any
    // of a background session's); a new object reads the copy whole.
    const read = ts.takeRead();
    let t = this.byId.get(id);
    if (!t) {
      t = new Tenant(id, mode, ts, new TenantRandom(0), this.env);
      const tenant = t;
      ts.nextDue = () => {
        const job = tenant.scheduler.nextDueAt();
        // A frozen clock brings no job due by the base clock: only one due at the time it stands at
        // is due (now); its advance, or letting it run, writes the time again.
        const at = job === undefined ? undefined : !tenant.frozen ? tenant.baseTimeOf(job) : job <= tenant.now() ? this.env.clock.now() : undefined;
        const times = [at, this.env.overdue?.next(tenant)].filter((x) => x !== undefined);
        return times.length ? Math.min(...times) : null;
      };
      this.byId.set(id, t);
    } else {
      // most recently used last, for the copy limit
      this.byId.delete(id);
      this.byId.set(id, t);
      // Only what the reads brought in; all of it after a whole read.
      if (read) t.reload(read === 'whole' ? undefined : read);
    }
    t.random.reseed((this.seedOf(id) + Math.imul(ts.version, 0x9e3779b9)) >>> 0);
    t.lastUsedAt = this.env.clock.now();
    return t;
  }

  /** End the session: commit what is left (nothing, after a flush) and unlock. */
  async end(t: Tenant): Promise<void> {
    await (t.store as PostgresTenantStore).end();
    this.forgetCopies();
  }

  /**
   * Run `work` between two sessions of a request: the session ends first (its writes committed,
   * the key's lock let go), and a new one begins once the work is done, from the latest state with
   * due moves applied. For work that waits on the world outside (a probe of the partner's
   * receiver, which may call the sandbox back with the same key). When it throws, the request no
   * longer holds the tenant (another request may hold it by then): it must neither write, persist
   * nor release it.
   */
  async outside<T>(t: Tenant, work: () => Promise<T>): Promise<T> {
    this.away.add(t);
    try {
      await this.end(t);
      const result = await work();
      const again = await this.open(t.id, t.mode);
      if (again !== t) {
        this.release(again!);
        throw new Error(`the copy of tenant ${t.id} was replaced while a request waited outside it`);
      }
      try {
        await t.caughtUp();
      } catch (err) {
        this.release(t);
        throw err;
      }
      return result;
    } finally {
      this.away.delete(t);
    }
  }

  /** Past --max-tenants copies, forget the least recently used idle ones, and all but the latest used
   * while the heap is past its budget: their data stay in the database, and the next session reads
   * them whole. */
  private forgetCopies(): void {
    const max = this.env.heap?.over() ? 1 : this.options.maxLoaded || undefined;
    if (max === undefined || this.byId.size <= max) return;
    let over = this.byId.size - max;
    for (const [id, t] of this.byId) {
      if (over <= 0) break;
      if ((t.store as PostgresTenantStore).held || !t.store.flushed || this.away.has(t) || this.options.busy?.(t)) continue;
      this.byId.delete(id);
      void this.store.evict(id);
      over--;
    }
  }

  release(t: Tenant): void {
    this.end(t).catch((err: unknown) => console.error(`[sandbox] could not end the session of tenant ${t.id}:`, err));
  }

  loaded(): IterableIterator<Tenant> {
    return this.byId.values();
  }

  /** Apply the due moves of every tenant whose next move has come, on whichever replica gets it. A
   * tenant whose session meets an unavailable database is skipped by the ticks for SKIP_FAILED_MS
   * and the tick goes on with the next; a second such tenant in one tick ends it (the database is
   * taken for away; the next tick tries again). An outage is logged when it begins and when it ends,
   * not at every tick. */
  async tick(): Promise<void> {
    const pass: Pass = {};
    try {
      for (const { id, mode } of await this.store.due(this.env.clock.now(), DUE_BATCH)) {
        // In sessions of CATCH_UP_SLICE moves: thousands due at one instant (a bulk file's rows, a
        // frozen clock let go) were one catch-up and one commit, the session's SQL built for all of
        // them in one go, while every key on this replica waited.
        await attempt(this.failedUntil, pass, id, () =>
          this.inSessions(id, mode as Mode, 'background moves', (t) => {
            const more = t.catchUp(CATCH_UP_SLICE) >= CATCH_UP_SLICE;
            this.env.overdue?.resume(t);
            return more;
          }),
        );
      }
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      if (this.outageSince === undefined) {
        this.outageSince = Date.now();
        console.error(`[sandbox] background moves paused, retried every tick: ${err.message}`);
      }
      return;
    }
    // One tenant failed and the others were served: that tenant's trouble, not an outage.
    if (pass.failed) console.error(`[sandbox] background moves of tenant ${pass.failed.id} skipped for ${SKIP_FAILED_MS / 1000} s: ${pass.failed.err.message}`);
    if (this.outageSince !== undefined) {
      console.error(`[sandbox] background moves resumed: the database answers again (after ${Math.round((Date.now() - this.outageSince) / 1000)} s)`);
      this.outageSince = undefined;
    }
  }

  /** Drop tenants with no write for --tenant-retention (any replica's pass finds them), then sweep
   * old resources of the tenants this replica holds copies of, each in a session. */
  async retain(stopped: () => boolean): Promise<void> {
    const idleMs = this.options.idleMs ?? 0;
    if (idleMs > 0) {
      const before = this.env.clock.now() - idleMs;
      for (const id of await this.store.idle(before, DUE_BATCH)) {
        if (stopped()) return;
        const t = this.byId.get(id);
        if (t && ((t.store as PostgresTenantStore).held || this.away.has(t) || this.options.busy?.(t))) continue;
        // A database that does not answer ends the pass (logged once); the next pass tries again.
        if (await this.store.dropIdle(id, before).catch((err: unknown) => (err instanceof StoreUnavailableError ? Promise.reject(err) : false))) {
          this.byId.delete(id);
        }
      }
    }
    if (this.env.retentionMs <= 0) return;
    // As the tick: a tenant whose sweep meets an unavailable database is left out for a while (a very
    // large one read whole past the round-trip limit, first in the copies' order, would otherwise end
    // every pass before the others), and a second such tenant ends the pass.
    const pass: Pass = {};
    for (const t of [...this.byId.values()]) {
      if (stopped()) return;
      const cutoff = this.env.clock.now() - this.env.retentionMs;
      // The sweep catches up due moves too: a tick that found the tenant held here skipped it. It
      // takes a turn of the event loop every slice, and ends its session every SWEEP_WRITES drops
      // (the next session sweeps on from the start, where what was dropped is gone): a tenant of
      // 100,000 old resources was swept in one stretch, and its drops committed in one statement
      // built in one go, while every key on this replica waited.
      await attempt(this.sweepFailedUntil, pass, t.id, () =>
        this.inSessions(t.id, t.mode, 'retention', async (held) => {
          const slice = slices(RETENTION.slice);
          let more = false;
          for (const n of sweepTenant(held, cutoff, this.env.retained)) {
            if (held.store.pendingWrites >= SWEEP_WRITES) {
              more = true;
              break;
            }
            await slice(n);
            if (stopped()) break;
          }
          this.env.overdue?.resume(held);
          return more && !stopped();
        }),
      );
    }
  }

  /** One tenant's background work in sessions, one after another with a turn of the event loop
   * between, while `work` says more is left. A failure of the work is logged and the caller goes on
   * with the next tenant; a database that does not answer (StoreUnavailableError) is rethrown, so
   * that a pass stops there instead of waiting the round-trip limit once per tenant. */
  private async inSessions(id: string, mode: Mode, what: string, work: (t: Tenant) => boolean | Promise<boolean>): Promise<void> {
    const failed = (err: unknown) => {
      if (err instanceof StoreUnavailableError) throw err;
      console.error(`[sandbox] ${what} of tenant ${id} failed:`, err);
    };
    for (let more = true; more; ) {
      more = false;
      let t: Tenant | undefined;
      try {
        t = await this.open(id, mode, true);
        if (!t) return;
        more = await work(t);
      } catch (err) {
        failed(err);
      } finally {
        if (t) await this.end(t).catch(failed);
      }
      if (more) await nextTurn();
    }
  }

  private seedOf(id: string): number {
    let s = this.seeds.get(id);
    if (s === undefined) this.seeds.set(id, (s = tenantSeed(this.seed, id)));
    return s;
  }
}

/** A pass of background work over tenants (a tick, a retention pass): the first tenant in it whose
 * session met an unavailable database. */
interface Pass {
  failed?: { id: string; err: StoreUnavailableError };
}

/** One tenant's background work in a pass. A tenant whose work meets an unavailable database is left
 * out of the passes that `until` holds for SKIP_FAILED_MS (real ms), and the pass goes on; a second
 * such tenant in one pass ends it (rethrown: the database is taken for away). */
async function attempt(until: BoundedMap<string, number>, pass: Pass, id: string, work: () => Promise<void>): Promise<void> {
  const at = until.get(id);
  if (at !== undefined) {
    if (Date.now() < at) return;
    until.delete(id);
  }
  try {
    await work();
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    until.set(id, Date.now() + SKIP_FAILED_MS);
    if (pass.failed) throw err;
    pass.failed = { id, err };
  }
}
