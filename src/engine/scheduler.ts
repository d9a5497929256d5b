// Due events: timed moves (settlement, broadcast, expiry, retries) are stored as jobs with the
// tenant time they fall due, and one runDue(now) applies every due job in order of (dueAt, seq).
// Jobs live in the tenant's store, so they survive a restart; an in-memory heap orders them so that
// a request with nothing due pays one comparison.
import type { Collection } from '../store/store.js';

export interface Job {
  id: string;
  seq: number;
  dueAt: number;
  /** Names the handler, e.g. 'payout.advance'. */
  kind: string;
  /** The resource the job moves (its id or reference). */
  ref: string;
  data?: Record<string, unknown>;
}

export class Scheduler {
  private heap: Job[] = [];
  private seq = 0;
  /** Pending job ids per resource, so cancelling a resource's jobs does not scan every job. Nearly
   * every resource has one pending job: that one is kept as a bare id, a Set only from the second. */
  private readonly byRef = new Map<string, string | Set<string>>();

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
      // A removed job's heap entry goes when it reaches the top (dropStale).
      if (before !== undefined) this.unindex(before as Job);
      if (now !== undefined) {
        this.push(now);
        this.index(now);
        this.seq = Math.max(this.seq, now.seq);
      }
    }
  }

  private index(job: Job): void {
    const ids = this.byRef.get(job.ref);
    if (ids === undefined) this.byRef.set(job.ref, job.id);
    else if (typeof ids === 'string') this.byRef.set(job.ref, new Set([ids, job.id]));
    else ids.add(job.id);
  }

  private unindex(job: Job): void {
    const ids = this.byRef.get(job.ref);
    if (ids === undefined) return;
    if (typeof ids === 'string') {
      if (ids === job.id) this.byRef.delete(job.ref);
      return;
    }
    ids.delete(job.id);
    if (ids.size === 0) this.byRef.delete(job.ref);
  }

  enqueue(kind: string, ref: string, dueAt: number, data?: Record<string, unknown>): Job {
    const seq = ++this.seq;
    const job: Job = { id: `job_${seq}`, seq, dueAt, kind, ref };
    if (data) job.data = data;
    this.jobs.put(job.id, job);
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
      }
    }
  }

  /** Whether a job is waiting for this resource. */
  has(ref: string): boolean {
    return this.byRef.has(ref);
  }

  pending(ref: string): Job[] {
    const ids = this.byRef.get(ref);
    if (ids === undefined) return [];
    const out: Job[] = [];
    for (const id of typeof ids === 'string' ? [ids] : ids) {
      const job = this.jobs.get(id);
      if (job) out.push(job);
    }
    return out.sort(order);
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
    this.seq = 0;
  }

  private dropStale(): void {
    while (this.heap.length > 0 && !this.jobs.has(this.heap[0].id)) this.pop();
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
