import { describe, expect, it } from 'vitest';
import { MemoryTenantStore } from '../store/store.js';
import { Scheduler, type Job } from './scheduler.js';

const make = () => {
  const jobs = new MemoryTenantStore().collection<Job>('jobs');
  return { jobs, s: new Scheduler(jobs) };
};

describe('Scheduler', () => {
  it('hands out due jobs in order of due time, then of enqueueing', () => {
    const { s } = make();
    s.enqueue('k', 'b', 200);
    s.enqueue('k', 'a', 100);
    s.enqueue('k', 'c', 100);
    s.enqueue('k', 'd', 300);
    const taken: string[] = [];
    for (let j = s.takeDue(250); j; j = s.takeDue(250)) taken.push(j.ref);
    expect(taken).toEqual(['a', 'c', 'b']);
    expect(s.nextDueAt()).toBe(300);
  });

  it('cancels the jobs of one resource, optionally of one kind', () => {
    const { s, jobs } = make();
    s.enqueue('x.advance', 'r1', 100);
    s.enqueue('x.expire', 'r1', 150);
    s.enqueue('x.advance', 'r2', 120);
    s.cancelFor('r1', 'x.advance');
    expect(s.pending('r1').map((j) => j.kind)).toEqual(['x.expire']);
    s.cancelFor('r1');
    expect(s.pending('r1')).toEqual([]);
    expect(jobs.size).toBe(1);
    expect(s.takeDue(1000)?.ref).toBe('r2');
    expect(s.takeDue(1000)).toBeUndefined();
  });

  it('takes in jobs another copy added and removed, given the changed ids, as a rebuild would', () => {
    const store = new MemoryTenantStore();
    const jobs = store.collection<Job>('jobs');
    const s = new Scheduler(jobs);
    const kept = s.enqueue('k', 'r1', 300);
    const settled = s.enqueue('k', 'r2', 100);
    // What a read of another replica's writes does to the records: one removed, two added.
    store.data.get('jobs')!.delete(settled.id);
    const a: Job = { id: 'job_7', seq: 7, dueAt: 200, kind: 'k', ref: 'r3' };
    const b: Job = { id: 'job_8', seq: 8, dueAt: 50, kind: 'k', ref: 'r1' };
    store.data.get('jobs')!.set(a.id, a).set(b.id, b);
    s.update(new Map<string, unknown>([[settled.id, settled], [a.id, undefined], [b.id, undefined]]));
    expect(s.has('r2')).toBe(false);
    expect(s.pending('r1').map((j) => j.id)).toEqual(['job_8', kept.id]);
    const taken: string[] = [];
    for (let j = s.takeDue(1_000); j; j = s.takeDue(1_000)) taken.push(j.id);
    expect(taken).toEqual(['job_8', 'job_7', kept.id]);
    // numbering goes on after the newest job taken in
    expect(s.enqueue('k', 'r4', 10).id).toBe('job_9');
  });

  it('rebuilds its order and index from stored jobs', () => {
    const { s, jobs } = make();
    s.enqueue('k', 'late', 500);
    s.enqueue('k', 'early', 50);
    const again = new Scheduler(jobs);
    expect(again.pending('early')).toHaveLength(1);
    expect(again.takeDue(100)?.ref).toBe('early');
    expect(again.enqueue('k', 'next', 10).seq).toBe(3);
  });
});
