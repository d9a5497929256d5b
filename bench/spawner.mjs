// A worker thread of `npm run bench` that starts the processes the bench measures: the servers and
// PostgreSQL. The bench's main thread runs the load generator (autocannon) and lowers its own
// priority once this thread is up (BENCH_NICE, default 10). On Linux a priority belongs to a thread
// and a process inherits the one of the thread that starts it, so everything started here keeps the
// normal priority, and on a machine of few cores the load generator no longer takes the CPU from the
// server it measures (see bench/README.md, "The load generator's priority").
import { spawn } from 'node:child_process';
import { parentPort } from 'node:worker_threads';

/** PostgreSQL clusters started here, by request id: stopped on request. */
const clusters = new Map();

parentPort.on('message', async (m) => {
  if (m.op === 'spawn') {
    const p = spawn(m.cmd, m.args, { stdio: ['ignore', 'pipe', 'inherit'], env: m.env });
    parentPort.postMessage({ id: m.id, pid: p.pid });
    p.stdout.on('data', (d) => parentPort.postMessage({ id: m.id, data: String(d) }));
    p.on('error', (err) => parentPort.postMessage({ id: m.id, exit: -1, error: String(err) }));
    p.on('exit', (code) => parentPort.postMessage({ id: m.id, exit: code }));
    return;
  }
  try {
    if (m.op === 'postgres') {
      const { startPostgres } = await import('../scripts/postgres-cluster.mjs');
      const pg = await startPostgres();
      clusters.set(m.id, pg);
      parentPort.postMessage({ id: m.id, url: pg.url, pid: await pg.pid() });
    } else if (m.op === 'postgres-stop') {
      await clusters.get(m.cluster)?.stop();
      clusters.delete(m.cluster);
      parentPort.postMessage({ id: m.id, stopped: true });
    }
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err) });
  }
});
