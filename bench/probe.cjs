// Preloaded into the sandbox by `npm run bench` (node -r): where a slow request's time went on the
// server's side. It appends a line to BENCH_PROBE_FILE for every garbage collection pause of 2 ms
// or more and for every stall of the event loop (a 10 ms timer firing 20 ms or more late), each
// with its wall-clock time, so the bench can tell which fell within a workload's rounds.
'use strict';
const { appendFileSync } = require('node:fs');
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
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const late = now - last - 10;
    last = now;
    if (late >= 20) appendFileSync(file, `${JSON.stringify({ at: wall(now), stall: Math.round(late) })}\n`);
  }, 10).unref();
}
