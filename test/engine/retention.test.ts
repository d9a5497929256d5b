// Retention and caps as a partner sees them: old settled resources and old events go (and their
// references may be used again), anything with a move still waiting stays, a key idle too long is
// forgotten (files included), and a full key is refused before anything is written. A reset of a key
// between two slices of a pass leaves the pass to go on over the key's log as it is now, as over a Map.
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { advance, createTestApp, KEY, KEY_B, type TestApp } from '../support/app.js';

const DAY = 86_400;
const payout = (reference: string, amount = 2500) => ({
  reference,
  amount,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});
const row = (n: number) => ({
  reference: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  amount: 1000,
  currency: 'NGN',
  type: 'BANK',
  category: 'SALARY',
  source: { accountNumber: '1000200030' },
  destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058' },
});
const bulk = (from: number, count: number) => ({ name: 'payroll', items: Array.from({ length: count }, (_, i) => row(from + i)) });
const BULK_HEADERS = { 'x-service-source': 'payroll' };

const status = async (t: TestApp, reference: string, key = KEY) => {
  const res = await t.call('GET', `/api/v1/partners/payouts/${reference}`, { key });
  return res.status === 200 ? res.body.data.status : res.body.error.code;
};
const ngn = async (t: TestApp, key = KEY) =>
  (await t.call('GET', '/_sandbox/balances', { key })).body.data.find((b: { key: string }) => b.key === 'NGN').available;

