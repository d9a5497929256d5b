// The long-lived answers of an app (server-sent event streams): each registers how to end it, so a
// shutdown ends them all at once instead of waiting for the drain to cut their connections.
//
// Each stream holds a socket, one of the process's open files, and a timer, so they have budgets: a
// key holds at most `maxPerKey` streams at once, and the whole server at most `maxOpen` (derived
// from the process's file limit by streamCapFor), so streams cannot take the files every other
// request needs.

/** The file limit assumed when the process's own is not known (not on Linux, or started by
 * startServer rather than main.ts): Linux's usual soft limit. */
export const DEFAULT_FILE_LIMIT = 1024;

/** Most streams a server holds open at once in a process allowed `fileLimit` open files: a quarter of
 * them, leaving three quarters for the store's log files (128 by default), ordinary connections and
 * Node's own. */
export const streamCapFor = (fileLimit: number): number => Math.max(1, Math.floor(fileLimit / 4));

/** How many streams one key may hold open at once. */
export const STREAMS_PER_KEY = 10;

export interface StreamLimits {
  /** How often a stream sends a heartbeat (real time); default 15 s. */
  heartbeatMs?: number;
  /** How many streams one key (its tenant) may hold open at once; default STREAMS_PER_KEY. */
  maxPerKey?: number;
  /** How many streams the whole server may hold open at once; default streamCapFor(DEFAULT_FILE_LIMIT). */
  maxOpen?: number;
}

export class Streams {
  readonly heartbeatMs: number;
  readonly maxPerKey: number;
  readonly maxOpen: number;
  private readonly open = new Set<() => void>();
  private readonly perKey = new Map<object, number>();
  private closed = false;

  constructor(limits: StreamLimits = {}) {
    this.heartbeatMs = limits.heartbeatMs ?? 15_000;
    this.maxPerKey = limits.maxPerKey ?? STREAMS_PER_KEY;
    this.maxOpen = limits.maxOpen ?? streamCapFor(DEFAULT_FILE_LIMIT);
  }

  /** How many streams `key` holds open. */
  openFor(key: object): number {
    return this.perKey.get(key) ?? 0;
  }

  /** Whether the server holds as many streams as it may. */
  get full(): boolean {
    return this.open.size >= this.maxOpen;
  }

  /** Whole seconds for a refused client to wait: one heartbeat interval. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.heartbeatMs / 1000));
  }

  /** Register an open stream of `key` and its end; returns its removal. After closeAll() a new stream ends at once. */
  add(key: object, end: () => void): () => void {
    if (this.closed) {
      end();
      return () => undefined;
    }
    this.open.add(end);
    this.perKey.set(key, this.openFor(key) + 1);
    return () => {
      if (!this.open.delete(end)) return;
      const n = this.openFor(key) - 1;
      if (n > 0) this.perKey.set(key, n);
      else this.perKey.delete(key);
    };
  }

  get size(): number {
    return this.open.size;
  }

  /** End every open stream, and every stream opened from now on. */
  closeAll(): void {
    this.closed = true;
    for (const end of [...this.open]) end();
    this.open.clear();
  }
}
