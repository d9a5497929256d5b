// Preloaded into the sandbox under test (NODE_OPTIONS=--require): how long its event loop was held
// by its own work. A 10 ms timer that fires late was held either by work (the main thread ran the
// whole time) or by a busy machine that gave it no CPU; only the first is a stall the sandbox caused,
// so a late tick counts for the CPU time the main thread used while it waited, no more. The main
// thread's own time (Linux's schedstat), not the process's: the collector's helper threads, running
// beside it on another core, would count their time twice over one stretch of the loop.
// Each stall of 20 ms or more is appended to STALL_PROBE_FILE as a line of JSON.
'use strict';
const { appendFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const { mainThreadSchedstat } = require('../../scripts/schedstat.cjs');

const file = process.env.STALL_PROBE_FILE;
if (file) {
  // The main thread's time on a CPU so far, in ms: schedstat's first field (ns); where it cannot be
  // read (not Linux, or a kernel without schedstats, which reads 0), the process's CPU time.
  const schedstat = mainThreadSchedstat();
  const mainThreadMs = () => {
    const ran = schedstat?.()?.[0];
    if (ran !== undefined) return ran / 1e6;
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let last = performance.now();
  let ran = mainThreadMs();
  setInterval(() => {
    const now = performance.now();
    const running = mainThreadMs();
    const late = now - last - 10;
    const busy = Math.min(late, running - ran);
    last = now;
    ran = running;
    if (busy >= 20) appendFileSync(file, `${JSON.stringify({ at: Date.now(), late: Math.round(late), busy: Math.round(busy) })}\n`);
  }, 10).unref();
}
