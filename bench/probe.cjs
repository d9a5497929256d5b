// Preloaded into the sandbox by `npm run bench` (node -r): where a slow request's time went on the
// server's side. It appends a line to BENCH_PROBE_FILE for every garbage collection pause of 2 ms
// or more and for every stall of the event loop (a 10 ms timer firing 20 ms or more late), each
// with its wall-clock time, so the bench can tell which fell within a workload's rounds. A stall
// also gives how long of it the main thread was ready to run but waited for a CPU (Linux's
// schedstat), so the stall the machine caused shows apart from the one the server's work caused.
'use strict';
const { appendFileSync, openSync, readSync } = require('node:fs');
const { PerformanceObserver, constants, performance } = require('node:perf_hooks');

const file = process.env.BENCH_PROBE_FILE;
if (file) {
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const wall = (t) => Math.round(performance.timeOrigin + t);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration < 2) continue;
      appendFileSync(file, `${JSON.stringify({ at: wall(e.startTime), gc: kinds[e.detail?.kind] ?? 'other', ms: Math.round(e.duration * 10) / 10 })}\n`);
    }
  }).observe({ entryTypes: ['gc'] });
  // The main thread's time spent waiting on a run queue, in ns (0 where schedstat is not there).
  let stat;
  try {
    stat = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
  } catch {
    stat = undefined;
  }
  const buf = Buffer.alloc(128);
  const waited = () => (stat === undefined ? 0 : Number(buf.toString('latin1', 0, readSync(stat, buf, 0, 128, 0)).split(' ')[1]));
  let last = performance.now();
  let lastWait = waited();
  setInterval(() => {
    const now = performance.now();
    const late = now - last - 10;
    const wait = waited();
    last = now;
    if (late >= 20) appendFileSync(file, `${JSON.stringify({ at: wall(now), stall: Math.round(late), offCpu: Math.round((wait - lastWait) / 1e6) })}\n`);
    lastWait = wait;
  }, 10).unref();
}
