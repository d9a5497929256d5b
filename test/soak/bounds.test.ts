// What keeps a long-running sandbox's memory flat: stored idempotency responses, the event log and
// the journal are bounded per tenant, and idle tenants leave memory under --max-tenants with --data.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/engine/requests/idempotency.js';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { advance, createTestApp, KEY, type TestApp } from '../support/app.js';

const payout = (reference: string, amount = 2500) => ({
  reference,
  amount,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});
const keyOf = (i: number) => `sk_test_bounds${String(i).padStart(26, '0')}`;
const kept = LIMITS.responsesKept;
afterEach(() => {
  LIMITS.responsesKept = kept;
});

async function collectionSize(t: TestApp, name: string, key = KEY) {
  return (await t.store.tenant(tenantIdOf(key))).collection(name).size;
}

describe('idempotency records', () => {
  it('keep full responses for the newest ones only, and replay older ones from the resource', async () => {
    LIMITS.responsesKept = 5;
    const t = await createTestApp();
    for (let i = 1; i <= 8; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout(`idem-${i}`) })).status).toBe(201);
    expect(await collectionSize(t, 'idempotency_kept:payout')).toBe(5);
    expect(await collectionSize(t, 'idempotency:payout')).toBe(8);
    await advance(t, 3600);

    const old = await t.call('POST', '/api/v1/partners/payouts', { body: payout('idem-1') });
    expect(old.status).toBe(201);
    expect(old.headers.get('idempotent-replayed')).toBe('true');
    expect(old.body).toMatchObject({ status: 'success', message: 'Payout initiated successfully', data: { reference: 'idem-1', status: 'SUCCESSFUL' } });
    const recent = await t.call('POST', '/api/v1/partners/payouts', { body: payout('idem-8') });
    expect(recent.headers.get('idempotent-replayed')).toBe('true');
    expect(recent.body.data).toMatchObject({ reference: 'idem-8', status: 'PENDING' });

    const conflict = await t.call('POST', '/api/v1/partners/payouts', { body: payout('idem-1', 9999) });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const events = await t.call('GET', '/_sandbox/events?type=payout.pending&limit=100');
    expect(events.body.data).toHaveLength(8);
  });

  it('keep the newest responses per resource kind: creations of another kind do not push them out', async () => {
    LIMITS.responsesKept = 2;
    const t = await createTestApp();
    for (let i = 1; i <= 2; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout(`kind-${i}`) })).status).toBe(201);
    expect((await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'usdc:base', amount: 1000 } })).status).toBe(200);
    const wallet = (n: number) => ({ reference: `kind-w${n}`, chain: 'base', asset: 'usdc', amount: 10, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' });
    for (let i = 1; i <= 3; i++) expect((await t.call('POST', '/api/v1/partners/wallets/payouts', { body: wallet(i) })).status).toBe(201);
    await advance(t, 3600);
    // Both payouts are still among the newest two payouts: replayed as first answered, not as they stand.
    const replay = await t.call('POST', '/api/v1/partners/payouts', { body: payout('kind-1') });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toMatchObject({ reference: 'kind-1', status: 'PENDING' });
    // The first wallet payout is not: it is answered from the resource as it stands.
    const old = await t.call('POST', '/api/v1/partners/wallets/payouts', { body: wallet(1) });
    expect(old.headers.get('idempotent-replayed')).toBe('true');
    expect(old.body.status).not.toBe('PENDING');
    const recent = await t.call('POST', '/api/v1/partners/wallets/payouts', { body: wallet(3) });
    expect(recent.body.status).toBe('PENDING');
  });

  it('replays an old withdrawal by its Idempotency-Key with the same reference', async () => {
    LIMITS.responsesKept = 1;
    const t = await createTestApp();
    const body = (n: number) => ({ accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9', accountName: 'John Doe', accountNumber: '0123456789', amount: 1000 + n, bankCode: 'SPB-17646' });
    const first = await t.call('POST', '/api/v1/partners/withdrawal', { body: body(1), headers: { 'idempotency-key': 'k-1' } });
    await t.call('POST', '/api/v1/partners/withdrawal', { body: body(2), headers: { 'idempotency-key': 'k-2' } });
    const again = await t.call('POST', '/api/v1/partners/withdrawal', { body: body(1), headers: { 'idempotency-key': 'k-1' } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.reference).toBe(first.body.reference);
    expect(again.body.amount).toBe(1001);
  });
});

describe('per-tenant logs', () => {
  it('keep the event log and the journal at their configured sizes', async () => {
    const t = await createTestApp({ config: { eventLogSize: 30, journalSize: 10 } });
    for (let i = 0; i < 40; i++) await t.call('POST', '/api/v1/partners/payouts', { body: payout(`log-${i}`) });
    expect(await collectionSize(t, 'events')).toBe(30);
    const events = await t.call('GET', '/_sandbox/events?limit=1000');
    expect(events.body.data).toHaveLength(30);
    expect(events.body.data.at(-1).data.reference).toBe('log-39');
    const journal = await t.call('GET', '/_sandbox/requests?limit=1000');
    expect(journal.status).toBe(200);
    expect(journal.body.data).toHaveLength(10);
  });
});

describe('--max-tenants', () => {
  it('unloads the least recently used idle tenants with --data and reloads them on their next request', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-evict-'));
    const t = await createTestApp({ store: await LowdbStore.open(dir), config: { maxTenants: 3 } });
    for (let i = 0; i < 10; i++) {
      const res = await t.call('POST', '/api/v1/partners/payouts', { key: keyOf(i), body: payout(`evict-${i}`, 1000 + i) });
      expect(res.status).toBe(201);
      await advance(t, 60 * (i + 1), keyOf(i));
      expect(t.tenants.stats().loaded).toBeLessThanOrEqual(3);
    }
    expect(t.tenants.stats().evictions).toBeGreaterThanOrEqual(7);
    for (let i = 0; i < 10; i++) {
      const key = keyOf(i);
      // Its journal came back with it: the create made before it was unloaded.
      const journal = (await t.call('GET', '/_sandbox/requests?limit=5', { key })).body.data;
      expect(journal.map((e: { id: string; path: string }) => `${e.id} ${e.path}`)).toEqual(['req_1 /api/v1/partners/payouts']);
      const read = await t.call('GET', `/api/v1/partners/payouts/evict-${i}`, { key });
      expect(read.status).toBe(200);
      expect(read.body.data.amount).toBe(1000 + i);
      expect((await t.call('GET', '/_sandbox/clock', { key })).body.offsetSeconds).toBe(60 * (i + 1));
      const replay = await t.call('POST', '/api/v1/partners/payouts', { key, body: payout(`evict-${i}`, 1000 + i) });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.reference).toBe(`evict-${i}`);
    }
    expect(t.tenants.stats().loaded).toBeLessThanOrEqual(3);
    expect((t.store as LowdbStore).tenantIds().length).toBeLessThanOrEqual(4);
    await t.store.close();
  });

  it('never unloads tenants of the memory store, whose data exist nowhere else', async () => {
    const t = await createTestApp({ config: { maxTenants: 2 } });
    for (let i = 0; i < 5; i++) await t.call('POST', '/api/v1/partners/payouts', { key: keyOf(i), body: payout(`mem-${i}`) });
    expect(t.tenants.stats()).toEqual({ loaded: 5, evictions: 0, dropped: 0 });
    expect((await t.call('GET', '/api/v1/partners/payouts/mem-0', { key: keyOf(0) })).status).toBe(200);
  });

  it('opens a data directory with more tenants than the limit without loading any; each loads on first use', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-evict-'));
    const first = await LowdbStore.open(dir);
    for (let i = 0; i < 6; i++) (await first.tenant(`t${i}`)).collection('x').put('a', i);
    await first.close();
    const store = await LowdbStore.open(dir);
    expect(store.tenantIds()).toHaveLength(0);
    expect((await store.tenant('t5')).collection('x').get('a')).toBe(5);
    expect(store.tenantIds()).toEqual(['t5']);
    await store.close();
  });
});
