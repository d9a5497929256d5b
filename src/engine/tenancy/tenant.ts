// One tenant (one API key): its store, clock, scheduler, event log, journal and randomness.
// Everything a handler touches comes through its tenant, so isolation is structural.
import { iso, type Clock } from '../../kernel/clock.js';
import { nextTurn } from '../../kernel/turns.js';
import type { HeapBudget } from '../../kernel/heap-budget.js';
import { TenantRandom } from '../../kernel/random.js';
import type { TenantStore } from '../../store/store.js';
import type { Behaviour } from '../registry/behaviour.js';
import { EventLog, type EventView, type SandboxEvent } from '../registry/events.js';
import { Journal, type JournalEntry } from '../requests/journal.js';
import { OBSERVATIONS_COLLECTION, Observations } from '../requests/observations.js';
import type { Retained } from '../registry/types.js';
import { checkRoom, resourceCount } from './room.js';
import { Scheduler, type Job } from '../scheduler.js';

export type Mode = 'sandbox' | 'live';

/** Applies a due job. A job that moves many records at once (a bulk file's piece) returns how many
 * it moved, so the slices that give the event loop its turn count moves, not jobs. */
export type JobHandler = (tenant: Tenant, job: Job) => void | number;

/** Due moves applied before the event loop gets its turn, by a request's catch-up as by the tick's. */
export const CATCH_UP_SLICE = 256;

/** What every tenant shares: the base clock, job handlers, scenario lookup, limits. */
export interface TenantEnv {
  clock: Clock;
  jobHandlers: Record<string, JobHandler>;
  behaviourFor(tenant: Tenant, name?: string): Behaviour;
  onEvent?(tenant: Tenant, event: SandboxEvent): void;
  journalSize: number;
  eventLogSize: number;
  /** Real time (ms) a resource may go unchanged before retention drops it; 0 keeps everything. */
  retentionMs: number;
  /** Most resources one tenant may hold; 0 for no cap. */
  maxResources: number;
  /** The process's memory budget, which every tenant's creates share; absent: none. */
  heap?: HeapBudget;
  /** The app's resources, which the cap counts and retention drops. */
  retained: Retained;
  /** Collections the app's modules keep settings in (webhook settings): a reset keeps them. */
  settings: readonly string[];
  /** The server's --seed, if any: what every key shares (the market's rates) derives from it. */
  seed?: number;
  /** Work handed to this process's memory that must be resumed elsewhere if it dies (webhook
   * attempts, on a shared store): the earliest deadline (base-clock ms), and resuming what is past it. */
  overdue?: { next(t: Tenant): number | undefined; resume(t: Tenant): void };
  /** Base-clock ms at which the market began (the store's first start, kept by the store, the same on
   * every replica and after a restart): its prices walk from there. */
  marketOrigin?: number;
  /** Tenant-clock ms at which the clock of a key with no clock stored begins (--clock); absent: real time. */
  clockStart?: number;
}

/** The engine's own settings collections (the scenario a tenant chose, the scenarios it saved by
 * name): a reset keeps them. */
const SCENARIO_COLLECTION = 'scenario';
export const SAVED_SCENARIOS = 'scenario_saved';

interface ClockState {
  offsetMs: number;
  /** Set while the clock is frozen: the tenant time it stands at. */
  frozenAt?: number;
  /** Recent advances, oldest first: [base-clock ms of the advance, offset before it]. */
  advances?: [number, number][];
}

/** Advances remembered for timeAt(); past this, two neighbours are merged (see mergeAdvances). */
const ADVANCES_KEPT = 16;

/**
 * Merge the two neighbouring advances whose merged entry spans the least real time. The merged entry
 * keeps the earlier offset, so timeAt() can only answer earlier than the truth, never later, and
 * only inside that span: a key that advances its clock every few seconds keeps a close answer, where
 * always merging the oldest two would stretch the oldest offset over the whole history. `floor` is
 * where the first entry's span begins.
 */
