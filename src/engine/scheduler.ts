// Due events: timed moves (settlement, broadcast, expiry, retries) are stored as jobs with the
// tenant time they fall due, and one runDue(now) applies every due job in order of (dueAt, seq).
// Jobs live in the tenant's store, so they survive a restart; an in-memory heap orders them so that
// a request with nothing due pays one comparison.
import { SegmentedMap, textShard } from '../kernel/segmented-map.js';
import type { Collection } from '../store/store.js';

export interface Job {
  readonly id: string;
  readonly seq: number;
  readonly dueAt: number;
  /** Names the handler, e.g. 'payout.advance'. */
  readonly kind: string;
  /** The resource the job moves (its id or reference). */
  readonly ref: string;
  readonly data?: Record<string, unknown>;
}

/** A job's id: job_ and its number. */
const jobId = (seq: number) => `job_${seq}`;

/** A job enqueued in this process: its id is built from its number (the store keeps jobs by number,
 * so no id is held as text). Written to a file or the database it is the plain job, id included. */
class PendingJob implements Job {
  /** Set only when given: a job without data has no slot for it. */
  declare readonly data?: Record<string, unknown>;

  constructor(
    readonly seq: number,
    readonly dueAt: number,
    readonly kind: string,
    readonly ref: string,
    data: Record<string, unknown> | undefined,
  ) {
    if (data) this.data = data;
  }

  get id(): string {
    return jobId(this.seq);
  }

  toJSON(): Omit<Job, 'data'> & { data?: Record<string, unknown> } {
    const { seq, dueAt, kind, ref, data } = this;
    return data ? { id: this.id, seq, dueAt, kind, ref, data } : { id: this.id, seq, dueAt, kind, ref };
  }
}

export class Scheduler {
  private heap: Job[] = [];
  private seq = 0;
  /** Pending jobs per resource, so cancelling a resource's jobs does not scan every job. Nearly every
   * resource has one pending job: that one is kept as is, a Set only from the second. */
  private readonly byRef = new SegmentedMap<string, Job | Set<Job>>(textShard);
  /** Jobs taken out of the store while still in the heap (cancelled, or removed by another replica):
   * dropped when they reach its top. Only the scheduler removes jobs from their collection (cancelFor,
   * takeDue, update, clear): a job removed from the store any other way would still run. */
  private readonly cancelled = new Set<Job>();

  constructor(private readonly jobs: Collection<Job>) {
    this.reload();
  }

  /** Rebuild the order from the stored jobs (after another replica changed them). */
  reload(): void {
    this.clear();
    for (const job of this.jobs.values()) {
      this.push(job);
      this.index(job);
      this.seq = Math.max(this.seq, job.seq);
    }
  }

  /** Take in jobs another replica added or removed, given each changed id and the job this copy
   * held under it before (undefined: none). A job put again under an id it already had (never
   * done: jobs are added and removed, not changed) rebuilds the whole order. */
  update(changed: ReadonlyMap<string, unknown>): void {
    for (const [id, before] of changed) {
      const now = this.jobs.get(id);
      if (before !== undefined && now !== undefined) return this.reload();
      // A removed job's heap entry goes when it reaches the top (dropStale), as a cancelled one's.
      if (before !== undefined && this.unindex(before as Job)) this.cancelled.add(before as Job);
      if (now !== undefined) {
        this.push(now);
        this.index(now);
        this.seq = Math.max(this.seq, now.seq);
      }
    }
  }

  private index(job: Job): void {
    const jobs = this.byRef.get(job.ref);
    if (jobs === undefined) this.byRef.set(job.ref, job);
    else if (!(jobs instanceof Set)) this.byRef.set(job.ref, new Set([jobs, job]));
    else jobs.add(job);
  }

  /** Take a job out of its resource's index; whether it was there (pending, so still in the heap). */
  private unindex(job: Job): boolean {
    const jobs = this.byRef.get(job.ref);
    if (jobs === undefined) return false;
    if (!(jobs instanceof Set)) {
      if (jobs !== job) return false;
      this.byRef.delete(job.ref);
      return true;
    }
    const had = jobs.delete(job);
    if (jobs.size === 0) this.byRef.delete(job.ref);
    return had;
  }

  enqueue(kind: string, ref: string, dueAt: number, data?: Record<string, unknown>): Job {
    const seq = ++this.seq;
    const job = new PendingJob(seq, dueAt, kind, ref, data);
    this.jobs.put(jobId(seq), job);
    this.push(job);
    this.index(job);
    return job;
  }

  /** Drop every pending job for a resource (optionally only of one kind). */
  cancelFor(ref: string, kind?: string): void {
    for (const job of this.pending(ref)) {
      if (kind === undefined || job.kind === kind) {
        this.jobs.remove(job.id);
        this.unindex(job);
        this.cancelled.add(job);
      }
    }
  }

  /** Whether a job is waiting for this resource. */
  has(ref: string): boolean {
    return this.byRef.has(ref);
  }

  pending(ref: string): Job[] {
    const jobs = this.byRef.get(ref);
    if (jobs === undefined) return [];
    return jobs instanceof Set ? [...jobs].sort(order) : [jobs];
  }

  nextDueAt(): number | undefined {
    this.dropStale();
    return this.heap[0]?.dueAt;
  }

  /** Remove and return the next job due at or before `now`, if any. */
  takeDue(now: number): Job | undefined {
    this.dropStale();
    const top = this.heap[0];
    if (!top || top.dueAt > now) return undefined;
    this.pop();
    this.jobs.remove(top.id);
    this.unindex(top);
    return top;
  }

  clear(): void {
    this.heap = [];
    this.byRef.clear();
    this.cancelled.clear();
    this.seq = 0;
  }

  private dropStale(): void {
    while (this.heap.length > 0 && this.cancelled.delete(this.heap[0])) this.pop();
  }

  private push(job: Job): void {
    const h = this.heap;
    h.push(job);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (order(h[p], h[i]) <= 0) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && order(h[l], h[m]) < 0) m = l;
      if (r < h.length && order(h[r], h[m]) < 0) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i], h[m]];
      i = m;
    }
  }
}

function order(a: Job, b: Job): number {
  return a.dueAt - b.dueAt || a.seq - b.seq;
}
