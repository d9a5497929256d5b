// Damaged tenant files: a torn last record (what a crash leaves) is cut with a warning; any other
// damage refuses that tenant with a message naming the file, never loading it with data missing.
import { appendFile, copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeHeader, headerBytes } from './file.format.js';
import { LowdbStore, StoreLoadError } from './lowdb.store.js';
import type { TenantStore } from './store.js';

const opened: LowdbStore[] = [];
const warn = vi.fn();
beforeEach(() => {
  warn.mockReset();
  vi.spyOn(console, 'warn').mockImplementation(warn);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});
async function open(dir: string, opts?: Parameters<typeof LowdbStore.open>[1]) {
  const s = await LowdbStore.open(dir, opts);
  opened.push(s);
  return s;
}

/** A tenant 't' whose log has reached generation `gen`, then `extra` more payouts; closed cleanly
 * unless `crash`, in which case its files are copied as a killed process would leave them. */
async function tenantFiles(gen: number, { extra = 5, crash = false } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-damage-'));
  const tdir = path.join(dir, 'tenants', 't');
  let s = await LowdbStore.open(dir, { compactBytes: 600 });
  let t = await s.tenant('t');
  let n = 0;
  const pay = async () => {
    t.collection('payouts').put(`p${n}`, { reference: `p${n}`, amount: String(100 + n) });
    n++;
    await t.flush();
  };
  while (!(await readdir(tdir).catch((): string[] => [])).includes(`wal-${gen}.jsonl`)) await pay();
  await s.close();
  // The writes past that generation stay in its log: no compaction before 1 MiB.
  s = await LowdbStore.open(dir, { compactBytes: 1 << 20 });
  t = await s.tenant('t');
  for (let i = 0; i < extra; i++) await pay();
  if (crash) {
    const copy = await mkdtemp(path.join(tmpdir(), 'sandbox-crashed-'));
    await mkdir(path.join(copy, 'tenants', 't'), { recursive: true });
    for (const f of await readdir(tdir)) await copyFile(path.join(tdir, f), path.join(copy, 'tenants', 't', f));
    await s.close();
    return { dir: copy, tdir: path.join(copy, 'tenants', 't'), n };
  }
  await s.close();
  return { dir, tdir, n };
}

const refusal = async (dir: string) => (await open(dir)).tenant('t').then(() => undefined, (e: unknown) => e as StoreLoadError);
const references = (t: TenantStore) => [...t.collection<{ reference: string }>('payouts').values()].map((p) => p.reference);
const all = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);

