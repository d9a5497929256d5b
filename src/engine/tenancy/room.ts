// The per-key cap on resources (--max-resources) and the process's memory budget (--heap-budget):
// checked by every create before it writes anything.
import { SandboxError } from '../../kernel/errors.js';
import type { HeapBudget } from '../../kernel/heap-budget.js';
import type { Retained } from '../registry/types.js';

/** What the cap reads of a tenant: its store's collections. */
interface Counted {
  store: { collection(name: string): { readonly size: number } };
}

/** How many resources the tenant holds (bulk files and their rows each count). */
export function resourceCount(t: Counted, retained: Retained): number {
  let n = 0;
  for (const k of retained) n += t.store.collection(k.collection).size;
  return n;
}

export function checkRoom(t: Counted, limits: { maxResources: number; retentionMs: number; retained: Retained; heap?: HeapBudget }, adding: number): void {
  if (limits.heap?.over()) throw heapFull(limits.heap, 'nothing more can be created for any key');
  const max = limits.maxResources;
  if (max === 0) return;
  const held = resourceCount(t, limits.retained);
  if (held + adding <= max) return;
  const wait = limits.retentionMs > 0 ? `, or wait: resources unchanged for ${span(limits.retentionMs)} are dropped` : '';
  throw new SandboxError(
    'TENANT_FULL',
    `This API key holds ${held} resources and this sandbox keeps at most ${max} per key, so ` +
      `${adding === 1 ? 'nothing more can be created' : `${adding} more do not fit`}. Nothing was written. ` +
      `Make room with POST /_sandbox/reset (forgets this key's resources; its scenario and webhook stay)${wait}.`,
  );
}

/** How long a client refused by the memory budget is asked to wait (s): the budget looks again at
 * least this often while the heap stays past it. */
export const HEAP_RETRY_AFTER_S = 10;

/** The process holds as much as its memory budget allows: 503, what it holds, and how room comes. */
export function heapFull(heap: HeapBudget, what: string): SandboxError {
  const f = heap.figures();
  return new SandboxError(
    'SERVICE_UNAVAILABLE',
    `This sandbox holds as much as its memory allows (${f.liveMb} MB in use against a budget of ${f.budgetMb} MB, ` +
      `${f.percent} % of the ${f.limitMb} MB its heap may hold), so ${what} until room is made. Nothing was written. ` +
      `Retry after ${HEAP_RETRY_AFTER_S} s: resources leave as they age, and POST /_sandbox/reset forgets this key's resources. ` +
      `Reads, timed moves and webhooks go on.`,
    [],
    { 'Retry-After': String(HEAP_RETRY_AFTER_S) },
  );
}

/** 7 days, 12 hours, 90 minutes, 45 seconds: the largest whole unit. */
function span(ms: number): string {
  const s = Math.round(ms / 1000);
  for (const [unit, size] of [['day', 86_400], ['hour', 3600], ['minute', 60]] as const) {
    if (s % size === 0) return `${s / size} ${unit}${s === size ? '' : 's'}`;
  }
  return `${s} second${s === 1 ? '' : 's'}`;
}
