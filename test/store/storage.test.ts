// The persistent store as a partner meets it over HTTP: files stay bounded whatever the number of
// keys, a key that only reads leaves nothing on disk, and a key whose data are damaged is refused
// with a clear 503 while every other key goes on.
import { appendFile, mkdtemp, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { KEY, KEY_B, createTestApp } from '../support/app.js';
import { fx, rejection } from '../support/fx.js';

const payout = (reference: string, amount = 1000) => ({
  reference,
  amount,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});
const keyOf = (i: number) => `sk_test_storage${String(i).padStart(6, '0')}`;
const dataDir = () => mkdtemp(path.join(tmpdir(), 'sandbox-storage-'));

/** Files of `dir` this process holds open. */
async function openFilesUnder(dir: string): Promise<string[]> {
  const links = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return links.filter((l) => l.startsWith(dir));
}

const stores: LowdbStore[] = [];
async function appOver(dir: string, opts?: Parameters<typeof LowdbStore.open>[1]) {
  const store = await LowdbStore.open(dir, opts);
  stores.push(store);
  return createTestApp({ store });
}
beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => {}));
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});

describe('files per key', () => {
  it('leaves nothing on disk for a key that only reads; its first write creates its folder', async () => {
    const dir = await dataDir();
    const t = await appOver(dir);
    expect((await t.call('GET', '/api/v1/partners/payouts/never-made')).status).toBe(404);
    expect((await t.call('GET', '/_sandbox/clock')).status).toBe(200);
    expect(await readdir(path.join(dir, 'tenants'))).toEqual([]);
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout('first') })).status).toBe(201);
    expect(await readdir(path.join(dir, 'tenants'))).toEqual([tenantIdOf(KEY)]);
    expect((await readdir(path.join(dir, 'tenants', tenantIdOf(KEY)))).sort()).toEqual(['snapshot.json', 'wal-0.jsonl']);
  });

  it('serves more keys than the cap of open logs, holding at most the cap open', async () => {
    const dir = await dataDir();
    const t = await appOver(dir, { maxOpenLogs: 4 });
    let most = 0;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 24; i++) {
        const res = await t.call('POST', '/api/v1/partners/payouts', { key: keyOf(i), body: payout(`r${round}-${i}`, 1000 + i) });
        expect(res.status).toBe(201);
        most = Math.max(most, (await openFilesUnder(dir)).length);
      }
    }
    for (let i = 0; i < 24; i++) {
      const read = await t.call('GET', `/api/v1/partners/payouts/r0-${i}`, { key: keyOf(i) });
      expect(read.body.data.amount).toBe(1000 + i);
    }
    expect(most).toBe(4);
    expect((await openFilesUnder(dir)).length).toBe(4);
    // Every key's writes are on disk, each log closed or open, and all of them load again.
    await stores[0].close();
    const again = await appOver(dir);
    for (let i = 0; i < 24; i++) {
      expect((await again.call('GET', `/api/v1/partners/payouts/r1-${i}`, { key: keyOf(i) })).body.data.amount).toBe(1000 + i);
    }
  });
});

describe('a key whose stored data are damaged', () => {
  it('answers 503 TENANT_DATA_DAMAGED naming the file while other keys work, and loads once repaired', async () => {
    const dir = await dataDir();
    const first = await appOver(dir);
    for (const key of [KEY, KEY_B]) {
      expect((await first.call('POST', '/api/v1/partners/payouts', { key, body: payout('kept') })).status).toBe(201);
    }
    await stores[0].close();
    const id = tenantIdOf(KEY);
    const wal = path.join(dir, 'tenants', id, 'wal-0.jsonl');
    const good = await readFile(wal);
    await appendFile(wal, 'null\n');

    const t = await appOver(dir);
    const res = await t.call('GET', '/api/v1/partners/payouts/kept');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: 'error',
      message:
        `The data the sandbox keeps for this API key are damaged, so it will not load them: tenants/${id}/wal-0.jsonl: ` +
        `it is ${good.length + 5} bytes, but was ${good.length} when last closed: bytes were added. Requests with this key fail ` +
        `until the sandbox's operator restores that file from a backup, or moves the folder tenants/${id} out of the data ` +
        'directory to start this key empty. Other keys are not affected.',
      error: { type: 'api_error', code: 'TENANT_DATA_DAMAGED', details: [] },
    });
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout('lost?') })).status).toBe(503);
    const xml = rejection(await fx(t, 'GET', '/listings'));
    expect(xml).toMatchObject({ status: 503, code: 'TENANT_DATA_DAMAGED' });
    expect(xml.text).toContain(`tenants/${id}/wal-0.jsonl: it is ${good.length + 5} bytes`);
    expect((await t.call('GET', '/api/v1/partners/payouts/kept', { key: KEY_B })).body.data.reference).toBe('kept');

    await writeFile(wal, good);
    const repaired = await t.call('GET', '/api/v1/partners/payouts/kept');
    expect(repaired.status).toBe(200);
    expect(repaired.body.data.amount).toBe(1000);
    expect((await t.call('GET', '/api/v1/partners/payouts/lost?')).status).toBe(404);
  });
});
