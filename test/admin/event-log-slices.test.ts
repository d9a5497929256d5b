// A key's event log of tens of thousands of events (--event-log-size up to 100,000): read to its end
// for an `after` near it or a `type` few events match, and written 1,000 events at a time, a slice
// at a time, so other keys' requests are answered meanwhile.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, payoutRequest, type TestApp } from '../support/app.js';
import { turnsDuring } from '../support/turns.js';

describe('an event log of 17,000 events', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { maxResources: 0, eventLogSize: 20_000 } });
    for (let i = 0; i < 17_000; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest(`ev-${i}`) })).status).toBe(201);
  }, 120_000);

  it('is read to its end in slices', async () => {
    for (const query of ['after=evt_0000017000', 'type=payout.successful']) {
      const { result: res, turns } = await turnsDuring(() => t.call('GET', `/_sandbox/events?limit=1000&${query}`));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], hasMore: false });
      // 17,000 events, 8,192 a slice.
      expect(turns).toBeGreaterThanOrEqual(2);
    }
    const last = await t.call('GET', '/_sandbox/events?limit=5&after=evt_0000016999');
    expect(last.body.data.map((e: { id: string; event: string }) => [e.id, e.event])).toEqual([['evt_0000017000', 'payout.pending']]);
    expect(last.body.data[0].data).toMatchObject({ reference: 'ev-16999', status: 'PENDING' });
    expect(last.body.hasMore).toBe(false);
  });

  it('is written 1,000 events at a time in slices, oldest first', async () => {
    const { result: res, turns } = await turnsDuring(() => t.call('GET', '/_sandbox/events?limit=1000&type=payout.*'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.data).toHaveLength(1000);
    expect(res.body.data[0]).toMatchObject({ id: 'evt_0000000001', event: 'payout.pending', data: { reference: 'ev-0', amount: 1000 } });
    expect(res.body.data[999].id).toBe('evt_0000001000');
    expect(res.body.hasMore).toBe(true);
    // 1,000 events written 25 at a time.
    expect(turns).toBeGreaterThanOrEqual(30);
  });
});