function mergeAdvances(kept: [number, number][], floor: number): void {
  let best = 0;
  let bestSpan = Infinity;
  for (let i = 0; i + 1 < kept.length; i++) {
    const span = kept[i + 1][0] - (i > 0 ? kept[i - 1][0] : floor);
    if (span < bestSpan) [best, bestSpan] = [i, span];
  }
  kept.splice(best, 2, [kept[best + 1][0], kept[best][1]]);
}
/** The last use is written down at most this often (it matters in days). */
const SEEN_EVERY_MS = 3600_000;

const JOBS = 'jobs';
const EVENTS = 'events';
/** The collections reload() takes in by id: a shared store's copy notes the ids it reads of these. */
export const RELOADED_BY_ID: ReadonlySet<string> = new Set([JOBS, EVENTS]);
/** The collection, and its one record's id, where a store that keeps files holds the journal while
 * the tenant is unloaded or the server stopped (written by Tenants.keepJournal, dropped at the next load). */
export const KEPT_JOURNAL = 'journal';

export class Tenant {
  readonly scheduler: Scheduler;
  readonly events: EventLog;
  readonly journal: Journal;
  private observed: Observations | undefined;
  private offsetMs: number;
  private frozenAt: number | undefined;
  private advances: [number, number][];
  /** The clock began at env.clockStart in this process and is not stored yet: the key's next write stores it. */
  private clockBegun = false;
  private pinnedAt: number | undefined;
  private running = false;
  /** Whether this object has seen a request of the key, or a binding (see noteRequest). */
  private boundKnown = false;
  /** Tenant-clock ms of the key's first request, until a write of the key records it (see noteRequest). */
  private firstRequestAt: number | undefined;
  /** Set while a sliced advance is applying its moves (see beginAdvance). */
  private applying: Promise<void> | undefined;
  private readonly advanceListeners = new Set<() => void>();
  /** Base-clock ms of the tenant's last request (set by Tenants). */
  lastUsedAt: number;

  constructor(
    readonly id: string,
    readonly mode: Mode,
    readonly store: TenantStore,
    readonly random: TenantRandom,
    private readonly env: TenantEnv,
  ) {
    this.scheduler = new Scheduler(store.collection<Job>(JOBS));
    this.events = new EventLog(store.collection<SandboxEvent>(EVENTS), env.eventLogSize, (e) =>
      env.onEvent?.(this, e),
    );
    this.journal = new Journal(env.journalSize, store.journal);
    // Taken back and dropped from the store, so the entries are not held twice (the journal writes
    // them again when the tenant is next unloaded or the server stops).
    const keptJournal = store.collection<JournalEntry[]>(KEPT_JOURNAL);
    const kept = keptJournal.get(KEPT_JOURNAL);
    if (kept) {
      this.journal.restore(kept);
      keptJournal.remove(KEPT_JOURNAL);
    }
    this.lastUsedAt = env.clock.now();
    this.offsetMs = 0;
    this.advances = [];
    this.readClock();
  }

  private readClock(): void {
    const meta = this.store.collection<ClockState>('meta');
    const clock = meta.get('clock');
    // A key that has written ('seen' is written with its first write) keeps the clock it has.
    if (!clock && this.env.clockStart !== undefined && !meta.has('seen')) {
      // First seen (or reset): the clock begins at --clock's instant, once; a reload keeps it running.
      if (!this.clockBegun) this.beginClock();
      return;
    }
    this.clockBegun = false;
    this.offsetMs = clock?.offsetMs ?? 0;
    this.frozenAt = clock?.frozenAt;
    // A clock advanced before advances were remembered: take it as advanced now, the safe side.
    this.advances = clock?.advances ?? (this.offsetMs > 0 ? [[this.lastUsedAt, 0]] : []);
  }

  /** Read again what this object keeps from its store: another replica changed the tenant. With
   * `changed` (each changed collection's ids, with the record held before), only what changed is
   * taken in; without it, everything is read again. */
  reload(changed?: ReadonlyMap<string, ReadonlyMap<string, unknown>>): void {
    this.readClock();
    if (!changed) {
      this.scheduler.reload();
      this.events.reload();
      return;
    }
    const jobs = changed.get(JOBS);
    if (jobs) this.scheduler.update(jobs);
    const events = changed.get(EVENTS);
    if (events) this.events.update(events.keys());
  }

  /** Base-clock ms at which the tenant's clock shows `tenantMs`. */
  baseTimeOf(tenantMs: number): number {
    return tenantMs - this.offsetMs;
  }

