// Preloaded into the sandbox of the bench's RSS part (node -r): every second it writes V8's heap
// spaces (committed and used MB of the young generation, the old generation and the rest) to
// BENCH_SPACES_FILE, so the part can say what the young generation holds of RSS at the end.
'use strict';
const { renameSync, writeFileSync } = require('node:fs');
const v8 = require('node:v8');

const file = process.env.BENCH_SPACES_FILE;
if (file) {
  const mb = (n) => Math.round(n / 2 ** 20);
  setInterval(() => {
    const young = { committed: 0, used: 0 };
    const old = { committed: 0, used: 0 };
    for (const s of v8.getHeapSpaceStatistics()) {
      const into = s.space_name === 'new_space' || s.space_name === 'new_large_object_space' ? young : old;
      into.committed += s.physical_space_size;
      into.used += s.space_used_size;
    }
    // Written aside and renamed, so the bench never reads a file cut short.
    writeFileSync(`${file}.next`, JSON.stringify({ youngMb: mb(young.committed), youngUsedMb: mb(young.used), oldMb: mb(old.committed), oldUsedMb: mb(old.used) }));
    renameSync(`${file}.next`, file);
  }, 1000).unref();
}
