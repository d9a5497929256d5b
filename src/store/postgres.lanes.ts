// The connections of the shared store. Each is a driver pool of one connection (a lane), handed to
// one user at a time (a session, or one background statement), so that a round trip the database
// does not answer in time can be given up by ending that lane alone: the driver sets no time limit on
// a query, cannot close one connection of a pool, and its cancel asks the database, which does not
// answer when it is paused or cut off. PostgreSQL's statement_timeout and lock_timeout are no help
// there either (a paused server fires no timer), so the limit is kept here, on the client side; a
// session's lock wait is bounded by the database as well (lock_timeout, LOCK_WAIT_MS).
import { connect, type Socket } from 'node:net';
import postgres, { type Options, type ReservedSql, type Sql } from 'postgres';

/** The longest a round trip may take before the database is taken for unreachable (ms). */
export const ROUND_TRIP_MS = 20_000;

/** The longest a session waits for its tenant's row lock (ms), set as each connection's lock_timeout:
 * past it the database answers SQLSTATE 55P03 and the request 503, its connection kept. Below the
 * round-trip limit, so that a healthy database answers first and a database that stops answering is
 * still found out within the limit; above an advance's 15 s of webhook attempts, so one advance of
 * the key on another replica fits before it. */
export const LOCK_WAIT_MS = 18_000;

/** The database ends a session left idle in its transaction this long (ms), letting its row lock go:
 * a replica that vanished mid-session (cut off, not closed) holds no key for longer. Longer than a
 * session legitimately waits between its round trips (an advance's 15 s of webhook attempts). */
export const IDLE_IN_TRANSACTION_MS = 60_000;

/** A round trip got no answer within the limit; its lane is dropped. */
export class RoundTripTimeout extends Error {
  constructor(ms: number) {
    super(`no answer from the database within ${ms / 1000} s`);
  }
}

export interface Lane {
  readonly sql: Sql;
  /** How often its connection has closed: a session whose connection closed between two round trips
   * must not go on, since the driver would reconnect and run the rest outside its transaction. */
  closes: number;
  /** A round trip on it timed out: it is dropped, not used again. */
  stuck: boolean;
  /** Its `closes` when its connection was last given its limits (-1: never). */
  configured: number;
  /** Its connection's backend process id, read with its limits. */
  pid: number | undefined;
  /** When that backend started (µs since the epoch, as text), read with it: with the pid, it names
   * that backend alone, where a pid alone may name another session's after a restart. */
  started: string | undefined;
  /** Queries sent on it that the database has not answered yet. */
  pending: number;
  /** Its connection's socket, opened here (none with TLS, where the driver opens its own): destroyed
   * when the lane is dropped, so that a database that reads nothing (paused) leaves no half-closed
   * socket behind until it resumes. */
  socket: Socket | undefined;
}

/** The limits a connection is given at its first use: idle in a transaction, unless the URL, the role or
 * the database set one already, and the lock wait (LOCK_WAIT_MS), always, as each session's bound (set
 * once here rather than by a statement in every session). A statement, not a parameter the connection starts with: a pooler in
 * session mode (PgBouncer) refuses a connection that starts with a parameter it does not know, and a
 * start parameter would override an operator's ALTER ROLE … SET. */
const SET_LIMITS =
  "SELECT pg_backend_pid() AS pid, (SELECT (extract(epoch FROM backend_start) * 1000000)::bigint::text FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS started, CASE WHEN current_setting('idle_in_transaction_session_timeout') = '0' THEN set_config('idle_in_transaction_session_timeout', $1, false) END AS idle, set_config('lock_timeout', $2, false) AS lock";

/** A session's connection: reserved on its lane, so the driver's idle and lifetime timers leave it
 * alone between the session's round trips. */
export interface Held {
  readonly lane: Lane;
  readonly sql: ReservedSql;
  /** The lane's `closes` when it was reserved. */
  readonly closes: number;
}

export class Lanes {
  private readonly idle: Lane[] = [];
  private readonly all = new Set<Lane>();
  private readonly waiting: { resolve: (lane: Lane) => void; reject: (err: Error) => void }[] = [];
  private ended = false;
  /** Backends of dropped lanes whose statements are to be cancelled (pid and start), and whether that
   * is under way. */
  private readonly cancels: { pid: number; started: string }[] = [];
  private cancelling = false;