describe('resource retention (default 7 days of real time)', () => {
  it('drops a settled payout unchanged for longer, with its events and its reference, and keeps a newer one', async () => {
    const t = await createTestApp();
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout('old-1') })).status).toBe(201);
    await advance(t, 3600);
    t.clock.advance(6 * DAY);
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout('new-1') })).status).toBe(201);
    await advance(t, 3600);
    t.clock.advance(1.5 * DAY);
    await t.tenants.retain();

    expect(await status(t, 'old-1')).toBe('RESOURCE_NOT_FOUND');
    expect(await status(t, 'new-1')).toBe('SUCCESSFUL');
    const events = (await t.call('GET', '/_sandbox/events')).body.data.map((e: { event: string; data: { reference: string } }) => `${e.event} ${e.data.reference}`);
    expect(events).toEqual(['payout.pending new-1', 'payout.processing new-1', 'payout.successful new-1']);
    // The reference went with the payout: the same body makes a new payout, not a replay.
    const again = await t.call('POST', '/api/v1/partners/payouts', { body: payout('old-1') });
    expect([again.status, again.headers.get('idempotent-replayed'), again.body.data.status]).toEqual([201, null, 'PENDING']);
  });

  it('never drops anything because a key moved its own clock forward', async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('jump-1') });
    await advance(t, 30 * DAY);
    await t.tenants.retain();
    expect(await status(t, 'jump-1')).toBe('SUCCESSFUL');
    expect((await t.call('GET', '/_sandbox/events')).body.data).toHaveLength(3);
  });

  it('counts real time however often the clock moved meanwhile', async () => {
    const t = await createTestApp({ config: { resourceRetention: DAY } });
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('often-1') });
    await advance(t, 3600);
    // 20 hours of real time, the clock moved a day every hour: settled 20 real hours ago.
    for (let i = 0; i < 20; i++) {
      t.clock.advance(3600);
      await advance(t, DAY);
    }
    await t.tenants.retain();
    expect(await status(t, 'often-1')).toBe('SUCCESSFUL');
    t.clock.advance(5 * 3600);
    await t.tenants.retain();
    expect(await status(t, 'often-1')).toBe('RESOURCE_NOT_FOUND');
  });

  it('still drops what is old when a key moves its clock every two minutes for hours', async () => {
    const t = await createTestApp({ config: { resourceRetention: 3600 } });
    const everyTwoMinutes = async (count: number) => {
      for (let i = 0; i < count; i++) {
        t.clock.advance(120);
        await advance(t, DAY);
      }
    };
    await everyTwoMinutes(60);
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('busy-old') });
    await everyTwoMinutes(45);
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('busy-new') });
    await everyTwoMinutes(15);
    // busy-old settled 2 hours of real time ago, busy-new 30 minutes ago; the age is an hour.
    await t.tenants.retain();
    expect(await status(t, 'busy-old')).toBe('RESOURCE_NOT_FOUND');
    expect(await status(t, 'busy-new')).toBe('SUCCESSFUL');
  });

  it('keeps a resource whose next move is still waiting, however long it has been unchanged', async () => {
    const t = await createTestApp({ config: { resourceRetention: 3600 } });
    // slow-settlement: PENDING 30 minutes, then PROCESSING 3 hours.
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('slow-1'), headers: { 'x-sandbox-scenario': 'slow-settlement' } });
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('fast-1') });
    t.clock.advance(2 * 3600);
    expect(await status(t, 'slow-1')).toBe('PROCESSING');
    await t.tenants.retain();
    expect(await status(t, 'fast-1')).toBe('RESOURCE_NOT_FOUND');
    expect(await status(t, 'slow-1')).toBe('PROCESSING');
    t.clock.advance(3 * 3600);
    expect(await status(t, 'slow-1')).toBe('SUCCESSFUL');
  });

  it('drops a bulk file only with all its rows, once none has changed for the age', async () => {
    const t = await createTestApp({ config: { resourceRetention: 3600 } });
    // slow-settlement: transfers are PENDING 30 minutes, then PROCESSING 3.5 hours.
    const up = await t.call('POST', '/_sandbox/bulk-disbursements', { body: bulk(1, 3), headers: { ...BULK_HEADERS, 'x-sandbox-scenario': 'slow-settlement' } });
    expect(up.status).toBe(201);
    const statuses = async () => {
      const res = await t.call('GET', `/api/v1/transfers/bulk/${up.body.id}/transfers`, { headers: BULK_HEADERS });
      return res.status === 200 ? res.body.content.map((r: { status: string }) => r.status) : res.body.error.code;
    };
    const rowsListed = async () =>
      (await t.call('GET', '/_sandbox/resources?kind=transfers&limit=1000')).body.data.filter((r: { resource: { bulkId: string } }) => r.resource.bulkId === up.body.id).length;
    t.clock.advance(2 * 3600);
    await t.tenants.retain();
    expect(await statuses()).toEqual(['PROCESSING', 'PROCESSING', 'PROCESSING']);
    t.clock.advance(2.5 * 3600);
    await t.tenants.retain();
    expect(await statuses()).toEqual(['SUCCESSFUL', 'SUCCESSFUL', 'SUCCESSFUL']);
    expect(await rowsListed()).toBe(3);
    t.clock.advance(3600);
    await t.tenants.retain();
    // Settled 1.5 hours ago: file and rows go together.
    expect(await rowsListed()).toBe(0);
    expect(await statuses()).toBe('RESOURCE_NOT_FOUND');
    expect((await t.call('GET', `/api/v1/transfers/${row(1).reference}`, { headers: BULK_HEADERS })).status).toBe(404);
  });

  it('works in slices, giving the event loop its turn between them', async () => {
    const t = await createTestApp({ config: { resourceRetention: 3600 } });
    for (let i = 0; i < 1200; i++) await t.call('POST', '/api/v1/partners/payouts', { body: payout(`many-${i}`) });
    t.clock.advance(2 * 3600);
    const payouts = async () => (await t.call('GET', '/_sandbox/resources?kind=payouts&limit=1')).body.counts.payouts;
    expect(await payouts()).toBe(1200);
    // Turns of the event loop (where other requests' I/O runs) taken while the pass runs.
    let turns = 0;
    let finished = false;
    const turn = () => {
      if (finished) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    await t.tenants.retain();
    finished = true;
    expect(await payouts()).toBe(0);
    // 1,000 events, 1,200 payouts and 1,200 idempotency records in slices of 500.
    expect(turns).toBeGreaterThanOrEqual(6);
  });

  it('keeps everything with 0', async () => {
    const t = await createTestApp({ config: { resourceRetention: 0, tenantRetention: 0 } });
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('kept-1') });
    t.clock.advance(400 * DAY);
    await t.tenants.retain();
    expect(await status(t, 'kept-1')).toBe('SUCCESSFUL');
  });
});