describe('damage a crash cannot make is refused, naming the file', () => {
  it('refuses a log cut in half', async () => {
    const { dir, tdir } = await tenantFiles(2, { extra: 20 });
    const wal = path.join(tdir, 'wal-2.jsonl');
    await truncate(wal, Math.floor((await stat(wal)).size / 2));
    const err = await refusal(dir);
    expect(err).toBeInstanceOf(StoreLoadError);
    expect(err!.file).toBe(wal);
    expect(err!.message).toMatch(/is \d+ bytes, but was \d+ when last closed: it was cut/);
    expect(err!.message).toContain(`move the tenant's folder (${tdir}) aside`);
  });

  it('refuses snapshot.json deleted while wal-8 remains', async () => {
    const { dir, tdir } = await tenantFiles(8);
    await rm(path.join(tdir, 'snapshot.json'));
    const err = await refusal(dir);
    expect(err!.file).toBe(path.join(tdir, 'snapshot.json'));
    expect(err!.reason).toBe('it is missing, yet wal-8.jsonl continues generation 8 of it');
  });

  it('refuses a snapshot whose walGen was edited', async () => {
    const { dir, tdir } = await tenantFiles(8);
    const snap = path.join(tdir, 'snapshot.json');
    await writeFile(snap, (await readFile(snap, 'utf8')).replace('"walGen":8', '"walGen":7'));
    const err = await refusal(dir);
    expect(err!.file).toBe(snap);
    expect(err!.reason).toMatch(/^its content does not match its checksum [0-9a-f]{8}: it was changed or damaged$/);
  });

  it('refuses a deleted log, and a deleted first log', async () => {
    const late = await tenantFiles(3);
    await rm(path.join(late.tdir, 'wal-3.jsonl'));
    expect((await refusal(late.dir))!.message).toContain(`${path.join(late.tdir, 'wal-3.jsonl')}: it is missing: snapshot.json (generation 3) continues in it`);
    const first = await tenantFiles(0);
    await rm(path.join(first.tdir, 'wal-0.jsonl'));
    expect((await refusal(first.dir))!.reason).toBe('it is missing: snapshot.json (generation 0) continues in it');
  });

  it('refuses a null line, a duplicated line and a dropped line', async () => {
    for (const edit of [
      (lines: string[]) => lines.splice(3, 0, 'null'),
      (lines: string[]) => lines.splice(3, 0, lines[2]),
      (lines: string[]) => lines.splice(2, 1),
    ]) {
      const { dir, tdir } = await tenantFiles(1, { extra: 6 });
      const wal = path.join(tdir, 'wal-1.jsonl');
      const lines = (await readFile(wal, 'utf8')).split('\n');
      edit(lines);
      await writeFile(wal, lines.join('\n'));
      const err = await refusal(dir);
      expect(err!.file).toBe(wal);
      expect(err!.reason).toMatch(/when last closed|does not match its checksum|where record \d+ belongs/);
    }
  });

  it('refuses a log of a generation that does not follow the snapshot', async () => {
    const { dir, tdir } = await tenantFiles(4);
    await copyFile(path.join(tdir, 'wal-4.jsonl'), path.join(tdir, 'wal-6.jsonl'));
    const err = await refusal(dir);
    expect(err!.file).toBe(path.join(tdir, 'wal-6.jsonl'));
    expect(err!.reason).toBe('generation 6 does not follow snapshot.json (generation 4): a generation between them is missing');
  });

  it('refuses a log renamed to another generation, and an older snapshot under newer logs', async () => {
    const renamed = await tenantFiles(2);
    await rename(path.join(renamed.tdir, 'wal-2.jsonl'), path.join(renamed.tdir, 'wal-3.jsonl'));
    expect((await refusal(renamed.dir))!.reason).toBe('it is missing: snapshot.json (generation 2) continues in it');

    const { dir, tdir } = await tenantFiles(1, { extra: 0 });
    const old = await readFile(path.join(tdir, 'snapshot.json'));
    const s = await open(dir, { compactBytes: 600 });
    const t = await s.tenant('t');
    for (let i = 0; !(await readdir(tdir)).includes('wal-2.jsonl') || i < 3; i++) {
      t.collection('payouts').put(`q${i}`, { reference: `q${i}` });
      await t.flush();
    }
    await s.close();
    await writeFile(path.join(tdir, 'snapshot.json'), old);
    const err = await refusal(dir);
    expect(err!.message).toContain(`${path.join(tdir, 'wal-1.jsonl')}: it is missing`);
  });

  it('does not keep a failed load: once the file is restored the tenant loads, without a restart', async () => {
    const { dir, tdir, n } = await tenantFiles(1);
    const wal = path.join(tdir, 'wal-1.jsonl');
    const good = await readFile(wal);
    await appendFile(wal, 'null\n');
    const s = await open(dir);
    await expect(s.tenant('t')).rejects.toThrow(`${wal}: it is ${good.length + 5} bytes, but was ${good.length} when last closed: bytes were added`);
    await expect(s.tenant('t')).rejects.toBeInstanceOf(StoreLoadError);
    await writeFile(wal, good);
    expect(references(await s.tenant('t'))).toEqual(all(n));
  });
});

