// A throwaway PostgreSQL server for the tests and the bench: a cluster made with initdb in a temporary directory, on a
// free port, removed by stop(). PostgreSQL refuses to run as root, so when the tests run as root the
// cluster belongs to the package's `postgres` user and initdb and pg_ctl run as that user. Without
// PostgreSQL installed, startPostgres() throws, naming what to install: no test passes silently.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The directory of initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
/** @returns {string} */
export function postgresBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions.length) {
    throw new Error(
      'PostgreSQL was not found (no /usr/lib/postgresql/<version>/bin/initdb, and PG_BIN is not set). ' +
        "These tests need a real server: install Debian's package with `apt-get install -y postgresql`.",
    );
  }
  return path.join(root, versions[0], 'bin');
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/** @returns {Promise<import('./postgres-cluster.d.mts').TestPostgres>} */
export async function startPostgres() {
  const bin = postgresBin();
  const asRoot = process.getuid?.() === 0;
  /** @param {string} tool @param {string[]} args */
  const exec = (tool, args) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, 'data');
  await exec('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  };
  const halt = async () => {
    await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  await start();
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    halt,
    pid: async () => Number((await readFile(path.join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await halt().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
