// A heap the test sets, for the process's memory budget (src/kernel/heap-budget.ts): each figure exact.
import type { HeapGauge } from '../../src/kernel/heap-budget.js';

export const MB = 2 ** 20;

/** A heap of 1,000 MB whose use the test sets (`inUse`); a full collection leaves `live` of it. */
export function gauge() {
  const g = { inUse: 100 * MB, live: 100 * MB, at: 0, collections: 0 };
  const heap: HeapGauge = {
    used: () => g.inUse,
    limit: () => 1000 * MB,
    collect: () => {
      g.collections++;
      g.inUse = g.live;
    },
    now: () => g.at,
  };
  return { g, heap };
}
