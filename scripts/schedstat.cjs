// The main thread's scheduler statistics on Linux (/proc/self/task/<pid>/schedstat), for the probes
// preloaded into a sandbox (bench/probe.cjs, test/hostile/stall-probe.cjs): how long it has run on a
// CPU and how long it has waited, ready, for one.
'use strict';
const { openSync, readSync } = require('node:fs');

/** A reader of the main thread's [ns on a CPU, ns waiting for one] so far; undefined where they
 * cannot be read: not Linux, or a kernel that keeps no schedstats (it reads 0 0 0). */
function mainThreadSchedstat() {
  let stat;
  try {
    stat = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
  } catch {
    return undefined;
  }
  const buf = Buffer.alloc(128);
  return () => {
    const [run, wait] = buf.toString('latin1', 0, readSync(stat, buf, 0, 128, 0)).split(' ').map(Number);
    return run > 0 ? [run, wait] : undefined;
  };
}

module.exports = { mainThreadSchedstat };
