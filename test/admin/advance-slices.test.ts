// A clock advance over thousands of due moves applies them 64 at a time, the event loop given its
// turn between slices: with a webhook set each move also makes and queues a delivery, and 256 at a
// time held every key's requests 10 to 50 ms.
import { describe, expect, it } from 'vitest';
import { createTestApp, payoutRequest } from '../support/app.js';
import { turnsDuring } from '../support/turns.js';

describe('an advance over 4,000 due moves', () => {
  it('applies them in slices of 64, each at its time', async () => {
    const t = await createTestApp({ config: { maxResources: 0 } });
    for (let i = 0; i < 2000; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest(`adv-${i}`) })).status).toBe(201);
    const { result: res, turns } = await turnsDuring(() => t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 86_400 } }));
    expect(res.status).toBe(200);
    expect(res.body.applied).toBe(4000);
    const last = await t.call('GET', '/api/v1/partners/payouts/adv-1999');
    expect(last.body.data.status).toBe('SUCCESSFUL');
    // 4,000 moves, 64 a slice.
    expect(turns).toBeGreaterThanOrEqual(60);
  }, 60_000);
});
