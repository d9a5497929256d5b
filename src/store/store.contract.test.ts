// The store contract on the memory and lowdb stores (PostgreSQL's is postgres.contract.test.ts, with the
// tests that start a database), and what the lowdb files keep across a crash.
import { appendFile, mkdtemp, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeContract } from '../../test/support/store-contract.js';
import { LowdbStore, StoreLoadError } from './lowdb.store.js';
import { MemoryStore } from './memory.store.js';
import type { Store } from './store.js';

const tmp = () => mkdtemp(path.join(tmpdir(), 'sandbox-store-'));

// Stores a test leaves open on purpose (a process that "crashed") are closed after it, so no
// file handle is left to the garbage collector.
const opened: Store[] = [];
async function openLowdb(dir: string, opts?: Parameters<typeof LowdbStore.open>[1]): Promise<LowdbStore> {
  const store = await LowdbStore.open(dir, opts);
  opened.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const stores: [string, () => Promise<Store>][] = [
  ['memory', async () => new MemoryStore()],
  ['lowdb', async () => openLowdb(await tmp())],
];

storeContract(stores);

describe('lowdb store durability', () => {
  it('keeps the origin across a reopen, and refuses a damaged origin file by name', async () => {
    const dir = await tmp();
    expect(await (await openLowdb(dir)).origin(5_000)).toBe(5_000);
    expect(await (await openLowdb(dir)).origin(9_000)).toBe(5_000);
    await writeFile(path.join(dir, 'sandbox.json'), '{"origin":');
    await expect((await openLowdb(dir)).origin(9_000)).rejects.toThrow(`Cannot read ${path.join(dir, 'sandbox.json')}: it holds no {"origin": ms}`);
  });

  it('finds every flushed write after a reopen, in order', async () => {
    const dir = await tmp();
    const s1 = await openLowdb(dir);
    const t = await s1.tenant('t');
    const c = t.collection<{ v: number }>('payouts');
    for (let i = 0; i < 50; i++) c.put(`p${i}`, { v: i });
    c.remove('p3');
    t.collection('other').put('k', 'v');
    t.collection('other').clear();
    await t.flush();
    const s2 = await openLowdb(dir);
    const c2 = (await s2.tenant('t')).collection<{ v: number }>('payouts');
    expect(c2.size).toBe(49);
    expect(c2.get('p49')).toEqual({ v: 49 });
    expect(c2.has('p3')).toBe(false);
    expect([...c2.keys()].slice(0, 4)).toEqual(['p0', 'p1', 'p2', 'p4']);
    expect((await s2.tenant('t')).collection('other').size).toBe(0);
  });

  it('compacts the log into a snapshot and keeps everything', async () => {
    const dir = await tmp();
    const s1 = await openLowdb(dir, { compactBytes: 2048 });
    const t = await s1.tenant('t');
    for (let i = 0; i < 200; i++) {
      t.collection('x').put(`k${i}`, { i, pad: 'x'.repeat(50) });
      await t.flush();
    }
    const files = await readdir(path.join(dir, 'tenants', 't'));
    expect(files).toContain('snapshot.json');
    const walFiles = files.filter((f) => f.startsWith('wal-'));
    expect(walFiles).toHaveLength(1);
    expect(walFiles[0]).not.toBe('wal-0.jsonl');
    const snap = JSON.parse(await readFile(path.join(dir, 'tenants', 't', 'snapshot.json'), 'utf8'));
    expect(snap.version).toBe(2);
    const s2 = await openLowdb(dir);
    const x = (await s2.tenant('t')).collection<{ i: number }>('x');
    expect(x.size).toBe(200);
    expect(x.get('k199')?.i).toBe(199);
  });

  it('ignores a torn last log line (a write never acknowledged)', async () => {
    const dir = await tmp();
    const s1 = await openLowdb(dir);
    const t = await s1.tenant('t');
    t.collection('x').put('a', 1);
    await t.flush();
    await appendFile(path.join(dir, 'tenants', 't', 'wal-0.jsonl'), '6c0b8a02 2 {"c":"x","op":"put","id":"b","v":');
    const s2 = await openLowdb(dir);
    const t2 = await s2.tenant('t');
    const x = t2.collection('x');
    expect(x.get('a')).toBe(1);
    expect(x.has('b')).toBe(false);
    // the torn tail is cut off, so writes after the restart survive the next one
    x.put('c', 3);
    await t2.flush();
    const s3 = await openLowdb(dir);
    const x3 = (await s3.tenant('t')).collection('x');
    expect([...x3.keys()]).toEqual(['a', 'c']);
  });

  it('treats a complete last write without its newline as torn', async () => {
    const dir = await tmp();
    const s1 = await openLowdb(dir);
    const t = await s1.tenant('t');
    t.collection('x').put('a', 1);
    await t.flush();
    t.collection('x').put('b', 2);
    await t.flush();
    const wal = path.join(dir, 'tenants', 't', 'wal-0.jsonl');
    await truncate(wal, (await stat(wal)).size - 1);
    const t2 = await (await openLowdb(dir)).tenant('t');
    expect(t2.collection('x').has('b')).toBe(false);
    t2.collection('x').put('c', 3);
    await t2.flush();
    const x3 = (await (await openLowdb(dir)).tenant('t')).collection('x');
    expect([...x3.keys()]).toEqual(['a', 'c']);
  });

  it('refuses a tenant whose snapshot is damaged, naming the file and the way out', async () => {
    const dir = await tmp();
    const s1 = await openLowdb(dir, { compactBytes: 100 });
    const t = await s1.tenant('t');
    for (let i = 0; i < 3; i++) {
      t.collection('x').put(`k${i}`, i);
      await t.flush();
    }
    await s1.close();
    const file = path.join(dir, 'tenants', 't', 'snapshot.json');
    await writeFile(file, '{"version": 2, "walGen": 0, "collec');
    const err = await (await openLowdb(dir)).tenant('t').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreLoadError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain('Restore the file from a backup');
  });

  it('refuses a damaged line in the middle of the log', async () => {
    const dir = await tmp();
    const s1 = await openLowdb(dir);
    const t = await s1.tenant('t');
    t.collection('x').put('a', 1);
    await t.flush();
    t.collection('x').put('b', 2);
    await t.flush();
    const wal = path.join(dir, 'tenants', 't', 'wal-0.jsonl');
    const lines = (await readFile(wal, 'utf8')).split('\n');
    lines[1] = 'garbage';
    await writeFile(wal, lines.join('\n'));
    await expect((await openLowdb(dir)).tenant('t')).rejects.toThrow(/record 1 \(line 2\) does not match its checksum/);
  });
});
