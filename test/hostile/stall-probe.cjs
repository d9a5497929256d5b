// Preloaded into the sandbox under test (NODE_OPTIONS=--require): how long its event loop was held
// by its own work. A 10 ms timer that fires late was held either by work (the process used CPU the
// whole time) or by a busy machine that gave the process no CPU; only the first is a stall the
// sandbox caused, so a late tick counts for the CPU time the process used while it waited, no more.
// Each stall of 20 ms or more is appended to STALL_PROBE_FILE as a line of JSON.
'use strict';
const { appendFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');

const file = process.env.STALL_PROBE_FILE;
if (file) {
  let last = performance.now();
  let cpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    const late = now - last - 10;
    const busy = Math.min(late, (used.user + used.system) / 1000);
    last = now;
    cpu = process.cpuUsage();
    if (busy >= 20) appendFileSync(file, `${JSON.stringify({ at: Date.now(), late: Math.round(late), busy: Math.round(busy) })}\n`);
  }, 10).unref();
}
