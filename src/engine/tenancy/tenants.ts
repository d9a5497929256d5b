// API key → tenant. Every key is its own tenant; its id on disk is a hash, never the key itself.
//
// With a store that can reload (--data), the least recently used idle tenants are dropped from
// memory once more than the limit (--max-tenants) are loaded, and all of them when the heap is past
// its budget and a tenant not in memory is asked for: made durable, their files closed, their
// runtime objects forgotten. The next request with that key loads them again from
// disk. Idle means no request holds the tenant, the webhook sender has nothing queued for it and
// it holds no event stream open.
// A memory-only store is never evicted from: its tenants' data exist nowhere else.
//
// Retention (retention.ts) runs here in the background: tenants idle past `idleMs` are dropped
// entirely, and every loaded tenant is swept of old resources, in slices that yield to requests.
import { createHash } from 'node:crypto';
import { TenantRandom, tenantSeed } from '../../kernel/random.js';
import { PostgresStore } from '../../store/postgres.store.js';
import type { PostgresTenantStore } from '../../store/postgres.tenant.js';
import { MemoryTenantStore, type Store } from '../../store/store.js';
import { RETENTION, SWEEP_WRITES, slices, sweepTenant } from './retention.js';
import { heapFull } from './room.js';
import { CATCH_UP_SLICE, KEPT_JOURNAL, Tenant, type Mode, type TenantEnv } from './tenant.js';
import { nextTurn } from '../../kernel/turns.js';
import { SharedTenants } from './tenants.shared.js';

export function tenantIdOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

export interface TenantsOptions {
  /** Most tenants kept in memory; undefined or 0 keeps every tenant. */
  maxLoaded?: number;
  /** Work outside requests that holds a tenant in memory (queued webhook attempts). */
  busy?: (t: Tenant) => boolean;
  /** Base-clock ms without a request after which a tenant is dropped entirely; 0 keeps every tenant. */
  idleMs?: number;
}

export class Tenants {
  /** Loaded tenants, least recently used first. */
  private readonly byKey = new Map<string, Tenant>();
  private readonly opening = new Map<string, Promise<Tenant>>();
  private readonly holds = new Map<Tenant, number>();
  private readonly evicting = new Map<string, Promise<void>>();
  private evictions = 0;
  private dropped = 0;
  private retaining: Promise<void> | undefined;
  private retainedAt = Number.NEGATIVE_INFINITY;
  private stopped = false;
  /** The last use of a stored tenant no key has used since the start: the one written down, or when it
   * was first looked at when none was (see retainPass). */
  private readonly storedLastUse = new Map<string, number>();
  /** Whether idle tenants may be unloaded (a store that keeps files); without it, holds and recency need no bookkeeping. */
  private readonly evicts: boolean;
  /** True when a request needs neither a hold nor a flush: memory store, no tenant ever unloaded. */
  readonly passive: boolean;
  /** On a store several replicas share, every use of a tenant is a session (tenants.shared.ts); no
   * tenant is ever in byKey then, so the embedded stores' paths below never meet it. */
  private readonly shared: SharedTenants | undefined;

  constructor(
    private readonly store: Store,
    private readonly env: TenantEnv,
    private readonly seed: number | undefined,
    private readonly options: TenantsOptions = {},
  ) {
    this.shared = store instanceof PostgresStore ? new SharedTenants(store, env, seed, tenantIdOf, options) : undefined;
    // A store that keeps files may unload idle tenants: past --max-tenants, and when the heap is past its budget.
    this.evicts = !this.shared && !!store.evict;
    this.passive = !this.evicts && store.kind === 'memory';
  }

