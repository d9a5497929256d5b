// Types of postgres-cluster.mjs (plain JavaScript, so the bench runs it without a build).
export interface TestPostgres {
  /** postgres://… of the cluster's `postgres` database. */
  url: string;
  port: number;
  /** Stop the server, keeping its files (start() brings it back on the same port). */
  halt(): Promise<void>;
  start(): Promise<void>;
  /** The server's process id (the postmaster, parent of every backend). */
  pid(): Promise<number>;
  /** Stop the server and delete the cluster. */
  stop(): Promise<void>;
}

/** The directory of initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
export function postgresBin(): string;

/** A cluster made with initdb in a temporary directory, on a free port, started. */
export function startPostgres(): Promise<TestPostgres>;
