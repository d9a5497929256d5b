// The process's memory budget. Every key holds its own resources under its own cap, but one client
// may use many keys, and all of them share one heap: filled, the process dies and takes every key
// with it. The budget is a share of what V8 lets the old generation hold that the live heap may fill;
// past it, what would make it grow (a create, a key first seen) is refused with 503 while reads,
// moves and resets go on.
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
  /** What the old generation may hold before V8 ends the process, bytes. */
  limit(): number;
  /** Run a full collection now. */
  collect(): void;
  /** Milliseconds, monotonic. */
  now(): number;
}

let gc: (() => void) | undefined;

const MB = 2 ** 20;

/** A node or V8 size flag in MB (`--max-old-space-size=512`, or with underscores), the last one given
 * winning: NODE_OPTIONS is read first and the command line after it, as node does. */
export function sizeFlagMb(name: string, argv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): number | undefined {
  const flags = [...nodeOptions.split(/\s+/), ...argv].filter(Boolean).map((f) => f.replace(/_/g, '-'));
  for (let i = flags.length - 1; i >= 0; i--) {
    const f = flags[i];
    const value = f.startsWith(`--${name}=`) ? f.slice(name.length + 3) : f === `--${name}` ? flags[i + 1] : undefined;
    const n = Number(value);
    if (value !== undefined && Number.isFinite(n) && n > 0) return n;
  }
  return undefined;
}

/** What V8 lets the old generation hold before it ends the process (bytes): --max-old-space-size when
 * given, else the heap limit less the young generation's three semi-spaces (--max-semi-space-size, or
 * 32 MB, the larger of Node 20's and Node 26's defaults: erring low). The heap limit alone counts the
 * young generation too, which a full collection empties: a budget taken of it could lie past what
 * the old generation can hold (75 % of a 128 MB old generation's 176 MB limit is 132 MB). */
export function oldGenerationLimit(argv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): number {
  const old = sizeFlagMb('max-old-space-size', argv, nodeOptions);
  if (old !== undefined) return old * MB;
  const semi = sizeFlagMb('max-semi-space-size', argv, nodeOptions) ?? 32;
  return getHeapStatistics().heap_size_limit - 3 * semi * MB;
}

/** The running process's heap, through V8. */
export const v8Gauge: HeapGauge = {
  used: () => getHeapStatistics().used_heap_size,
  limit: () => oldGenerationLimit(),
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
  /** What the old generation may hold, bytes (read once: the flags do not change while running). */
  private readonly limit: number;
  /** Bytes in use at the last sample, garbage included. */
  private sampled = 0;
  /** Bytes in use right after the last full collection, and when that was. */
  private live = 0;
  private liveAt = Number.NEGATIVE_INFINITY;
  private forcedAt = Number.NEGATIVE_INFINITY;
  /** A key let resources go: the next sample may run a collection sooner than every `forceEveryMs`. */
  private recheckWanted = false;
  private timer: NodeJS.Timeout | undefined;
  private observer: PerformanceObserver | undefined;

  constructor(
    /** The share of the heap limit, 0 to 1; 0 turns the budget off. */
    readonly share: number,
    private readonly gauge: HeapGauge = v8Gauge,
    private readonly opts: { sampleEveryMs?: number; forceEveryMs?: number; recheckEveryMs?: number } = {},
  ) {
    this.limit = gauge.limit();
    this.bytes = share > 0 ? Math.floor(share * this.limit) : 0;
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

  /** Read the heap; past the budget with no full collection within 10 s (2 s after a reset asked for
   * it), run one to learn the live heap. */
  sample(): void {
    if (!this.bytes) return;
    const every = this.recheckWanted ? (this.opts.recheckEveryMs ?? 2000) : (this.opts.forceEveryMs ?? 10_000);
    this.sampled = this.gauge.used();
    this.watch(this.sampled > this.bytes);
    if (this.sampled <= this.bytes) return;
    const now = this.gauge.now();
    if (now - this.liveAt < every || now - this.forcedAt < every) return;
    this.forcedAt = now;
    this.recheckWanted = false;
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

  /** A key let its resources go (a reset): past the budget, the next sample (within a second, on the
   * timer, not in the request) may run a collection 2 s after the last rather than 10. */
  recheck(): void {
    if (this.over()) this.recheckWanted = true;
  }

  /** The figures a refusal states: the live heap and the budget, in MB. */
  figures(): { liveMb: number; budgetMb: number; limitMb: number; percent: number } {
    const mb = (n: number) => Math.round(n / MB);
    return { liveMb: mb(this.live), budgetMb: mb(this.bytes), limitMb: mb(this.limit), percent: Math.round(this.share * 100) };
  }
}
