// The pool of open logs: writers of more tenants than the cap, all at once, each get every write
// kept, and never more than the cap of logs is open.
import { mkdtemp, readdir, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { LowdbStore } from './lowdb.store.js';

async function openUnder(dir: string): Promise<number> {
  const links = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return links.filter((l) => l.startsWith(dir) && l.endsWith('.jsonl')).length;
}

it('serves concurrent writers of 12 tenants through 2 open logs, keeping every write', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-pool-'));
  const store = await LowdbStore.open(dir, { maxOpenLogs: 2, compactBytes: 2000 });
  let most = 0;
  const writer = async (n: number) => {
    const t = await store.tenant(`t${n}`);
    for (let i = 0; i < 30; i++) {
      t.collection('x').put(`k${i}`, { n, i });
      await t.flush();
      most = Math.max(most, store.logs.size);
    }
  };
  const watch = setInterval(() => void openUnder(dir).then((n) => (most = Math.max(most, n))), 1);
  await Promise.all(Array.from({ length: 12 }, (_, n) => writer(n)));
  clearInterval(watch);
  expect(most).toBe(2);
  expect(await openUnder(dir)).toBe(2);
  await store.close();
  expect(await openUnder(dir)).toBe(0);
  const again = await LowdbStore.open(dir);
  for (let n = 0; n < 12; n++) {
    const x = (await again.tenant(`t${n}`)).collection<{ n: number; i: number }>('x');
    expect([...x.values()]).toEqual(Array.from({ length: 30 }, (_, i) => ({ n, i })));
  }
  await again.close();
});
