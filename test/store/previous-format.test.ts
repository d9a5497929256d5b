// A --data directory written by the version before the memory format (fixtures/previous-format,
// written by fixtures/generate.mjs from that version's sources: idempotency records keyed
// <scope>:<reference> with text fingerprints, jobs and events as plain objects) loads and is served
// as that version served it: reads, replays byte for byte, conflicts, moves that fall due, event ids
// going on, and a restart after this version wrote to it.
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { advance, createTestApp } from '../support/app.js';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'previous-format');

interface Answer {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
  status: number;
  text: string;
}

const stores: LowdbStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

async function open(dir: string, clock: ManualClock) {
  const store = await LowdbStore.open(dir);
  stores.push(store);
  return createTestApp({ store, clock });
}

describe('--data written by the previous version', () => {
  it('loads, replays its creations byte for byte and goes on where it stopped', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbox-previous-'));
    await cp(path.join(FIXTURE, 'tenants'), path.join(dir, 'tenants'), { recursive: true });
    const answers = JSON.parse(await readFile(path.join(FIXTURE, 'answers.json'), 'utf8')) as Answer[];
    const creations = answers.filter((a) => a.status === 201);
    expect(creations.map((a) => a.path)).toEqual([
      '/api/v1/partners/payouts',
      '/api/v1/partners/payouts',
      '/api/v1/partners/wallets/payouts',
      '/api/v1/partners/withdrawal',
    ]);
    // The fixture was written at the manual clock's start, the clock then advanced 600 s.
    const clock = new ManualClock();
    let t = await open(dir, clock);

    const settled = await t.call('GET', '/api/v1/partners/payouts/fixture-settled');
    expect(settled.status).toBe(200);
    expect(settled.body.data).toMatchObject({ reference: 'fixture-settled', status: 'SUCCESSFUL', createdAt: '2026-01-15T09:00:00.000Z' });
    for (const a of creations) {
      const again = await t.call(a.method, a.path, { body: a.body, headers: a.headers });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(a.text);
    }
    const other = await t.call('POST', '/api/v1/partners/payouts', { body: { ...(creations[0].body as object), amount: 2000 } });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const otherKey = await t.call('POST', '/api/v1/partners/withdrawal', { body: { ...(creations[3].body as object), amount: 2000 }, headers: creations[3].headers });
    expect(otherKey.status).toBe(409);

    // The pending payout's stored job moves it on; new events number on from the stored ones.
    await advance(t, 600);
    expect((await t.call('GET', '/api/v1/partners/payouts/fixture-pending')).body.data.status).toBe('SUCCESSFUL');
    const events = await t.call('GET', '/_sandbox/events?limit=100');
    const ids = events.body.data.map((e: { id: string }) => e.id);
    expect(ids.slice(0, 6)).toEqual(['evt_0000000001', 'evt_0000000002', 'evt_0000000003', 'evt_0000000004', 'evt_0000000005', 'evt_0000000006']);
    expect(ids.slice(6, 8)).toEqual(['evt_0000000007', 'evt_0000000008']);
    expect(events.body.data[6]).toMatchObject({ event: 'payout.processing', data: { reference: 'fixture-pending' } });

    // This version's writes beside the previous one's, across a restart.
    const fresh = await t.call('POST', '/api/v1/partners/payouts', { body: { ...(creations[0].body as object), reference: 'after-upgrade' } });
    expect(fresh.status).toBe(201);
    await Promise.all(stores.splice(0).map((s) => s.close()));
    t = await open(dir, clock);
    for (const [a, text] of [
      [creations[0], creations[0].text],
      [{ ...creations[0], body: { ...(creations[0].body as object), reference: 'after-upgrade' } }, fresh.text],
    ] as const) {
      const again = await t.call(a.method, a.path, { body: a.body, headers: a.headers });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(text);
    }
    const next = await t.call('POST', '/api/v1/partners/payouts', { body: { ...(creations[0].body as object), reference: 'after-restart' } });
    expect(next.status).toBe(201);
    const last = (await t.call('GET', '/_sandbox/events?limit=100')).body.data.at(-1);
    expect(last).toMatchObject({ event: 'payout.pending', data: { reference: 'after-restart' } });
    expect(Number(last.id.slice(4))).toBeGreaterThan(8);
  });
});