describe('what a crash leaves loads exactly', () => {
  it('cuts a torn last record with a warning naming the file, and keeps every acknowledged write', async () => {
    const { dir, tdir, n } = await tenantFiles(1, { crash: true });
    const wal = path.join(tdir, 'wal-1.jsonl');
    await appendFile(wal, 'c0ffee00 99 {"c":"payouts","op":"put","id":"torn","v":{"ref');
    const t = await (await open(dir)).tenant('t');
    expect(references(t)).toEqual(all(n));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`${wal}: cutting 59 bytes of a last record an interrupted write left incomplete`));
    t.collection('payouts').put('after', { reference: 'after' });
    await t.flush();
    expect(references(await (await open(dir)).tenant('t'))).toEqual([...all(n), 'after']);
  });

  it('loads the files an interrupted compaction leaves: a next log with no record, an older log', async () => {
    const { dir, tdir, n } = await tenantFiles(3, { crash: true });
    const next = path.join(tdir, 'wal-4.jsonl');
    await writeFile(next, encodeHeader({ gen: 4, snapshot: '0badf00d', closed: 1, length: headerBytes(4) }));
    await writeFile(path.join(tdir, 'wal-2.jsonl'), 'an older log the snapshot already holds\n');
    const t = await (await open(dir, { compactBytes: 600 })).tenant('t');
    expect(references(t)).toEqual(all(n));
    for (let i = 0; i < 10; i++) {
      t.collection('payouts').put(`r${i}`, { reference: `r${i}` });
      await t.flush();
    }
    expect(references(await (await open(dir)).tenant('t'))).toEqual([...all(n), ...Array.from({ length: 10 }, (_, i) => `r${i}`)]);
  });
});

describe('the data directory', () => {
  it('ignores files it did not write, with a warning, and loads the tenants beside them', async () => {
    const { dir, tdir, n } = await tenantFiles(0);
    await writeFile(path.join(dir, 'tenants', 'README'), 'keys of the CI jobs\n');
    await writeFile(path.join(dir, 'notes.txt'), '');
    await writeFile(path.join(tdir, 'backup.json'), '{}');
    const s = await open(dir);
    expect(warn).toHaveBeenCalledWith(`[sandbox] ignoring ${path.join(dir, 'tenants', 'README')}: not part of the sandbox's data`);
    expect(warn).toHaveBeenCalledWith(`[sandbox] ignoring ${path.join(dir, 'notes.txt')}: not part of the sandbox's data`);
    expect(references(await s.tenant('t'))).toEqual(all(n));
    expect(warn).toHaveBeenCalledWith(`[sandbox] ignoring ${path.join(tdir, 'backup.json')}: not a file the sandbox writes`);
  });

  it('writes nothing for a tenant that is only read from', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-read-'));
    const s = await open(dir);
    const t = await s.tenant('reader');
    expect(t.collection('payouts').get('p0')).toBeUndefined();
    await t.flush();
    await s.evict('reader');
    expect(await readdir(path.join(dir, 'tenants'))).toEqual([]);
  });
});

describe('files of the earlier format', () => {
  const legacy = async (lines: string[]) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-legacy-'));
    const tdir = path.join(dir, 'tenants', 't');
    await mkdir(tdir, { recursive: true });
    await writeFile(path.join(tdir, 'snapshot.json'), JSON.stringify({ version: 1, walGen: 3, collections: { payouts: [['p0', { reference: 'p0' }]] } }, null, 2));
    await writeFile(path.join(tdir, 'wal-3.jsonl'), lines.join('\n'));
    return { dir, tdir };
  };

  it('loads them as they read and rewrites them in the checked format', async () => {
    const { dir, tdir } = await legacy(['{"c":"payouts","op":"put","id":"p1","v":{"reference":"p1"}}', '{"c":"payouts","op":"put","id":"p2","v":{"ref']);
    expect(references(await (await open(dir)).tenant('t'))).toEqual(['p0', 'p1']);
    expect((await readdir(tdir)).sort()).toEqual(['snapshot.json', 'wal-4.jsonl']);
    expect(JSON.parse(await readFile(path.join(tdir, 'snapshot.json'), 'utf8'))).toMatchObject({ version: 2, walGen: 4 });
    expect(warn).toHaveBeenCalledWith(`[sandbox] ${tdir}: rewrote files of an earlier version of the sandbox in the self-checking format`);
    expect(references(await (await open(dir)).tenant('t'))).toEqual(['p0', 'p1']);
  });

  it('refuses a null line in them, naming the file', async () => {
    const { dir, tdir } = await legacy(['null', '{"c":"payouts","op":"put","id":"p1","v":{}}', '']);
    const err = await refusal(dir);
    expect(err!.message).toContain(`${path.join(tdir, 'wal-3.jsonl')}: line 1 is not a sandbox write (null)`);
  });
});