describe('idle tenants (default 30 days without a request)', () => {
  it('forgets a key idle for longer entirely, and keeps a key used meanwhile', async () => {
    const t = await createTestApp({ config: { resourceRetention: 0 } });
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('idle-1', 1_000_000) });
    await t.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body: payout('busy-1', 1_000_000) });
    t.clock.advance(20 * DAY);
    await t.call('GET', '/_sandbox/balances', { key: KEY_B });
    t.clock.advance(11 * DAY);
    await t.tenants.retain();

    expect(t.tenants.stats().dropped).toBe(1);
    expect(await status(t, 'idle-1')).toBe('RESOURCE_NOT_FOUND');
    expect(await ngn(t)).toBe('500000000.00');
    expect(await status(t, 'busy-1', KEY_B)).toBe('SUCCESSFUL');
  });

  it('with --data, deletes its directory, also for a key unused since a restart', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'retention-'));
    const clock = new ManualClock();
    const config = { resourceRetention: 0, tenantRetention: 30 * DAY };
    const first = await createTestApp({ clock, config, store: await LowdbStore.open(dir) });
    await first.call('POST', '/api/v1/partners/payouts', { body: payout('gone-1') });
    await first.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body: payout('stays-1') });
    await first.store.close();
    const tenantDir = (key: string) => path.join(dir, 'tenants', tenantIdOf(key));
    expect([existsSync(tenantDir(KEY)), existsSync(tenantDir(KEY_B))]).toEqual([true, true]);

    clock.advance(31 * DAY);
    const second = await createTestApp({ clock, config, store: await LowdbStore.open(dir) });
    expect(await status(second, 'stays-1', KEY_B)).toBe('SUCCESSFUL');
    await second.tenants.retain();
    expect([existsSync(tenantDir(KEY)), existsSync(tenantDir(KEY_B))]).toEqual([false, true]);
    expect(await status(second, 'gone-1')).toBe('RESOURCE_NOT_FOUND');
    await second.store.close();
  });
});

describe('the per-key cap on stored resources', () => {
  it('refuses the create past it with 409 TENANT_FULL, writes nothing, and makes room again after a reset', async () => {
    const t = await createTestApp({ config: { maxResources: 3 } });
    for (const ref of ['cap-1', 'cap-2', 'cap-3']) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout(ref) })).status).toBe(201);
    const balance = await ngn(t);
    const events = (await t.call('GET', '/_sandbox/events')).body.data.length;

    const full = await t.call('POST', '/api/v1/partners/payouts', { body: payout('cap-4') });
    expect(full.status).toBe(409);
    expect(full.body.error).toEqual({ type: 'conflict_error', code: 'TENANT_FULL', details: [] });
    expect(full.body.message).toBe(
      'This API key holds 3 resources and this sandbox keeps at most 3 per key, so nothing more can be created. Nothing was written. ' +
        "Make room with POST /_sandbox/reset (forgets this key's resources; its scenario and webhook stay), or wait: resources unchanged for 7 days are dropped.",
    );
    expect(await ngn(t)).toBe(balance);
    expect(await status(t, 'cap-4')).toBe('RESOURCE_NOT_FOUND');
    expect((await t.call('GET', '/_sandbox/events')).body.data).toHaveLength(events);
    // A replay creates nothing, so it is still answered.
    const replay = await t.call('POST', '/api/v1/partners/payouts', { body: payout('cap-1') });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    // Another key has its own cap.
    expect((await t.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body: payout('cap-4') })).status).toBe(201);

    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout('cap-4') })).status).toBe(201);
  });

  it('counts the rows of a bulk file, and refuses a file that does not fit as a whole', async () => {
    // The demo file, asked for, is 1 file and 24 rows: 25 resources.
    const t = await createTestApp({ config: { maxResources: 40, resourceRetention: 0 } });
    expect((await t.call('POST', '/_sandbox/bulk-disbursements/demo')).status).toBe(201);
    expect((await t.call('POST', '/_sandbox/bulk-disbursements', { body: bulk(1, 10), headers: BULK_HEADERS })).status).toBe(201);
    const before = (await t.call('GET', '/_sandbox/resources')).body.counts;
    expect(before).toMatchObject({ transfers: 34, 'bulk-disbursements': 2 });

    const full = await t.call('POST', '/_sandbox/bulk-disbursements', { body: bulk(11, 4), headers: BULK_HEADERS });
    expect([full.status, full.body.error.code]).toEqual([409, 'TENANT_FULL']);
    expect(full.body.message).toMatch(/^This API key holds 36 resources and this sandbox keeps at most 40 per key, so 5 more do not fit\./);
    expect((await t.call('GET', '/_sandbox/resources')).body.counts).toEqual(before);
    expect((await t.call('GET', `/api/v1/transfers/${row(11).reference}`, { headers: BULK_HEADERS })).status).toBe(404);
    expect((await t.call('POST', '/_sandbox/bulk-disbursements', { body: bulk(11, 3), headers: BULK_HEADERS })).status).toBe(201);
  });

  it('answers a read of the demo file\'s page when the key is full: the read makes it past the cap; the control route refuses', async () => {
    const t = await createTestApp({ config: { maxResources: 3 } });
    for (const ref of ['cap-1', 'cap-2', 'cap-3']) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout(ref) })).status).toBe(201);
    const asked = await t.call('POST', '/_sandbox/bulk-disbursements/demo');
    expect([asked.status, asked.body.error.code]).toEqual([409, 'TENANT_FULL']);
    expect(asked.body.message).toMatch(/^This API key holds 3 resources and this sandbox keeps at most 3 per key, so 25 more do not fit\./);

    const read = await t.call('GET', '/api/v1/transfers/bulk/bulk_demo_salaries/transfers?size=2', { headers: BULK_HEADERS });
    expect(read.status).toBe(200);
    expect(read.body.totalElements).toBe(24);
    expect(read.body.content.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      ['trf_demo_0001', 'SUCCESSFUL'],
      ['trf_demo_0002', 'SUCCESSFUL'],
    ]);
    // Held from then on like any file, and counted: the key is past its cap, so creates stay refused.
    expect((await t.call('GET', '/_sandbox/resources?limit=1')).body.counts).toMatchObject({ payouts: 3, transfers: 24, 'bulk-disbursements': 1 });
    expect((await t.call('POST', '/_sandbox/bulk-disbursements/demo')).status).toBe(200);
    const full = await t.call('POST', '/api/v1/partners/payouts', { body: payout('cap-4') });
    expect([full.status, full.body.error.code]).toEqual([409, 'TENANT_FULL']);
    expect(full.body.message).toMatch(/^This API key holds 28 resources and this sandbox keeps at most 3 per key/);
  });
});

