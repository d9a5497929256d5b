// The process's memory budget. Every key holds its own resources under its own cap, but one client
// may use many keys, and all of them share one heap: filled, the process dies and takes every key
// with it. The budget is a share of V8's heap limit that the live heap may fill; past it, what would
// make it grow (a create, a key first seen) is refused with 503 while reads, moves and resets go on.
//
// The live heap is what a full collection leaves. The heap's size between collections counts garbage
// too, so it only says when the budget is surely not reached; past that, the figure of the last full
// collection decides (V8 runs them often near the limit). When none is recent, one is run here, at
// most once every `forceEveryMs`: it holds the event loop as long as a collection of that heap takes
// (seconds at gigabytes), which the process only meets when it is already near its limit.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What the budget reads of the heap; tests give their own. */
export interface HeapGauge {
  /** Bytes in use now, garbage included. */
  used(): number;
  /** V8's heap limit, bytes. */
  limit(): number;
  /** Run a full collection now. */
  collect(): void;
  /** Milliseconds, monotonic. */
  now(): number;
}

let gc: (() => void) | undefined;

/** The running process's heap, through V8. */
export const v8Gauge: HeapGauge = {
  used: () => getHeapStatistics().used_heap_size,
  limit: () => getHeapStatistics().heap_size_limit,
  collect: () => {
    if (!gc) {
      // V8 hands out its collector to a context made after the flag is set; the flag changes nothing else.
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
    gc();
  },
  now: () => performance.now(),
};

export class HeapBudget {
  /** Bytes the live heap may hold (0: no budget). */
  readonly bytes: number;
  /** Bytes in use at the last sample, garbage included. */
  private sampled = 0;
  /** Bytes in use right after the last full collection, and when that was. */
  private live = 0;
  private liveAt = Number.NEGATIVE_INFINITY;
  private forcedAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private observer: PerformanceObserver | undefined;

  constructor(
    /** The share of the heap limit, 0 to 1; 0 turns the budget off. */
    readonly share: number,
    private readonly gauge: HeapGauge = v8Gauge,
    private readonly opts: { sampleEveryMs?: number; forceEveryMs?: number; recheckEveryMs?: number } = {},
  ) {
    this.bytes = share > 0 ? Math.floor(share * gauge.limit()) : 0;
  }

  /** Sample the heap every second, until stop(). */
  start(): void {
    if (!this.bytes || this.timer) return;
    this.timer = setInterval(() => this.sample(), this.opts.sampleEveryMs ?? 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.watch(false);
  }

  /** Note V8's own full collections, only while the heap is past the budget: observing every
   * collection costs each of them (some 5 % of an allocating loop's CPU). */
  private watch(on: boolean): void {
    if (!on) {
      this.observer?.disconnect();
      this.observer = undefined;
    } else if (!this.observer && this.timer) {
      this.observer = new PerformanceObserver((list) => {
        if (list.getEntries().some((e) => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) this.noteCollected();
      });
      this.observer.observe({ entryTypes: ['gc'] });
    }
  }

  /** Read the heap; past the budget with no full collection within `every` ms, run one to learn the
   * live heap. */
  sample(every = this.opts.forceEveryMs ?? 10_000): void {
    if (!this.bytes) return;
    this.sampled = this.gauge.used();
    this.watch(this.sampled > this.bytes);
    if (this.sampled <= this.bytes) return;
    const now = this.gauge.now();
    if (now - this.liveAt < every || now - this.forcedAt < every) return;
    this.forcedAt = now;
    this.gauge.collect();
    this.noteCollected();
  }

  /** A full collection just ran: what is in use now is the live heap. */
  noteCollected(): void {
    this.live = this.sampled = this.gauge.used();
    this.liveAt = this.gauge.now();
  }

  /** Whether the live heap is past the budget: nothing more should be kept. */
  over(): boolean {
    return this.bytes > 0 && this.sampled > this.bytes && this.live > this.bytes;
  }

  /** A key let its resources go (a reset): past the budget, look again now (a full collection at most
   * once a second) rather than at the next sample. */
  recheck(): void {
    if (this.over()) this.sample(this.opts.recheckEveryMs ?? 1000);
  }

  /** The figures a refusal states: the live heap and the budget, in MB. */
  figures(): { liveMb: number; budgetMb: number; limitMb: number; percent: number } {
    const mb = (n: number) => Math.round(n / 2 ** 20);
    return { liveMb: mb(this.live), budgetMb: mb(this.bytes), limitMb: mb(this.gauge.limit()), percent: Math.round(this.share * 100) };
  }
}
