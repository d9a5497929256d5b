// The long-lived answers of an app (server-sent event streams): each registers how to end it, so a
// shutdown ends them all at once instead of waiting for the drain to cut their connections.
//
// Each stream holds a socket, one of the process's open files, and a timer, so they have budgets:
// - a key holds at most `maxPerKey` streams at once, and the whole server at most `maxOpen` (derived
//   from the process's file limit by streamCapFor), so streams cannot take the files every other
//   request needs;
// - a stream lives at most `lifetimeMs` (EventSource clients reconnect by themselves);
// - a stream whose answer still holds bytes the kernel has not taken at two heartbeats in a row is
//   cut: its client has stopped reading. The kernel takes small heartbeats into its buffers, so a
//   client that reads nothing is seen only once those are full; the lifetime bounds it until then.

/** What a stream sees of its connection: the bytes of its answer the kernel has not taken yet, and
 * how to cut the connection. */
export interface StreamConnection {
  unsent(): number;
  destroy(): void;
}


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
  /** How long a stream lives at most (real time); default an hour. */
  lifetimeMs?: number;
}

/** One open stream's slot. */
export interface OpenStream {
  /**
   * Called at each heartbeat, before it is sent. Past its lifetime the stream is ended (and its
   * connection cut if bytes are still unsent, since the end could not reach the client); with bytes
   * still unsent at this heartbeat and the one before, it is ended and its connection cut. Either way
   * its slot is released and false returned; true means send the heartbeat.
   */
  beat(): boolean;
  /** The stream ended (its client left, or a fault replaced it): give its slot back. */
  release(): void;
}

const CLOSED: OpenStream = { beat: () => false, release: () => undefined };

export class Streams {
  readonly heartbeatMs: number;
  readonly maxPerKey: number;
  readonly maxOpen: number;
  readonly lifetimeMs: number;
  private readonly open = new Set<() => void>();
  private readonly perKey = new Map<object, number>();
  private closed = false;

  /** @param now real time in ms, for lifetimes (a test passes its own) */
  constructor(limits: StreamLimits = {}, private readonly now: () => number = () => performance.now()) {
    this.heartbeatMs = limits.heartbeatMs ?? 15_000;
    this.maxPerKey = limits.maxPerKey ?? STREAMS_PER_KEY;
    this.maxOpen = limits.maxOpen ?? streamCapFor(DEFAULT_FILE_LIMIT);
    this.lifetimeMs = limits.lifetimeMs ?? 3_600_000;
  }

  /** How many streams `key` holds open. */
  openFor(key: object): number {
    return this.perKey.get(key) ?? 0;
  }

  /** Whether the server holds as many streams as it may. */
  get full(): boolean {
    return this.open.size >= this.maxOpen;
  }

  /** Whole seconds for a refused client to wait: slots free when clients leave, and at heartbeats
   * (lifetimes and unread streams are checked then). */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.heartbeatMs / 1000));
  }

  /**
   * Register an open stream of `key`, how to end it, and its connection (none in process: then only
   * its lifetime is watched). After closeAll() a new stream ends at once.
   */
  add(key: object, end: () => void, connection?: StreamConnection): OpenStream {
    if (this.closed) {
      end();
      return CLOSED;
    }
    this.open.add(end);
    this.perKey.set(key, this.openFor(key) + 1);
    const release = () => {
      if (!this.open.delete(end)) return;
      const n = this.openFor(key) - 1;
      if (n > 0) this.perKey.set(key, n);
      else this.perKey.delete(key);
    };
    const endsAt = this.now() + this.lifetimeMs;
    let unsentBefore = false;
    return {
      beat: () => {
        if (!this.open.has(end)) return false;
        if (this.now() >= endsAt) {
          end();
          release();
          // An answer that cannot be finished now would keep its socket past its slot.
          if (connection && connection.unsent() > 0) connection.destroy();
          return false;
        }
        const unsent = (connection?.unsent() ?? 0) > 0;
        if (unsent && unsentBefore) {
          end();
          release();
          connection!.destroy();
          return false;
        }
        unsentBefore = unsent;
        return true;
      },
      release,
    };
  }

  get size(): number {
    return this.open.size;
  }

  /** End every open stream, and every stream opened from now on. */
  closeAll(): void {
    this.closed = true;
    // One stream that cannot be ended (its body already errored) must not keep the others open.
    for (const end of [...this.open]) {
      try {
        end();
      } catch {
        // Ended already, by its client or its failure.
      }
    }
    this.open.clear();
  }
}
