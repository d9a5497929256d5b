// Moves that fall due in thousands at one instant are applied a slice at a time, whoever applies
// them: a key's own request (a clock held frozen over 20,000 creations, then let go, held every key's
// requests 230 ms as the key's next request caught up in one go), and a bulk file's move (one job
// moved all 10,000 rows of a file: 100 ms an advance or a background tick, 170 ms for three files).
// The turns of the event loop that pass while it runs count the slices; the moves are all applied,
// in order.
import { describe, expect, it } from 'vitest';
import { createTestApp, KEY_B, payoutRequest, type TestApp } from '../support/app.js';
import { bulkReference, bulkRow } from '../support/bulk.js';
import { turnsDuring } from '../support/turns.js';

const SOURCE = { 'x-service-source': 'payroll-service' };

async function upload(t: TestApp, rows: number): Promise<string> {
  const items = Array.from({ length: rows }, (_, i) => bulkRow(i + 1));
  const res = await t.call('POST', '/_sandbox/bulk-disbursements', { body: { name: 'Payroll', items }, headers: SOURCE });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const statuses = async (t: TestApp, id: string, rows: number) => {
  const seen = new Map<string, number>();
  for (let page = 0; page * 100 < rows; page++) {
    const res = await t.call('GET', `/api/v1/transfers/bulk/${id}/transfers?page=${page}&size=100`, { headers: SOURCE });
    for (const tr of res.body.content as { status: string }[]) seen.set(tr.status, (seen.get(tr.status) ?? 0) + 1);
  }
  return Object.fromEntries(seen);
};

describe("a key's own request after thousands of moves fell due", () => {
  it('applies them in slices before it is answered, every one in order', async () => {
    const t = await createTestApp();
    const count = 1000;
    for (let i = 0; i < count; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest(`due-${i}`) })).status).toBe(201);
    // Thirty seconds of the base clock, and no tick: the key's next request finds every move due.
    t.clock.advance(31);
    const { result: res, turns } = await turnsDuring(() => t.call('GET', '/api/v1/partners/payouts/due-999'));
    expect(res.body.data.status).toBe('PROCESSING');
    expect(turns).toBeGreaterThanOrEqual(3);
    const events = (await t.call('GET', '/_sandbox/events?type=payout.processing&limit=1000')).body.data;
    expect(events.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(Array.from({ length: count }, (_, i) => `due-${i}`));
    // Another key's request finds nothing of it.
    expect((await t.call('GET', '/_sandbox/clock', { key: KEY_B })).body.pendingJobs).toBe(0);
  });
});

describe("a bulk file's timed move", () => {
  it('moves its rows a piece at a time in the background tick, in file order', async () => {
    const t = await createTestApp();
    const rows = 1000;
    const id = await upload(t, rows);
    // A retention pass now, so the tick starts none (it catches up too, in slices of its own).
    await t.tenants.retain();
    t.clock.advance(31);
    const { turns } = await turnsDuring(() => t.tenants.tick());
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(await statuses(t, id, rows)).toEqual({ PROCESSING: rows });
    const events = (await t.call('GET', '/_sandbox/events?type=transfer.processing&limit=1000')).body.data;
    expect(events.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(Array.from({ length: rows }, (_, i) => bulkReference(i + 1)));
    // Every row moved at the instant the file fell due.
    expect(new Set(events.map((e: { createdAt: string }) => e.createdAt)).size).toBe(1);
    // The file's next move is scheduled once, after its last piece.
    expect((await t.call('GET', '/_sandbox/clock')).body.pendingJobs).toBe(1);
  });

  it('moves its rows a piece at a time in a clock advance, and each file ends as it did', async () => {
    const t = await createTestApp();
    const rows = 1000;
    const first = await upload(t, rows);
    const { result: res, turns } = await turnsDuring(() => t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 86_400 } }));
    expect(res.status).toBe(200);
    expect(res.body.pendingJobs).toBe(0);
    expect(turns).toBeGreaterThanOrEqual(6);
    expect(await statuses(t, first, rows)).toEqual({ SUCCESSFUL: rows });
    expect((await t.call('GET', '/_sandbox/events?type=transfer.successful&limit=1000')).body.data).toHaveLength(rows);
  });
});
