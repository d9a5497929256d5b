// The long-lived answers of an app (server-sent event streams): each registers how to end it, so a
// shutdown ends them all at once instead of waiting for the drain to cut their connections.

export class Streams {
  private readonly open = new Set<() => void>();
  private closed = false;

  /** @param heartbeatMs how often a stream sends a heartbeat (real time) */
  constructor(readonly heartbeatMs = 15_000) {}

  /** Register an open stream's end; returns its removal. After closeAll() a new stream ends at once. */
  add(end: () => void): () => void {
    if (this.closed) {
      end();
      return () => undefined;
    }
    this.open.add(end);
    return () => this.open.delete(end);
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
