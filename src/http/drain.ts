// Graceful close of the HTTP server: stop accepting, let every request in flight finish, answer each
// with Connection: close so keep-alive clients open a new connection elsewhere instead of meeting a
// reset, then close whatever is left. A scenario's latency or timeout fault holds a request for up
// to two minutes on purpose: the drain waits for the longest hold in progress, plus a grace period
// for ordinary work, and never longer than the longest hold a scenario can set plus that grace.
import type { Server, ServerResponse } from 'node:http';
import { realSleep, type Sleep } from './fault-responses.js';
import type { Connections } from './connections.js';

/** The longest latency or timeout a scenario fault can hold a request (the scenario schema's bound). */
const LONGEST_HOLD_MS = 120_000;
/** What requests without a fault get to finish in. */
const GRACE_MS = 10_000;

/** The sleep faults hold requests with, remembering until when the last one holds. */
export class Holds {
  private until = 0;

  readonly sleep: Sleep = (ms) => {
    this.until = Math.max(this.until, Date.now() + ms);
    return realSleep(ms);
  };

  get heldUntil(): number {
    return this.until;
  }
}

/** The answer a connection is writing, if any (Node keeps it on the socket). */
const answerOf = (socket: object) => (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;

export class Drain {
  private draining = false;

  constructor(
    private readonly server: Server,
    private readonly connections: Connections,
    private readonly holds: Holds,
  ) {
    // Runs before the app's listener: an answer begun during the drain closes its connection.
    server.prependListener('request', (_req, res: ServerResponse) => {
      if (this.draining) res.setHeader('Connection', 'close');
    });
  }

  /** Resolves once every connection is closed. */
  run(): Promise<void> {
    this.draining = true;
    for (const socket of this.connections.open()) {
      const res = answerOf(socket);
      if (res && !res.headersSent) res.setHeader('Connection', 'close');
    }
    const started = Date.now();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // A connection whose answer had already begun does not close itself: close each once idle.
    const reaper = setInterval(() => {
      this.server.closeIdleConnections();
      const deadline = Math.min(started + LONGEST_HOLD_MS, Math.max(started, this.holds.heldUntil)) + GRACE_MS;
      if (Date.now() >= deadline) this.server.closeAllConnections();
    }, 20);
    return closed.finally(() => clearInterval(reaper));
  }
}
