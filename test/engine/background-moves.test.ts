// The background tick applies the moves that fell due for keys that send no request, in slices:
// every move is applied, in order, and other work gets the event loop between slices, so a burst of
// moves falling due at once (a load test's creations, thirty seconds on) does not stall the server.
import { describe, expect, it } from 'vitest';
import { createTestApp, payoutRequest } from '../support/app.js';

describe('background tick', () => {
  it('applies every due move in slices, letting other work run between them', async () => {
    const t = await createTestApp();
    const count = 700;
    for (let i = 0; i < count; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest(`bg-${i}`) })).status).toBe(201);
    // A retention pass now, so the tick starts none (a pass applies due moves too, all at once).
    await t.tenants.retain();
    // Thirty seconds of the base clock: every payout falls due for PROCESSING, and no request comes.
    t.clock.advance(31);
    let turns = 0;
    let ticking = true;
    const spin = () => {
      turns++;
      if (ticking) setImmediate(spin);
    };
    setImmediate(spin);
    await t.tenants.tick();
    ticking = false;
    expect(turns).toBeGreaterThanOrEqual(2);
    const events = (await t.call('GET', '/_sandbox/events?type=payout.processing&limit=1000')).body.data;
    expect(events).toHaveLength(count);
    // In the order the payouts were created (and fell due).
    expect(events.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(Array.from({ length: count }, (_, i) => `bg-${i}`));
    expect((await t.call('GET', '/api/v1/partners/payouts/bg-699')).body.data.status).toBe('PROCESSING');
  });
});
