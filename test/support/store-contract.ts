// The Store contract: what a service may rely on from any Store, run by each store's test file
// (memory and lowdb in the unit tests, PostgreSQL with the tests that start a database).
import { describe, expect, it } from 'vitest';
import { SEGMENT } from '../../src/kernel/segmented-map.js';
import type { Store } from '../../src/store/store.js';

export function storeContract(stores: [string, () => Promise<Store>][]): void {
  describe.each(stores)('%s store contract', (_name, make) => {
    it('keeps the instant of its first start as its origin', async () => {
      const store = await make();
      expect(await store.origin(1_000)).toBe(1_000);
      expect(await store.origin(61_000)).toBe(1_000);
      await store.close();
    });

    it('puts, gets, lists in insertion order, removes and counts', async () => {
      const store = await make();
      const t = await store.tenant('t1');
      const c = t.collection<{ n: number }>('things');
      c.put('b', { n: 1 });
      c.put('a', { n: 2 });
      c.put('10', { n: 3 });
      c.put('b', { n: 4 });
      expect(c.get('b')).toEqual({ n: 4 });
      expect(c.has('a')).toBe(true);
      expect([...c.keys()]).toEqual(['b', 'a', '10']);
      expect([...c.values()].map((v) => v.n)).toEqual([4, 2, 3]);
      expect(c.size).toBe(3);
      c.remove('a');
      c.remove('missing');
      expect(c.get('a')).toBeUndefined();
      expect(c.size).toBe(2);
      await t.flush();
      await store.close();
    });

    it('keeps insertion order, puts and removes in a collection past one segment of its map', async () => {
      const store = await make();
      const t = await store.tenant('t1');
      const n = SEGMENT * 2 + 10;
      for (const name of ['things', 'jobs']) {
        const c = t.collection<{ n: number }>(name);
        const id = (i: number) => (name === 'jobs' ? `job_${i}` : `thing-${i}`);
        for (let i = 0; i < n; i++) c.put(id(i), { n: i });
        c.put(id(2), { n: -2 });
        c.remove(id(SEGMENT + 3));
        c.remove(id(5));
        c.put(id(5), { n: 5 });
        const keys = [...c.keys()];
        expect(c.size).toBe(n - 1);
        expect(keys.slice(0, 5)).toEqual([0, 1, 2, 3, 4].map(id));
        expect(keys.at(-1)).toBe(id(5));
        expect([c.get(id(2)), c.has(id(SEGMENT + 3)), c.get(id(n - 1))]).toEqual([{ n: -2 }, false, { n: n - 1 }]);
      }
      await t.flush();
      await store.close();
    });

    it('gives each tenant its own collections', async () => {
      const store = await make();
      const a = await store.tenant('a');
      const b = await store.tenant('b');
      a.collection('x').put('1', 'from a');
      expect(b.collection('x').get('1')).toBeUndefined();
      expect(await store.tenant('a')).toBe(a);
      expect(store.tenantIds().sort()).toEqual(['a', 'b']);
      await store.close();
    });

    it('drops a tenant entirely: the next use starts it empty, the others keep theirs', async () => {
      const store = await make();
      const a = await store.tenant('a');
      a.collection('x').put('1', 'from a');
      await a.flush();
      (await store.tenant('b')).collection('x').put('1', 'from b');
      await store.drop('a');
      expect(store.tenantIds()).toEqual(['b']);
      expect((await store.tenant('a')).collection('x').size).toBe(0);
      expect((await store.tenant('b')).collection('x').get('1')).toBe('from b');
      await store.close();
    });

    it('clears one collection or a whole tenant', async () => {
      const store = await make();
      const t = await store.tenant('t');
      t.collection('x').put('1', 1);
      t.collection('y').put('1', 2);
      t.collection('x').clear();
      expect(t.collection('x').size).toBe(0);
      expect(t.collection('y').get('1')).toBe(2);
      t.clear();
      expect(t.collection('y').size).toBe(0);
      t.collection('y').put('2', 3);
      expect(t.collection('y').get('2')).toBe(3);
      await store.close();
    });
  });

}
