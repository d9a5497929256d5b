// Connection limits of the HTTP server. Node's defaults let a slow body hold a socket for 330 s and
// a client that never reads hold one for ever; a test server wants short ones, set from the config:
// how long headers, a whole request and an idle keep-alive connection may take (Node enforces
// those), and how long a client may leave an answer unread (watched here).
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';

/** The config's connection fields (src/config.ts says what each means). */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxUnreadBytes: number;
  unreadTimeoutMs: number;
}

/** Most connections a server holds open at once in a process allowed `fileLimit` open files: half of
 * them, the rest left to the store's files, the webhooks' sockets and PostgreSQL. */
export const connectionCapFor = (fileLimit: number): number => Math.max(1, Math.floor(fileLimit / 2));

const clamp = (ms: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(ms)));

/** Options for http.createServer (the keep-alive timeout is set on the server once made). Node checks
 * the headers and request timeouts on an interval: a tenth of the shorter one, so a timeout strikes
 * close to its time. */
export function timeoutOptions(l: ConnectionLimits): ServerOptions {
  const set = [l.headersTimeoutMs, l.requestTimeoutMs].filter((ms) => ms > 0);
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    connectionsCheckingInterval: set.length ? clamp(Math.min(...set) / 10, 20, 1000) : 30_000,
  };
}

/**
 * The server's open connections. A connection whose client leaves more than maxUnreadBytes of
 * answer waiting (in the server's own buffer, past what the network holds) for longer than
 * unreadTimeoutMs is closed: its client has stopped reading.
 */
export class Connections {
  /** Each open socket, with the time its unread answer first went over the limit (0: it is not over). */
  private readonly sockets = new Map<Socket, number>();
  private readonly timer?: NodeJS.Timeout;

  constructor(server: Server, private readonly limits: ConnectionLimits) {
    server.on('connection', (socket: Socket) => {
      this.sockets.set(socket, 0);
      socket.once('close', () => this.sockets.delete(socket));
    });
    if (limits.unreadTimeoutMs > 0) {
      this.timer = setInterval(() => this.closeUnread(Date.now()), clamp(limits.unreadTimeoutMs / 10, 20, 1000));
      this.timer.unref();
    }
  }

  open(): IterableIterator<Socket> {
    return this.sockets.keys();
  }

  private closeUnread(now: number): void {
    for (const [socket, since] of this.sockets) {
      if (socket.writableLength <= this.limits.maxUnreadBytes) {
        if (since) this.sockets.set(socket, 0);
      } else if (!since) this.sockets.set(socket, now);
      else if (now - since >= this.limits.unreadTimeoutMs) socket.destroy();
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