  get(key: string, mode: Mode): Promise<Tenant> {
    const t = this.byKey.get(key);
    if (t) {
      this.byKey.delete(key);
      this.byKey.set(key, t);
      t.lastUsedAt = this.env.clock.now();
      return Promise.resolve(t);
    }
    let p = this.opening.get(key);
    if (!p) {
      // A key first seen would add a tenant to a heap past its budget. A store that keeps files lets
      // idle tenants go instead (they load again when used); the memory store has nowhere to put them,
      // and neither has a store whose loaded tenants are all in use.
      if (this.env.heap?.over() && !this.relieve()) return Promise.reject(heapFull(this.env.heap, 'an API key it has not seen before cannot begin'));
      const id = tenantIdOf(key);
      p = (this.evicting.get(id) ?? Promise.resolve())
        .then(() => this.store.tenant(id))
        .then((ts) => {
          const tenant = new Tenant(id, mode, ts, new TenantRandom(tenantSeed(this.seed, id)), this.env);
          this.byKey.set(key, tenant);
          this.storedLastUse.delete(id);
          return tenant;
        })
        .finally(() => this.opening.delete(key));
      this.opening.set(key, p);
    }
    return p;
  }

  /** Hold a tenant that is already loaded, without waiting; undefined when it must be loaded. */
  holdLoaded(key: string): Tenant | undefined {
    const t = this.byKey.get(key);
    if (t) t.lastUsedAt = this.env.clock.now();
    if (!t || !this.evicts) return t;
    this.byKey.delete(key);
    this.byKey.set(key, t);
    this.holds.set(t, (this.holds.get(t) ?? 0) + 1);
    this.evictIdle();
    return t;
  }

  /** Get and hold a tenant for one request: a held tenant is never evicted. */
  async acquire(key: string, mode: Mode): Promise<Tenant> {
    if (this.shared) return this.shared.acquire(key, mode);
    const loaded = this.holdLoaded(key);
    if (loaded) return loaded;
    let t = await this.get(key, mode);
    // Another request may have unloaded it between its load and now: load it again.
    while (this.byKey.get(key) !== t) t = await this.get(key, mode);
    if (!this.evicts) return t;
    this.holds.set(t, (this.holds.get(t) ?? 0) + 1);
    this.evictIdle();
    return t;
  }

  /** Make what a request wrote durable before its answer leaves: on a shared store, commit the
   * request's session (the tenant stays held until release()). */
  persist(t: Tenant): Promise<void> {
    return this.shared ? (t.store as PostgresTenantStore).commit() : t.store.flush();
  }

  /** Run `work`, which waits on the world outside the sandbox, with the tenant let go: on a shared
   * store the request's session ends first and another begins after (tenants.shared.ts); the
   * other stores hold no lock across a request, so the work just runs. */
  outside<T>(t: Tenant, work: () => Promise<T>): Promise<T> {
    return this.shared ? this.shared.outside(t, work) : work();
  }

  /** Whether outside() lets the tenant go while its work runs: then a failure of it leaves the tenant
   * let go (a session ended and not begun again), so the request neither persists nor releases it. */
  get letsGoOutside(): boolean {
    return this.shared !== undefined;
  }

  release(t: Tenant): void {
    if (!this.evicts) {
      if (this.shared) this.shared.release(t);
      return;
    }
    const n = (this.holds.get(t) ?? 1) - 1;
    if (n > 0) this.holds.set(t, n);
    else {
      this.holds.delete(t);
      this.evictIdle();
    }
  }

  loaded(): IterableIterator<Tenant> {
    return this.shared ? this.shared.loaded() : this.byKey.values();
  }

  stats() {
    return { loaded: this.byKey.size, evictions: this.evictions, dropped: this.dropped };
  }

