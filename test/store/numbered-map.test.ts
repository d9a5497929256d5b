// The map the memory store keeps events and jobs in: keyed by the number in their ids when they have
// the prefix and the way of writing its number the first id had, by text otherwise; either way a Map
// of text ids, in insertion order, whose iterators go on across any write as a Map's do.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NumberedMap } from '../../src/store/numbered.map.js';
import { MemoryTenantStore } from '../../src/store/store.js';

describe('NumberedMap', () => {
  it('answers as a Map for padded and plain counters', () => {
    const m = new NumberedMap<string>();
    m.set('evt_0000000001', 'a').set('evt_0000000002', 'b').set('evt_1000000003', 'c');
    expect([...m.keys()]).toEqual(['evt_0000000001', 'evt_0000000002', 'evt_1000000003']);
    expect(m.get('evt_0000000002')).toBe('b');
    expect(m.get('evt_2')).toBeUndefined();
    expect(m.has('evt_00000000002')).toBe(false);
    expect(m.delete('evt_0000000001')).toBe(true);
    expect([...m]).toEqual([['evt_0000000002', 'b'], ['evt_1000000003', 'c']]);
    const jobs = new NumberedMap<number>();
    jobs.set('job_9', 9).set('job_10', 10);
    expect(jobs.get('job_09')).toBeUndefined();
    expect([...jobs.entries()]).toEqual([['job_9', 9], ['job_10', 10]]);
  });

  it('keeps the order when ids that do not fit are added among those that do', () => {
    const m = new NumberedMap<number>();
    m.set('job_1', 1).set('job_2', 2).set('other', 3).set('job_01', 4);
    expect([...m.keys()]).toEqual(['job_1', 'job_2', 'other', 'job_01']);
    expect(m.get('job_01')).toBe(4);
    m.clear();
    expect(m.size).toBe(0);
    m.set('evt_0000000007', 7);
    expect([...m.keys()]).toEqual(['evt_0000000007']);
  });

  it('behaves as a Map for any sequence of writes', () => {
    const id = fc.oneof(
      fc.nat(1200).map((n) => `evt_${String(n).padStart(10, '0')}`),
      fc.nat(1200).map((n) => `job_${n}`),
      fc.constantFrom('evt_', 'job_007', 'x', '12', 'evt_1', ''),
    );
    const op = fc.oneof(
      fc.record({ op: fc.constant('set' as const), id, v: fc.nat() }),
      fc.record({ op: fc.constant('del' as const), id }),
      fc.constant({ op: 'clear' as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.array(id, { maxLength: 10 }), (ops, probes) => {
        const m = new NumberedMap<number>();
        const ref = new Map<string, number>();
        for (const o of ops) {
          if (o.op === 'set') {
            m.set(o.id, o.v);
            ref.set(o.id, o.v);
          } else if (o.op === 'del') expect(m.delete(o.id)).toBe(ref.delete(o.id));
          else {
            m.clear();
            ref.clear();
          }
        }
        expect([...m]).toEqual([...ref]);
        expect(m.size).toBe(ref.size);
        for (const p of probes) expect([m.has(p), m.get(p)]).toEqual([ref.has(p), ref.get(p)]);
      }),
    );
  });

  it('goes on as a Map does with an iterator running when an id that does not fit arrives', () => {
    const m = new NumberedMap<number>();
    m.set('job_1', 1).set('job_2', 2).set('job_3', 3);
    const keys = m.keys();
    const values = m.values();
    expect([keys.next().value, values.next().value]).toEqual(['job_1', 1]);
    // The first id of another form, then a delete and an update of an entry the iterators have not reached.
    m.set('other', 4).delete('job_2');
    m.set('job_3', 30);
    expect([...keys]).toEqual(['job_3', 'other']);
    expect([...values]).toEqual([30, 4]);
    expect([...m.entries()]).toEqual([['job_1', 1], ['job_3', 30], ['other', 4]]);
  });

  it('goes on as a Map does with an iterator running when it is cleared (a reset during a retention pass)', () => {
    const m = new NumberedMap<string>();
    m.set('evt_0000000001', 'a').set('evt_0000000002', 'b').set('evt_0000000003', 'c');
    const entries = m.entries();
    expect(entries.next().value).toEqual(['evt_0000000001', 'a']);
    m.clear();
    m.set('evt_0000000001', 'new');
    // What was cleared is not listed; what was added since is.
    expect([...entries]).toEqual([['evt_0000000001', 'new']]);
  });

  it('keeps a running iterator in step with a Map\'s for any sequence of writes', () => {
    const id = fc.oneof(
      fc.nat(40).map((n) => `evt_${String(n).padStart(10, '0')}`),
      fc.nat(40).map((n) => `job_${n}`),
      fc.constantFrom('evt_', 'job_007', 'x', '12', 'evt_1', ''),
    );
    const op = fc.oneof(
      fc.record({ op: fc.constant('set' as const), id, v: fc.nat() }),
      fc.record({ op: fc.constant('del' as const), id }),
      fc.record({ op: fc.constant('next' as const) }),
      fc.constant({ op: 'clear' as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const m = new NumberedMap<number>();
        const ref = new Map<string, number>();
        let it = m.entries();
        let refIt = ref.entries();
        for (const o of ops) {
          if (o.op === 'set') {
            m.set(o.id, o.v);
            ref.set(o.id, o.v);
          } else if (o.op === 'del') expect(m.delete(o.id)).toBe(ref.delete(o.id));
          else if (o.op === 'clear') {
            m.clear();
            ref.clear();
          } else {
            const [got, want] = [it.next(), refIt.next()];
            expect(got).toEqual(want);
            // An ended iterator stays ended, as a Map's: the next one starts afresh.
            if (want.done) [it, refIt] = [m.entries(), ref.entries()];
          }
        }
        expect([...it]).toEqual([...refIt]);
      }),
    );
  });

  it('holds the memory store events and jobs, written to a file as before', () => {
    const ops: unknown[] = [];
    const store = new MemoryTenantStore((op) => ops.push(op));
    store.collection('events').put('evt_0000000001', { id: 'evt_0000000001' });
    store.collection('jobs').put('job_1', { id: 'job_1' });
    expect(store.data.get('events')).toBeInstanceOf(NumberedMap);
    expect([...store.data.get('jobs')!]).toEqual([['job_1', { id: 'job_1' }]]);
    expect(ops).toEqual([
      { c: 'events', op: 'put', id: 'evt_0000000001', v: { id: 'evt_0000000001' } },
      { c: 'jobs', op: 'put', id: 'job_1', v: { id: 'job_1' } },
    ]);
  });
});

describe('every way a collection is read keeps events and jobs by number', () => {
  it('a --data tenant read back from its snapshot', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { LowdbStore } = await import('../../src/store/lowdb.store.js');
    const dir = await mkdtemp(path.join(tmpdir(), 'numbered-'));
    // A tiny compaction size: the second batch rewrites the log into a snapshot, read back whole.
    const first = await LowdbStore.open(dir, { compactBytes: 1 });
    const t = (await first.tenant('t1')) as MemoryTenantStore;
    t.collection('events').put('evt_0000000001', { n: 1 });
    t.collection('jobs').put('job_1', { n: 1 });
    t.collection('payouts').put('p-1', { n: 1 });
    await t.flush();
    t.collection('payouts').put('p-2', { n: 2 });
    await t.flush();
    await first.close();
    const again = await LowdbStore.open(dir);
    try {
      const read = (await again.tenant('t1')) as MemoryTenantStore;
      expect(read.data.get('events')).toBeInstanceOf(NumberedMap);
      expect(read.data.get('jobs')).toBeInstanceOf(NumberedMap);
      expect(read.data.get('payouts')).not.toBeInstanceOf(NumberedMap);
      expect(read.collection('events').get('evt_0000000001')).toEqual({ n: 1 });
    } finally {
      await again.close();
    }
  });
});
