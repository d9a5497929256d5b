// Graceful close of the HTTP server: stop accepting, let every request in flight finish, answer each
// with Connection: close so keep-alive clients open a new connection elsewhere instead of meeting a
// reset, then close whatever is left. A scenario's latency or timeout fault holds a request for up
// to two minutes on purpose: the drain waits for the longest hold in progress, plus a grace period
// for ordinary work, and never longer than the longest hold a scenario can set plus that grace.
//
// An idle keep-alive connection is closed only once it has been quiet (no byte either way, no answer
// under way, no part of a next request read) for QUIET_MS. Closing one at the instant it falls idle
// (as http.Server's close() and closeIdleConnections() do) resets the request its client wrote on it
// a moment before, which HTTP/1.1 gives no way to refuse but closing: a client streaming requests
// reuses its connection within a few milliseconds, and meets the Connection: close answer instead.
import type { Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
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

/** How long a connection must be quiet before the drain closes it: long enough that a client busy
 * on a loaded machine (its next request a moment from being written) is not taken for an idle one. */
const QUIET_MS = 1500;

/** What the drain saw of one connection when it last moved. */
interface Seen {
  read: number;
  written: number;
  since: number;
  /** Bytes came in and nothing went out: part of a request may be there, which Node reads on. */
  partial: boolean;
}

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
    // net.Server's close stops accepting and calls back once every connection has closed; http.Server's
    // would also close every idle keep-alive connection at once, which is the reset described above.
    const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(this.server, () => resolve()));
    const seen = new Map<Socket, Seen>();
    const look = () => {
      const now = Date.now();
      const deadline = Math.min(started + LONGEST_HOLD_MS, Math.max(started, this.holds.heldUntil)) + GRACE_MS;
      if (now >= deadline) {
        this.server.closeAllConnections();
        return;
      }
      for (const socket of this.connections.open()) {
        const { bytesRead: read, bytesWritten: written } = socket;
        const last = seen.get(socket);
        if (!last || answerOf(socket)) seen.set(socket, { read, written, since: now, partial: false });
        else if (read !== last.read || written !== last.written) seen.set(socket, { read, written, since: now, partial: written === last.written });
        else if (!last.partial && now - last.since >= QUIET_MS) socket.destroy();
      }
    };
    // Looked at right after the event loop has read what arrived (setImmediate follows the poll), so
    // a request already received is never taken for quiet.
    const reaper = setInterval(() => setImmediate(look), 20);
    return closed.finally(() => {
      clearInterval(reaper);
      // Every connection is closed: http.Server's close now only stops its timeout checks.
      this.server.close(() => undefined);
    });
  }
}