  /** Background tick: apply due jobs of every loaded tenant, then persist. One tenant's failure is
   * logged and does not stop the others; a tenant unloaded meanwhile is skipped. */
  async tick(): Promise<void> {
    const every = Math.min(RETENTION.everyMs, (this.env.retentionMs || Infinity) / 4);
    if (this.env.clock.now() - this.retainedAt >= every) void this.retain();
    if (this.shared) return this.shared.tick();
    for (const [key, t] of [...this.byKey]) {
      // A key advancing its clock applies its own moves (the advance's answer counts them).
      if (this.byKey.get(key) !== t || t.advancing) continue;
      this.hold(t);
      try {
        // In slices, giving the event loop its turn between them: thousands of moves can fall due in
        // one second (a load test's creations), and applying them at once stalled every request.
        for (;;) {
          const ran = t.catchUp(CATCH_UP_SLICE);
          if (ran > 0) await t.store.flush();
          if (ran < CATCH_UP_SLICE || this.byKey.get(key) !== t || t.advancing) break;
          await nextTurn();
        }
      } catch (err) {
        console.error(`[sandbox] background moves of tenant ${t.id} failed:`, err);
      } finally {
        this.unhold(t);
      }
    }
  }

  /** Run a retention pass (or join the one running); the background tick starts one every minute. */
  retain(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.retainedAt = this.env.clock.now();
    this.retaining ??= this.retainPass()
      .catch((err: unknown) => console.error('[sandbox] retention pass failed:', err))
      .finally(() => (this.retaining = undefined));
    return this.retaining;
  }

  /** End a running retention pass at its next slice, and start no other: before the store closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.retaining;
    for (const t of this.byKey.values()) this.keepJournal(t);
  }

  /** On a store that keeps files, write the tenant's journal into it before the tenant is unloaded
   * or the server stops, so the next load lists the requests made before. A tenant that has stored
   * nothing (a key that only reads) is given no files for it. */
  private keepJournal(t: Tenant): void {
    if (this.shared || this.store.kind !== 'lowdb' || !(t.store instanceof MemoryTenantStore)) return;
    const entries = t.journal.kept();
    if (!entries.length || ![...t.store.data.values()].some((m) => m.size > 0)) return;
    try {
      t.store.collection<unknown>(KEPT_JOURNAL).put(KEPT_JOURNAL, entries);
    } catch (err) {
      // The journal is what helps a partner look back, not data a 2xx promised: one that cannot be
      // written (a journal of 10,000 large entries past the longest text) is let go, the unload goes on.
      console.error(`[sandbox] could not keep the request journal of tenant ${t.id}:`, err);
    }
  }

  private async retainPass(): Promise<void> {
    if (this.shared) return this.shared.retain(() => this.stopped);
    const slice = slices(RETENTION.slice);
    // Between slices the server may begin to stop: the pass ends there (what it dropped is written).
    const step = async (work: number) => {
      await slice(work);
      return !this.stopped;
    };
    const idleMs = this.options.idleMs ?? 0;
    if (idleMs > 0) {
      const now = this.env.clock.now();
      for (const [key, t] of [...this.byKey]) {
        if (this.byKey.get(key) === t && now - t.lastUsedAt > idleMs && !this.holds.has(t) && !this.options.busy?.(t)) this.drop(key, t);
      }
      // Stored tenants no key has used since the start: their last use is the one written down,
      // read once per process (a tenant loaded only to read it is unloaded again at once).
      const loaded = new Set([...this.byKey.values()].map((t) => t.id));
      for (const id of await this.store.storedTenantIds()) {
        if (loaded.has(id) || this.inUse(id)) continue;
        let since = this.storedLastUse.get(id);
        if (since === undefined) {
          const wasLoaded = this.store.tenantIds().includes(id);
          const seen = (await this.store.tenant(id).catch(() => undefined))?.collection<{ at: number }>('meta').get('seen')?.at;
          this.storedLastUse.set(id, (since = seen ?? now));
          if (!wasLoaded && !this.inUse(id, true)) await this.store.evict?.(id);
        }
        if (now - since > idleMs && !this.inUse(id, true)) this.drop(undefined, id);
        if (!(await step(1))) break;
      }
      await Promise.all(this.evicting.values());
    }
    if (this.env.retentionMs <= 0) return;
    for (const [key, t] of [...this.byKey]) {
      if (this.stopped) return;
      if (this.byKey.get(key) !== t || t.advancing) continue;
      this.hold(t);
      try {
        for (const n of sweepTenant(t, this.env.clock.now() - this.env.retentionMs, this.env.retained)) {
          // With --data, what it dropped is written every SWEEP_WRITES drops, not all at the end.
          if (t.store.pendingWrites >= SWEEP_WRITES) await t.store.flush();
          if (!(await step(n))) break;
        }
        if (!t.store.flushed) await t.store.flush();
      } catch (err) {
        console.error(`[sandbox] retention of tenant ${t.id} failed:`, err);
      } finally {
        this.unhold(t);
      }
    }
  }

