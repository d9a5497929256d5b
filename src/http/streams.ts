// The long-lived answers of an app (server-sent event streams): each registers how to end it, so a
// shutdown ends them all at once instead of waiting for the drain to cut their connections.

// A key holds at most `maxPerKey` streams at once, so one key cannot hold timers and sockets
// without bound.
export class Streams {
  private readonly open = new Set<() => void>();
  private readonly perKey = new Map<object, number>();
  private closed = false;

  /**
   * @param heartbeatMs how often a stream sends a heartbeat (real time)
   * @param maxPerKey how many streams one key (its tenant) may hold open at once
   */
  constructor(
    readonly heartbeatMs = 15_000,
    readonly maxPerKey = 10,
  ) {}

  /** How many streams `key` holds open. */
  openFor(key: object): number {
    return this.perKey.get(key) ?? 0;
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