  /** The tenant's time in ms. While a due job runs, the time it fell due. */
  now(): number {
    return this.nowAt(this.env.clock.now());
  }

  /** Whether the clock stands still until advanced. */
  get frozen(): boolean {
    return this.frozenAt !== undefined;
  }

  /** Stop the clock where it is (it then moves only when advanced), or let it run on from where it stands. */
  freeze(frozen: boolean): void {
    if (frozen === this.frozen) return;
    if (frozen) this.frozenAt = this.now();
    else {
      this.offsetMs = this.frozenAt! - this.env.clock.now();
      this.frozenAt = undefined;
    }
    this.saveClock();
  }

  /** Start the clock at env.clockStart now; stored with the key's next write (markSeen). */
  private beginClock(): void {
    this.offsetMs = this.env.clockStart! - this.env.clock.now();
    this.frozenAt = undefined;
    this.advances = [];
    this.clockBegun = true;
  }

  private saveClock(): void {
    this.clockBegun = false;
    const state: ClockState = { offsetMs: this.offsetMs, advances: this.advances };
    if (this.frozenAt !== undefined) state.frozenAt = this.frozenAt;
    this.store.collection<ClockState>('meta').put('clock', state);
  }

  nowIso(): string {
    return iso(this.now());
  }

  /** What now() answered at an earlier base-clock instant (never later than it did). */
  timeAt(baseMs: number): number {
    for (const [at, offsetBefore] of this.advances) if (at > baseMs) return baseMs + offsetBefore;
    return baseMs + this.offsetMs;
  }

  /** The server's --seed, shared by every key; undefined when none was set. */
  get globalSeed(): number | undefined {
    return this.env.seed;
  }

  /**
   * Tenant-clock ms at which the scenario in force was bound to this key: its PUT or DELETE of
   * /_sandbox/scenario, its reset, or (the start default) its first request. Scenario timings that
   * run on the key's clock (the market's moves and pins) count from here. Before the key's first
   * request there is none: the market's origin stands in.
   */
  get scenarioBoundAt(): number {
    return this.store.collection<{ at: number }>('meta').get('bound')?.at ?? this.firstRequestAt ?? this.marketOrigin;
  }

  /** The scenario in force is bound now (see scenarioBoundAt). */
  markBound(): void {
    this.store.collection<{ at: number }>('meta').put('bound', { at: this.now() });
    this.firstRequestAt = undefined;
    this.boundKnown = true;
  }

  /** A request of the key arrived: the first one binds the start default (see scenarioBoundAt). It is
   * written down with the key's first write (markSeen), since a key that only reads writes nothing. */
  noteRequest(): void {
    if (this.boundKnown) return;
    this.boundKnown = true;
    if (this.store.collection<{ at: number }>('meta').get('bound') === undefined) this.firstRequestAt = this.now();
  }

  /** Base-clock ms at which the market began; the market's time is this tenant's clock. */
  get marketOrigin(): number {
    return this.env.marketOrigin ?? 0;
  }

  /** How far the tenant's clock is ahead of the base clock (behind it, when frozen long enough). */
  get offsetSeconds(): number {
    return (this.frozenAt === undefined ? this.offsetMs : this.frozenAt - this.env.clock.now()) / 1000;
  }

  behaviour(name?: string): Behaviour {
    return this.env.behaviourFor(this, name);
  }

  /** Record a state change: the resource's view is `view(source)`, or `source` itself; neither is
   * changed afterwards. */
  emit<S>(event: string, source: S, view?: EventView<S>): SandboxEvent {
    return this.events.emit(event, this.nowIso(), source, view);
  }

  /** Apply every job due by now (until `max` moves), in order. Returns how many moves were made. */
  catchUp(max = Infinity): number {
    if (this.running) return 0;
    const now = this.now();
    const next = this.scheduler.nextDueAt();
    if (next === undefined || next > now) return 0;
    this.running = true;
    let count = 0;
    try {
      for (let job = this.scheduler.takeDue(now); job; job = count < max ? this.scheduler.takeDue(now) : undefined) {
        count += this.runJob(job);
      }
    } finally {
      this.running = false;
    }
    return count;
  }

