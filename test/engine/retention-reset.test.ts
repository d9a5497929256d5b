// A retention pass drops a key's old events a slice at a time, giving other requests their turn
// between slices. A reset of that key between two slices empties its event log under the running
// pass: the pass goes on with the log as it is now (what the key recorded since is young, so it
// stops there), as it would over a Map.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { advance, createTestApp } from '../support/app.js';

const DAY = 86_400;
const row = (n: number) => ({
  reference: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  amount: 1000,
  currency: 'NGN',
  type: 'BANK',
  category: 'SALARY',
  source: { accountNumber: '1000200030' },
  destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058' },
});
const payout = (reference: string) => ({
  reference,
  amount: 2500,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
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
