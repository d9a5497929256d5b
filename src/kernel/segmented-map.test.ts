import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberShard, SEGMENT, SegmentedMap, textShard } from './segmented-map.js';

type Op = { op: 'set'; key: string; value: number } | { op: 'delete'; key: string } | { op: 'clear' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('set' as const), key: fc.integer({ min: 0, max: 40 }).map(String), value: fc.integer() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 40 }).map(String) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
);

describe('SegmentedMap', () => {
  it('behaves as a Map over any run of sets, deletes and clears, segments of 3 entries', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const model = new Map<string, number>();
        const m = new SegmentedMap<string, number>(textShard, 3);
        for (const o of ops) {
          if (o.op === 'set') {
            expect(m.set(o.key, o.value)).toBe(m);
            model.set(o.key, o.value);
          } else if (o.op === 'delete') expect(m.delete(o.key)).toBe(model.delete(o.key));
          else (m.clear(), model.clear());
          expect(m.size).toBe(model.size);
        }
        expect([...m]).toEqual([...model]);
        expect([...m.keys()]).toEqual([...model.keys()]);
        expect([...m.values()]).toEqual([...model.values()]);
        for (let k = 0; k <= 40; k++) {
          expect(m.get(String(k))).toBe(model.get(String(k)));
          expect(m.has(String(k))).toBe(model.has(String(k)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps insertion order past one full segment: a key set again stays, one deleted and set again goes last', () => {
    const m = new SegmentedMap<number, string>(numberShard);
    for (let i = 0; i < SEGMENT * 2 + 5; i++) m.set(i, `v${i}`);
    m.set(3, 'again');
    m.delete(SEGMENT + 1);
    m.delete(7);
    m.set(7, 'last');
    const keys = [...m.keys()];
    expect(m.size).toBe(SEGMENT * 2 + 4);
    expect(keys.slice(0, 8)).toEqual([0, 1, 2, 3, 4, 5, 6, 8]);
    expect(keys.at(-1)).toBe(7);
    expect(keys.includes(SEGMENT + 1)).toBe(false);
    expect([m.get(3), m.get(7), m.get(SEGMENT + 1), m.get(SEGMENT * 2 + 4)]).toEqual(['again', 'last', undefined, `v${SEGMENT * 2 + 4}`]);
  });

  it('lets an iterator delete every entry it passes, and sees entries added while it runs', () => {
    const m = new SegmentedMap<string, number>(textShard, 4);
    for (let i = 0; i < 10; i++) m.set(`k${i}`, i);
    const seen: string[] = [];
    for (const key of m.keys()) {
      seen.push(key);
      m.delete(key);
      if (key === 'k9') m.set('k10', 10);
    }
    expect(seen).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9', 'k10']);
    expect(m.size).toBe(0);
  });

  it('ends a running iterator at clear(), as a Map does', () => {
    const m = new SegmentedMap<string, number>(textShard, 2);
    for (let i = 0; i < 6; i++) m.set(`k${i}`, i);
    const it = m.values();
    expect(it.next().value).toBe(0);
    m.clear();
    expect(it.next().done).toBe(true);
    expect(m.size).toBe(0);
    // One still in the first segment goes on with what is added after the clear.
    const plain = new Map([['a', 1]]);
    const segmented = new SegmentedMap<string, number>(textShard, 2).set('a', 1);
    const [p, s] = [plain.keys(), segmented.keys()];
    plain.clear();
    segmented.clear();
    plain.set('x', 2);
    segmented.set('x', 2);
    expect([...s]).toEqual([...p]);
    expect([...segmented.keys()]).toEqual(['x']);
  });

  it('spreads counters and ids evenly over its shards', () => {
    const counts = (shards: number[]) => {
      const n = new Array<number>(64).fill(0);
      for (const s of shards) n[s]!++;
      return [Math.min(...n), Math.max(...n)];
    };
    const [min, max] = counts(Array.from({ length: 64_000 }, (_, i) => textShard(`0000beef-0000-4000-8000-${i.toString(16).padStart(12, '0')}`)));
    expect(min).toBeGreaterThan(800);
    expect(max).toBeLessThan(1200);
    expect(counts(Array.from({ length: 6_400 }, (_, i) => numberShard(i + 1)))).toEqual([100, 100]);
  });
});
