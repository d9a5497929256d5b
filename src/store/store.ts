// The store: one TenantStore per tenant, holding named collections of records.
//
// Records are values: a service builds a new object and puts it; it never mutates an object it got
// from a collection (the lowdb store logs puts, so a silent mutation would not reach the disk).
// Reads and writes are synchronous against memory; `flush()` resolves once every write made so far
// is durable, and the HTTP layer awaits it before answering, so a 2xx means the write is kept.

import { SegmentedMap, textShard } from '../kernel/segmented-map.js';
import { NumberedMap } from './numbered.map.js';

export interface Collection<T> {
  get(id: string): T | undefined;
  has(id: string): boolean;
  /** Records in insertion order. */
  values(): IterableIterator<T>;
  keys(): IterableIterator<string>;
  put(id: string, value: T): void;
  remove(id: string): void;
  clear(): void;
  readonly size: number;
}

export interface TenantStore {
  collection<T>(name: string): Collection<T>;
  /** Forget every record of every collection of this tenant, but those named in `keep`. */
  clear(keep?: readonly string[]): void;
  /** Resolves once every write made so far is durable. */
  flush(): Promise<void>;
  /** True when every write so far is durable (always, in memory): the HTTP layer then skips flush(). */
  readonly flushed: boolean;
  /** Writes made and not yet sent to where they are kept (none in memory). */
  readonly pendingWrites: number;
  /** Where the request journal is kept when every replica must see it (a shared store); absent, the
   * journal stays in this process's memory. */
  readonly journal?: JournalStore;
}

/** A shared request journal: entries (as listed, JSON text) written with the session; listed newest
 * first, each with the id the store gave it. */
export interface JournalStore {
  add(entry: string, keep: number): void;
  list(limit: number): Promise<{ id: string; entry: string }[]>;
  clear(): void;
}

/** The database behind a shared store cannot be reached (or failed mid-write): nothing of the work
 * in hand was kept, and a retry may succeed once it is back. */
/** SQLSTATE lock_not_available: a lock wait passed lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

export class StoreUnavailableError extends Error {
  /** The database answered, but the tenant's lock was held past the lock limit (SQLSTATE 55P03). */
  readonly lockWait: boolean;
  constructor(cause: unknown) {
    super(`the database is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.lockWait = (cause as { code?: unknown } | undefined)?.code === LOCK_NOT_AVAILABLE;
  }
}

export interface Store {
  readonly kind: 'memory' | 'lowdb' | 'postgres';
  /** The tenant's store, loaded (or created) on first use. */
  tenant(tenantId: string): Promise<TenantStore>;
  /** Ids of the tenants loaded in memory. */
  tenantIds(): string[];
  /** Ids of every tenant with stored data, loaded or not (a store that loads on first use has more
   * than it holds in memory). */
  storedTenantIds(): Promise<string[]>;
  /** Base-clock ms at which this store's sandbox began: `now` on the first call ever, the same
   * instant afterwards (after a restart, and on every replica of a shared store). The market
   * walks from it. */
  origin(now: number): Promise<number>;
  /** Make everything durable and release files. */
  close(): Promise<void>;
  /** Drop a tenant from memory after making it durable; the next `tenant()` reloads it. Only stores
   * that can reload (files) have it: dropping a memory-only tenant would lose its data. */
  evict?(tenantId: string): Promise<void>;
  /** Forget a tenant entirely: its records, and with files its directory. The next `tenant()` starts
   * it empty. */
  drop(tenantId: string): Promise<void>;
}

/** A write to a collection, as the lowdb store logs it. */
export type StoreOp =
  | { c: string; op: 'put'; id: string; v: unknown }
  | { c: string; op: 'del'; id: string }
  | { c: string; op: 'clear' }
  | { op: 'clearAll'; keep?: string[] };

/** A collection over a Map that reports each write to a listener. */
export class MapCollection<T> implements Collection<T> {
  constructor(
    readonly name: string,
    readonly map: Map<string, T>,
    private readonly onWrite?: (op: StoreOp) => void,
  ) {}
  get(id: string) {
    return this.map.get(id);
  }
  has(id: string) {
    return this.map.has(id);
  }
  values() {
    return this.map.values();
  }
  keys() {
    return this.map.keys();
  }
  get size() {
    return this.map.size;
  }
  put(id: string, value: T) {
    this.map.set(id, value);
    this.onWrite?.({ c: this.name, op: 'put', id, v: value });
  }
  remove(id: string) {
    if (!this.map.delete(id)) return;
    this.onWrite?.({ c: this.name, op: 'del', id });
  }
  clear() {
    this.map.clear();
    this.onWrite?.({ c: this.name, op: 'clear' });
  }
}

/** Collections the engine keys by a counter (evt_0000000001, job_42): kept in a NumberedMap. */
const NUMBERED = new Set(['events', 'jobs']);

/** An empty map for collection `name`: every place that makes a collection's map takes it from here
 * (a new collection, a file read, a database read), so events and jobs are always kept by number, and
 * no collection's growth rebuilds one large table at once (SegmentedMap). */
export const mapFor = (name: string): Map<string, unknown> => (NUMBERED.has(name) ? new NumberedMap() : new SegmentedMap<string, unknown>(textShard));

/** Collections of one tenant kept in memory; the base of both stores. */
export class MemoryTenantStore implements TenantStore {
  readonly data = new Map<string, Map<string, unknown>>();
  private readonly collections = new Map<string, MapCollection<unknown>>();

  constructor(private readonly onWrite?: (op: StoreOp) => void) {}

  collection<T>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) {
      let map = this.data.get(name);
      if (!map) this.data.set(name, (map = mapFor(name)));
      c = new MapCollection(name, map, this.onWrite);
      this.collections.set(name, c);
    }
    return c as Collection<T>;
  }

  clear(keep: readonly string[] = []): void {
    this.clearExcept(keep);
    this.onWrite?.({ op: 'clearAll', ...(keep.length ? { keep: [...keep] } : {}) });
  }

  private clearExcept(keep: readonly string[]): void {
    for (const [name, map] of this.data) if (!keep.includes(name)) map.clear();
  }

  /** Apply a logged write (used when replaying a log). */
  apply(op: StoreOp): void {
    if (op.op === 'clearAll') {
      this.clearExcept(op.keep ?? []);
      return;
    }
    let map = this.data.get(op.c);
    if (!map) this.data.set(op.c, (map = mapFor(op.c)));
    if (op.op === 'put') map.set(op.id, op.v);
    else if (op.op === 'del') map.delete(op.id);
    else map.clear();
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  /** True when every write so far is durable, so a flush would have nothing to wait for. */
  get flushed(): boolean {
    return true;
  }

  /** Writes made and not yet sent to where they are kept (none in memory). */
  get pendingWrites(): number {
    return 0;
  }
}
