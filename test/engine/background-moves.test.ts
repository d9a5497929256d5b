// The background tick applies the moves that fell due for keys that send no request, in slices:
// every move is applied, in order, and other work gets the event loop between slices, so a burst of
// moves falling due at once (a load test's creations, thirty seconds on) does not stall the server.
import { describe, expect, it } from 'vitest';
import { createTestApp, KEY_B, payoutRequest } from '../support/app.js';
import { turnsDuring } from '../support/turns.js';

describe('background tick', () => {
  it('applies every due move in slices, letting other work run between them', async () => {
    const t = await createTestApp();
    const count = 700;
    for (let i = 0; i < count; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest(`bg-${i}`) })).status).toBe(201);
    // A retention pass now, so the tick starts none (a pass applies due moves too, all at once).
    await t.tenants.retain();
    // Thirty seconds of the base clock: every payout falls due for PROCESSING, and no request comes.
    t.clock.advance(31);
    const { turns } = await turnsDuring(() => t.tenants.tick());
    expect(turns).toBeGreaterThanOrEqual(2);
    const events = (await t.call('GET', '/_sandbox/events?type=payout.processing&limit=1000')).body.data;
    expect(events).toHaveLength(count);
    // In the order the payouts were created (and fell due).
    expect(events.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(Array.from({ length: count }, (_, i) => `bg-${i}`));
    expect((await t.call('GET', '/api/v1/partners/payouts/bg-699')).body.data.status).toBe('PROCESSING');
  });
});

// A clock advance applies its moves in slices too: another key's request is answered part-way
// through a long advance, while the advancing key's own requests wait for the whole of it.
describe('a clock advance', () => {
  it("gives the event loop its turn between slices of its moves: another key is answered during it, the key's own requests after it", async () => {
    const t = await createTestApp();
    const count = 1000;
    for (let i = 0; i < count; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest(`adv-${i}`) })).status).toBe(201);
    const tenant = [...t.tenants.loaded()][0];
    const jobs = () => tenant.store.collection('jobs').size;
    const before = jobs();
    let advanced = false;
    const order: string[] = [];
    // A probe that looks at the key's pending moves at each turn of the event loop; the first time it
    // finds the advance part-way, it sends a request for another key and one for the advancing key.
    let probes = 0;
    let partWay = 0;
    const sent: Promise<unknown>[] = [];
    const probe = () => {
      probes++;
      const left = jobs();
      if (left < before && left > 0 && !advanced) {
        if (partWay++ === 0) {
          sent.push(t.call('GET', '/_sandbox/clock', { key: KEY_B }).then((r) => order.push(`other key ${r.status}`)));
          sent.push(t.call('GET', '/_sandbox/clock').then((r) => order.push(`same key ${r.body.now}`)));
        }
      }
      if (!advanced) setImmediate(probe);
    };
    setImmediate(probe);
    const res = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 365 * 86400 } });
    advanced = true;
    order.push(`advance ${res.body.now}`);
    await Promise.all(sent);
    expect(res.status).toBe(200);
    expect(res.body.applied).toBe(2 * count);
    expect(partWay).toBeGreaterThanOrEqual(2);
    // The other key was answered before the advance; the advancing key's request waited for all of
    // it (it reads the clock at the advance's instant, which the clock reaches only at its end).
    expect(order[0]).toBe('other key 200');
    expect(order.slice(1).sort()).toEqual([`advance ${res.body.now}`, `same key ${res.body.now}`]);
    expect(res.body.now).toBe('2027-01-15T09:00:00.000Z');
    const events = (await t.call('GET', '/_sandbox/events?type=payout.successful&limit=1000')).body.data;
    expect(events.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(Array.from({ length: count }, (_, i) => `adv-${i}`));
  });
});
