// Preloaded into the sandbox by `npm run bench` (node -r): where a slow request's time went on the
// server's side. It appends a line to BENCH_PROBE_FILE for every garbage collection pause of 2 ms
// or more and for every stall of the event loop (a 10 ms timer firing 20 ms or more late), each
// with its wall-clock time, so the bench can tell which fell within a workload's rounds. A stall
// also gives how long of it the main thread was ready to run but waited for a CPU (Linux's
// schedstat), so the stall the machine caused shows apart from the one the server's work caused.
'use strict';
const { appendFileSync } = require('node:fs');
const { PerformanceObserver, constants, performance } = require('node:perf_hooks');
const { mainThreadSchedstat } = require('../scripts/schedstat.cjs');

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
  // The main thread's time spent waiting on a run queue, in ns; undefined where schedstat is not
  // there or not kept.
  const schedstat = mainThreadSchedstat();
  const waited = () => schedstat?.()?.[1];
  let last = performance.now();
  let lastWait = waited();
  setInterval(() => {
    const now = performance.now();
    const late = now - last - 10;
    const wait = waited();
    last = now;
    if (late >= 20) {
      // The wait counted is the whole tick's (10 ms plus the lateness): at most the lateness is
      // taken as the stall's, so the machine's share is never overstated.
      const offCpu = wait === undefined || lastWait === undefined ? null : Math.min(Math.round(late), Math.round((wait - lastWait) / 1e6));
      appendFileSync(file, `${JSON.stringify({ at: wall(now), stall: Math.round(late), offCpu })}\n`);
    }
    lastWait = wait;
  }, 10).unref();
}
