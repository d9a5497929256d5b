// The load generator's thread (started by bench/run.mjs): autocannon, at a lower priority than the
// servers it loads. On a machine of few cores the generator and the server take turns on them, and a
// generator that holds a core the server was ready to run on shows as a stall of the server's event
// loop that the server did not cause. Niced (BENCH_LOAD_NICE, default 10), the generator yields a
// core to a server that wants it; the servers and PostgreSQL keep the priority they started with.
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import { requestsOf } from './workloads.mjs';

try {
  // Linux keeps a priority per thread: this one's, not the process's, so the servers the main
  // thread spawns later start at the bench's own priority.
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  os.setPriority(tid, workerData.nice);
} catch {
  // no /proc/thread-self (not Linux): the generator runs at the bench's priority
}

parentPort.on('message', async ({ id, url, connections, plan, amount, seconds }) => {
  // The generator's own event loop: a response it reads late looks slow though the server was not.
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  try {
    const raw = await autocannon({ url, connections, requests: requestsOf(plan), ...(amount ? { amount } : { duration: seconds }) });
    delay.disable();
    // Outside the main thread autocannon answers as one of its own workers would, with encoded
    // histograms: aggregated here into the result the main thread would have had.
    const r = autocannon.aggregateResult([raw], { url, connections });
    parentPort.postMessage({ id, r: JSON.parse(JSON.stringify(r)), clientStallMs: Math.round(delay.max / 1e6) });
  } catch (e) {
    parentPort.postMessage({ id, error: String(e?.stack ?? e) });
  }
});