afterEach(() => vi.restoreAllMocks());

describe('a reset between the slices of a retention pass', () => {
  it('leaves the pass to finish over the log as it is now, keeping what was recorded since', async () => {
    const t = await createTestApp();
    const items = Array.from({ length: 400 }, (_, i) => row(i + 1));
    expect((await t.call('POST', '/_sandbox/bulk-disbursements', { body: { name: 'payroll', items }, headers: { 'x-service-source': 'payroll' } })).status).toBe(201);
    await advance(t, DAY);
    const before = (await t.call('GET', '/_sandbox/events?limit=1000')).body.data.length;
    // More than one slice of old events.
    expect(before).toBeGreaterThan(600);
    t.clock.advance(8 * DAY);
    const failed = vi.spyOn(console, 'error');
    let finished = false;
    const pass = t.tenants.retain().then(() => (finished = true));
    // The pass has dropped its first slice of events and waits for its turn: the key resets and
    // records two events.
    await new Promise((r) => setImmediate(r));
    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    for (const reference of ['after-1', 'after-2']) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout(reference) })).status).toBe(201);
    // All of that ran between two slices of the pass.
    expect(finished).toBe(false);
    await pass;
    expect(failed).not.toHaveBeenCalled();
    const events = (await t.call('GET', '/_sandbox/events')).body.data.map((e: { id: string; event: string; data: { reference: string } }) => `${e.id} ${e.event} ${e.data.reference}`);
    expect(events).toEqual(['evt_0000000001 payout.pending after-1', 'evt_0000000002 payout.pending after-2']);
  });
});

describe('a retention pass with --data', () => {
  it('writes its drops as it goes, a thousand at a time, and a restart finds them gone', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'retention-'));
    const clock = new ManualClock();
    const first = await createTestApp({ clock, store: await LowdbStore.open(dir) });
    for (let i = 0; i < 1200; i++) expect((await first.call('POST', '/api/v1/partners/payouts', { body: payout(`old-${i}`) })).status).toBe(201);
    await advance(first, 3600);
    clock.advance(8 * DAY);
    const store = [...first.tenants.loaded()][0].store;
    const flush = store.flush.bind(store);
    let flushes = 0;
    store.flush = () => ((flushes += 1), flush());
    await first.tenants.retain();
    // 1,200 payouts and their references: written in batches of a thousand drops as the pass goes,
    // where they were one batch built at its end (100,000 drops held every key some 230 ms).
    expect(flushes).toBeGreaterThanOrEqual(3);
    await first.store.close();
    const second = await createTestApp({ clock, store: await LowdbStore.open(dir) });
    expect([await status(second, 'old-0'), await status(second, 'old-1199')]).toEqual(['RESOURCE_NOT_FOUND', 'RESOURCE_NOT_FOUND']);
    await second.store.close();
  });
});