  /**
   * Apply every job due by now, CATCH_UP_SLICE moves at a time with a turn of the event loop between
   * slices, as a request does before it is handled: when thousands of moves fall due at one instant
   * (a frozen clock let go over many creations), applying them in one go held every key's requests
   * for a quarter of a second. Resolves at once (no turn given) when one slice was enough.
   */
  catchUpInSlices(): Promise<void> | undefined {
    if (this.catchUp(CATCH_UP_SLICE) < CATCH_UP_SLICE) return undefined;
    return (async () => {
      do await nextTurn();
      while (this.catchUp(CATCH_UP_SLICE) >= CATCH_UP_SLICE);
    })();
  }

  /** Resolves once the key's advance (if one is under way) has ended and every move due has been
   * applied, a slice at a time: an advance may begin between the slices. */
  async caughtUp(): Promise<void> {
    for (;;) {
      if (this.advancing) await this.afterAdvance();
      await this.catchUpInSlices();
      if (!this.advancing) return;
    }
  }

  /** Run a due job at the time it fell due; the moves it made (at least 1), 0 when no handler knows its kind. */
  private runJob(job: Job): number {
    const handler = this.env.jobHandlers[job.kind];
    if (!handler) return 0;
    this.pinnedAt = job.dueAt;
    try {
      return Math.max(1, handler(this, job) ?? 1);
    } finally {
      this.pinnedAt = undefined;
    }
  }

  /** Move the tenant's clock forward and apply everything that fell due, in order. */
  advance(seconds: number): number {
    const base = this.env.clock.now();
    return this.advanceTo(this.nowAt(base) + Math.round(seconds * 1000), undefined, base).applied;
  }

  /** The tenant's time when the base clock reads `base` (see now()). */
  nowAt(base: number): number {
    return this.pinnedAt ?? this.frozenAt ?? base + this.offsetMs;
  }

  /** The base clock's reading: pass it to advanceTo with a target computed from nowAt(it). */
  baseNow(): number {
    return this.env.clock.now();
  }

  /**
   * Move the clock forward to `target` (tenant ms), applying every job due by then in order, each
   * at its own time. With `pauseWhen`, stop after the jobs of an instant when it is true, with the
   * clock at that instant, so work the job started elsewhere (a webhook attempt) can finish before
   * the rest of the skipped time is applied (paused 'wait'). After `slice` moves, stop where the
   * clock stands (paused 'slice'), so the caller can give the event loop its turn. Either way, call
   * again with the same target and base to go on.
   */
  advanceTo(target: number, pauseWhen?: () => boolean, base = this.env.clock.now(), slice = Infinity): { applied: number; paused?: 'wait' | 'slice' } {
    let applied = 0;
    let moves = 0;
    let paused: 'wait' | 'slice' | undefined;
    if (!this.running) {
      this.running = true;
      try {
        for (let job = this.scheduler.takeDue(target); job; job = this.scheduler.takeDue(target)) {
          if (!this.env.jobHandlers[job.kind]) continue;
          this.moveClockTo(Math.max(job.dueAt, this.nowAt(base)), base);
          moves += this.runJob(job);
          applied++;
          // Jobs due at the same instant run together; the pause comes before the clock moves on.
          const next = pauseWhen && this.scheduler.nextDueAt();
          if (pauseWhen && (next === undefined || next > job.dueAt) && pauseWhen()) {
            paused = 'wait';
            break;
          }
          if (moves >= slice) {
            paused = 'slice';
            break;
          }
        }
      } finally {
        this.running = false;
      }
    }
    if (!paused) this.moveClockTo(Math.max(target, this.nowAt(base)), base);
    this.saveClock();
    if (!paused) for (const listener of this.advanceListeners) listener();
    return { applied, paused };
  }

  /**
   * Begin an advance applied in slices: until `end()`, the key's other requests and the background
   * tick wait for it (`advancing`), as they did when an advance ran in one go, so none sees the clock
   * half way or takes the advance's moves. `open()` lets them in while the advance waits on work
   * outside the tenant (a webhook attempt), as they always could; `close()` holds them again.
   */
  beginAdvance(): { open(): void; close(): void; end(): void } {
    let release: (() => void) | undefined;
    const close = () => {
      if (release) return;
      this.applying = new Promise<void>((resolve) => (release = resolve));
    };
    const open = () => {
      if (!release) return;
      this.applying = undefined;
      release();
      release = undefined;
    };
    close();
    return { open, close, end: open };
  }