  /** Whether a key is loading this tenant or it is being unloaded or dropped (a tenant a key has
   * loaded since is checked again right before a drop). */
  private inUse(id: string, loadedToo = false): boolean {
    if (this.evicting.has(id)) return true;
    for (const key of this.opening.keys()) if (tenantIdOf(key) === id) return true;
    if (loadedToo) for (const t of this.byKey.values()) if (t.id === id) return true;
    return false;
  }

  /** Forget a tenant entirely; a request with its key meanwhile waits, then starts it empty. */
  private drop(key: string | undefined, t: Tenant | string): void {
    const id = typeof t === 'string' ? t : t.id;
    if (key !== undefined) this.byKey.delete(key);
    this.storedLastUse.delete(id);
    this.dropped++;
    const done = this.store
      .drop(id)
      .catch((err: Error) => console.error('[sandbox] could not drop an idle tenant:', err))
      .finally(() => this.evicting.delete(id));
    this.evicting.set(id, done);
  }

  private hold(t: Tenant): void {
    this.holds.set(t, (this.holds.get(t) ?? 0) + 1);
  }

  private unhold(t: Tenant): void {
    const n = (this.holds.get(t) ?? 1) - 1;
    if (n > 0) this.holds.set(t, n);
    else this.holds.delete(t);
  }

  /** The heap is past its budget: unload the least recently used half of the idle tenants, at most
   * once a second (until the budget samples the heap again, what was let go is not seen, and unloading
   * on every request would have two keys taking turns reload each other). False when none could go;
   * the answer holds for that second, so keys first seen meanwhile do not each count the tenants. */
  private relieve(): boolean {
    if (!this.evicts) return false;
    const now = performance.now();
    if (now - this.relievedAt < 1000) return this.relieved;
    this.relievedAt = now;
    let idle = 0;
    for (const t of this.byKey.values()) if (!this.holds.has(t) && !this.options.busy?.(t)) idle++;
    this.relieved = idle > 0;
    if (this.relieved) this.evictIdle(this.byKey.size - Math.ceil(idle / 2));
    return this.relieved;
  }
  private relievedAt = Number.NEGATIVE_INFINITY;
  private relieved = false;

  /** Drop least recently used idle tenants until the limit holds (or only busy ones are left); `max`,
   * when given, replaces the limit (relieve()). */
  private evictIdle(max = this.options.maxLoaded || undefined): void {
    if (max === undefined || !this.evicts) return;
    let over = this.byKey.size - max;
    for (const [key, t] of this.byKey) {
      if (over <= 0) break;
      if (this.holds.has(t) || this.options.busy?.(t)) continue;
      this.byKey.delete(key);
      // Unloaded, it is judged idle from its last use, as a stored tenant no key has used.
      this.storedLastUse.set(t.id, t.lastUsedAt);
      over--;
      this.evictions++;
      this.keepJournal(t);
      const done = t.store
        .flush()
        .then(() => this.store.evict!(t.id))
        .catch((err: Error) => console.error('[sandbox] could not unload a tenant:', err))
        .finally(() => this.evicting.delete(t.id));
      this.evicting.set(t.id, done);
    }
  }
}