  constructor(
    private readonly url: string,
    private readonly options: Options<Record<string, never>>,
    /** Lanes open at most (the pool's size). */
    readonly size: number,
    /** The round-trip limit (ms). */
    readonly limitMs: number,
    /** The idle-in-transaction limit each connection is given (ms). */
    private readonly idleInTransactionMs: number,
    /** How long a session waits for its tenant's row lock (ms). */
    readonly lockWaitMs: number = LOCK_WAIT_MS,
  ) {}

  /** The arguments of SET_LIMITS: the idle-in-transaction and lock-wait limits. */
  private limits(): string[] {
    return [String(this.idleInTransactionMs), String(this.lockWaitMs)];
  }

  /** Give the lane's connection the idle-in-transaction and lock-wait limits, once per connection. */
  private async configure(lane: Lane, sql: Sql | ReservedSql): Promise<void> {
    if (lane.configured === lane.closes) return;
    const [row] = await this.trip(lane, sql.unsafe<{ pid: number; started: string | null }[]>(SET_LIMITS, this.limits()));
    lane.pid = row?.pid;
    lane.started = row?.started ?? undefined;
    lane.configured = lane.closes;
  }

  /** A lane for one user, who gives it back (give) or drops it. Waits, without a limit, while all are
   * in use: stuck ones are dropped within the round-trip limit, so the wait ends. */
  take(): Promise<Lane> {
    if (this.ended) return Promise.reject(new Error('the store is closed'));
    let lane: Lane | undefined;
    while ((lane = this.idle.pop())) {
      // One whose reconnection failed (used meanwhile by first()) is not handed out.
      if (!lane.stuck) return Promise.resolve(lane);
      this.drop(lane, false);
    }
    if (this.all.size < this.size) return Promise.resolve(this.open());
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** The lane back for the next user; a stuck one is dropped instead. */
  give(lane: Lane): void {
    if (lane.stuck || this.ended) return this.drop(lane);
    const next = this.waiting.shift();
    if (next) next.resolve(lane);
    else this.idle.push(lane);
    // The database answers: cancels waiting for that go now.
    this.sendCancels();
  }

  /** End the lane's connection without waiting for it (it may never answer); the next user waiting
   * gets a new lane. */
  drop(lane: Lane, cancel = true): void {
    if (!this.all.delete(lane)) return;
    // A statement still running there (a lock wait, say) is cancelled by the database: its backend
    // would otherwise run on, holding its place in the lock's queue, after its client has gone.
    // Asked on a connection of the pool once the database has answered one (a lane given back), or at
    // once on one already open: a paused database costs no new connection for it.
    if (cancel && lane.pending > 0 && lane.pid !== undefined && lane.started !== undefined && lane.configured === lane.closes) {
      this.cancels.push({ pid: lane.pid, started: lane.started });
      if (this.idle.length) this.sendCancels();
    }
    // The driver's end only half-closes its socket, which stays open until the database reads it: it
    // is destroyed once the driver has let the connection go (before, the driver would open another
    // for a connection still starting).
    lane.sql
      .end({ timeout: 0 })
      .catch(() => undefined)
      .finally(() => lane.socket?.destroy());
    const next = this.ended ? undefined : this.waiting.shift();
    if (next) next.resolve(this.open());
  }

  /** A round trip on the lane, within the limit: past it, the lane is marked stuck and this rejects
   * with RoundTripTimeout (what the database answers later is ignored). */
  trip<T>(lane: Lane, query: PromiseLike<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const limit = this.limitMs;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        lane.stuck = true;
        reject(new RoundTripTimeout(limit));
      }, limit);
    });
    lane.pending++;
    const answered = () => {
      lane.pending--;
    };
    query.then(answered, answered);
    return Promise.race([query, late]).finally(() => clearTimeout(timer));
  }

  /** Ask the database to cancel the statements of the dropped lanes' backends, in one statement on a
   * lane of the pool (one such statement at a time). Each is named by its pid and start, so a backend
   * that has gone since (the database restarted, say) is not confused with a later one given its pid.
   * Those that fail are not asked again: the backends' connections are gone, so each ends by itself
   * once its statement does. */
  private sendCancels(): void {
    if (this.cancelling || this.ended || !this.cancels.length) return;
    this.cancelling = true;
    void (async () => {
      try {
        while (this.cancels.length && !this.ended) {
          const backends = this.cancels.splice(0).filter((b) => /^-?\d{1,19}$/.test(b.started));
          if (!backends.length) continue;
          const pids = backends.map((b) => Math.trunc(Number(b.pid))).join(', ');
          const starts = backends.map((b) => b.started).join(', ');
          await this.run(
            (sql) =>
              sql.unsafe(
                `SELECT pg_cancel_backend(a.pid) FROM pg_stat_activity a JOIN unnest(ARRAY[${pids}]::int[], ARRAY[${starts}]::bigint[]) AS d(pid, started) ` +
                  'ON a.pid = d.pid AND (extract(epoch FROM a.backend_start) * 1000000)::bigint = d.started',
              ),
            { cancel: false },
          );
        }
      } catch {
        this.cancels.length = 0;
      } finally {
        this.cancelling = false;
      }
    })();
  }

  /** A connection for a session, on a lane of its own, until finish(). */
  async reserve(): Promise<Held> {
    const lane = await this.take();
    try {
      const sql = await this.trip(lane, lane.sql.reserve());
      await this.configure(lane, sql);
      return { lane, sql, closes: lane.closes };
    } catch (err) {
      this.drop(lane);
      throw err;
    }
  }

  /** One round trip of a session, within the limit. A connection that closed since it was reserved
   * is not used: the driver cannot run a query on it, and the session's transaction went with it. */
  roundTrip<T>(held: Held, run: (sql: ReservedSql) => PromiseLike<T>): Promise<T> {
    if (held.lane.closes !== held.closes) return Promise.reject(new Error('the connection closed during the session'));
    // A round trip of this session timed out (a journal read within it, say): what follows would queue
    // behind the unanswered one.
    if (held.lane.stuck) return Promise.reject(new RoundTripTimeout(this.limitMs));
    return this.trip(held.lane, run(held.sql));
  }

  /** Give a session's connection back (`usable`: its transaction ended as the session meant). One
   * that closed was taken back by the driver already, and is not released (the driver would hand it
   * out closed); a stuck or unusable one is dropped with its lane. */
  finish(held: Held, usable: boolean): void {
    if (held.lane.stuck || !usable) return this.drop(held.lane);
    if (held.lane.closes === held.closes) held.sql.release();
    this.give(held.lane);
  }

  /** One piece of work on a lane of its own, within the limit (`bounded: false`: schema migrations,
   * which may wait for another replica's). A lane whose connection failed is dropped. */
  async run<T>(work: (sql: Sql) => PromiseLike<T>, opts: { bounded?: boolean; cancel?: boolean } = {}): Promise<T> {
    const lane = await this.take();
    try {
      await this.configure(lane, lane.sql);
      const result = await (opts.bounded === false ? work(lane.sql) : this.trip(lane, work(lane.sql)));
      this.give(lane);
      return result;
    } catch (err) {
      // An error the database answered leaves the connection as it was (a transaction rolls back).
      if (err instanceof postgres.PostgresError) this.give(lane);
      else this.drop(lane, opts.cancel !== false);
      throw err;
    }
  }

  /** Statements for work outside the sandbox's own (tests, tools): an idle lane of the pool (the one
   * idle longest), or, when every lane is in use, a connection of their own beside the pool. Never a
   * lane a session holds (the statements would wait for it to end) nor one that is stuck or dropped. */
  first(): Sql {
    const idle = this.idle.find((lane) => !lane.stuck && this.all.has(lane));
    if (idle) return idle.sql;
    if (!this.tools || this.tools.stuck) {
      this.tools?.sql.end({ timeout: 0 }).catch(() => undefined);
      this.tools = this.create();
    }
    // Given the limits as the pool's connections are, before its first statement and again after
    // each reconnection (the driver opens a new connection once one closed, without them).
    const tools = this.tools;
    if (tools.configured !== tools.closes) {
      tools.configured = tools.closes;
      tools.sql.unsafe(SET_LIMITS, this.limits()).catch(() => undefined);
    }
    return tools.sql;
  }
  private tools: Lane | undefined;

  async end(timeoutSeconds: number): Promise<void> {
    this.ended = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('the store is closed'));
    await Promise.all([...this.all, ...(this.tools ? [this.tools] : [])].map((lane) => lane.sql.end({ timeout: timeoutSeconds })));
  }

  private open(): Lane {
    const lane = this.create();
    this.all.add(lane);
    return lane;
  }

  private create(): Lane {
    const lane: Lane = { sql: undefined as unknown as Sql, closes: 0, stuck: false, configured: -1, pid: undefined, started: undefined, pending: 0, socket: undefined };
    (lane as { sql: Sql }).sql = postgres(this.url, {
      ...this.options,
      max: 1,
      onclose: () => {
        lane.closes++;
      },
      ...(this.tls ? {} : { socket: this.connector(lane) }),
    });
    return lane;
  }

  /** Whether the URL (or PGSSLMODE) asks for TLS: the driver then opens its sockets itself (it sets
   * the name TLS verifies on its own socket), and a dropped lane's socket is only half-closed. */
  private get tls(): boolean {
    this.usesTls ??= postgres(this.url, this.options).options.ssl !== false;
    return this.usesTls;
  }
  private usesTls: boolean | undefined;

  /** The driver's `socket` option: each (re)connection of the lane opens a socket here, as the driver
   * would (a Unix socket path, or the hosts of the URL in turn), kept as the lane's. The socket is
   * handed over connected: the driver listens for its errors only once the promise has resolved, and
   * a connection that fails at once (an unreachable address) reports its error before that, which
   * with no listener would end the process. A failure rejects the promise instead, which the driver
   * turns into the failure of the query waiting for the connection. The driver's own connect timer
   * starts once the socket is handed over, so the connection is given its time limit here too. */
  private connector(lane: Lane): (o: ConnectOptions) => Promise<Socket> {
    let next = 0;
    return async (o) => {
      let failure: unknown;
      // Each host of the URL in turn, as the driver tries them.
      for (let tries = o.path ? 1 : o.host.length; tries > 0; tries--) {
        try {
          return await this.connectOne(lane, o, next++ % o.host.length);
        } catch (err) {
          failure = err;
        }
      }
      // The driver's connection is left waiting for a socket that never comes: the lane is not used again.
      lane.stuck = true;
      throw failure;
    };
  }

  private connectOne(lane: Lane, o: ConnectOptions, i: number): Promise<Socket> {
    const socket = o.path ? connect(o.path) : connect(o.port[i]!, o.host[i]!);
    // Where the driver's messages of a failed connection say it was going.
    if (!o.path) Object.assign(socket, { host: o.host[i], port: o.port[i] });
    // An error between the hand-over and the driver's own listener is not left unhandled (the driver
    // sees the close, or its connect timer ends the connection).
    socket.on('error', () => undefined);
    lane.socket = socket;
    const where = o.path || `${o.host[i]}:${o.port[i]}`;
    const seconds = Number(o.connect_timeout) || 0;
    return new Promise<Socket>((resolve, reject) => {
      const timer = seconds
        ? setTimeout(() => {
            socket.destroy();
            fail(Object.assign(new Error(`connect CONNECT_TIMEOUT ${where}`), { code: 'CONNECT_TIMEOUT' }));
          }, seconds * 1000)
        : undefined;
      const fail = (err: Error) => {
        clearTimeout(timer);
        socket.off('connect', done).off('close', closed);
        reject(err);
      };
      const closed = () => fail(new Error(`connect ${where}: the socket closed before it connected`));
      const done = () => {
        clearTimeout(timer);
        socket.off('error', fail).off('close', closed);
        resolve(socket);
      };
      socket.once('connect', done).once('error', fail).once('close', closed);
    });
  }
}

/** What the driver passes its `socket` option (its parsed options). */
interface ConnectOptions {
  path: string | false;
  host: string[];
  port: number[];
  /** Seconds a connection may take (0: no limit). */
  connect_timeout?: number;
}