  /** While a sliced advance applies its moves: resolves once it ends or waits (see beginAdvance). */
  get advancing(): Promise<void> | undefined {
    return this.applying;
  }

  /** Wait until no advance is applying moves (another may begin as the last ends). */
  async afterAdvance(): Promise<void> {
    while (this.applying) await this.applying;
  }

  /** Call `listener` after each clock advance (once its due jobs ran); returns the unsubscribe. */
  onAdvance(listener: () => void): () => void {
    this.advanceListeners.add(listener);
    return () => this.advanceListeners.delete(listener);
  }

  /** Set the clock to a later tenant instant (not saved: see saveClock). */
  private moveClockTo(at: number, base: number): void {
    // Measured from the base reading the advance began with, so an advance of n seconds moves the
    // offset by exactly n seconds however long its moves take to apply.
    const now = this.nowAt(base);
    if (at <= now) return;
    if (this.frozenAt !== undefined) {
      this.frozenAt = at;
      return;
    }
    // Advances older than the retention age no longer matter to timeAt().
    const kept = this.env.retentionMs > 0 ? this.advances.filter(([t]) => t > base - this.env.retentionMs) : [...this.advances];
    const last = kept[kept.length - 1];
    // Steps of one advance are one advance to timeAt(): the offset before its first step is kept.
    if (!last || last[0] !== base) kept.push([base, this.offsetMs]);
    if (kept.length > ADVANCES_KEPT) mergeAdvances(kept, base - this.env.retentionMs);
    this.advances = kept;
    this.offsetMs += at - now;
  }

  /** Base-clock ms of the last use written down (see markSeen), if any. */
  get seenAt(): number | undefined {
    return this.store.collection<{ at: number }>('meta').get('seen')?.at;
  }

  /** Write down the last use, so a restart knows it; at most hourly, and only by a request that
   * writes anyway (a tenant only read from writes nothing). The first request's instant goes with it. */
  markSeen(): void {
    // A clock begun at --clock's instant is stored with the first write, so a reload or another
    // replica goes on from it; a key that wrote nothing has nothing to go on from.
    if (this.clockBegun) this.saveClock();
    const seen = this.seenAt;
    if (seen === undefined || this.lastUsedAt - seen >= SEEN_EVERY_MS) {
      this.store.collection<{ at: number }>('meta').put('seen', { at: this.lastUsedAt });
    }
    if (this.firstRequestAt !== undefined) {
      this.store.collection<{ at: number }>('meta').put('bound', { at: this.firstRequestAt });
      this.firstRequestAt = undefined;
    }
  }

  /** Refuse a create that would take the tenant past its cap, before anything is written. */
  checkRoom(adding = 1): void {
    checkRoom(this, this.env, adding);
  }

  /** What the readiness report judges this key by (made on first use). */
  get observations(): Observations {
    return (this.observed ??= new Observations(this.store.collection(OBSERVATIONS_COLLECTION)));
  }

  /** Forget resources, jobs, events, journal and clock offset; keep settings (scenario, webhooks) and the readiness observations. */
  reset(): void {
    // Past the memory budget, what the key held may be what keeps every key's creates out.
    const held = this.env.heap?.over() ? resourceCount(this, this.env.retained) : 0;
    this.store.clear([SCENARIO_COLLECTION, SAVED_SCENARIOS, OBSERVATIONS_COLLECTION, ...this.env.settings]);
    this.observations.afterReset();
    this.scheduler.clear();
    this.events.reset();
    this.journal.clear();
    this.offsetMs = 0;
    this.frozenAt = undefined;
    this.advances = [];
    this.clockBegun = false;
    // As new: with --clock, its clock begins at that instant again.
    if (this.env.clockStart !== undefined) this.beginClock();
    // The counters restart, and so does the time the scenario's market counts from (on the clock as begun).
    this.markBound();
    if (held > 0) this.env.heap?.recheck();
  }
}
