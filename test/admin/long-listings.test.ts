// Listings that grow with what a key has done (its journal of 200 requests of up to 16 KiB each, its
// resources by the tens of thousands) are read and written a slice at a time: other keys' requests
// are answered between slices instead of waiting for the whole listing.
import { describe, expect, it } from 'vitest';
import { createTestApp, payoutRequest, type TestApp } from '../support/app.js';
import { turnsDuring } from '../support/turns.js';

describe('a journal listing of 200 long bodies', () => {
  it('is answered in slices, whole and masked', async () => {
    const t: TestApp = await createTestApp();
    for (let i = 0; i < 200; i++) {
      const body = { authCode: '902114', ...payoutRequest(`long-${i}`), narration: 'x'.repeat(17_000) };
      expect((await t.call('POST', '/api/v1/partners/payouts', { body })).status).toBe(400);
    }
    const { result: res, turns } = await turnsDuring(() => t.call('GET', '/_sandbox/requests?limit=200'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.data).toHaveLength(200);
    const newest = res.body.data[0];
    expect([newest.id, newest.method, newest.status]).toEqual(['req_200', 'POST', 400]);
    // A body over 16 KiB is kept cut short, as text, its secret masked as it was kept.
    expect(newest.requestBody).toMatch(/^\{"authCode":"\[redacted\]","reference":"long-199",.*"narration":"x{1000}/);
    expect(newest.requestBody).toMatch(/… \[\d+ more characters not kept\]$/);
    expect(res.text).not.toContain('902114');
    expect(res.body.data.at(-1).id).toBe('req_1');
    // 200 entries, 25 a slice, parsed then written.
    expect(turns).toBeGreaterThanOrEqual(8);
  });
});

describe('a resource listing of a key of 9,000 payouts', () => {
  it('is read in slices, newest first', async () => {
    const t: TestApp = await createTestApp({ config: { maxResources: 0 } });
    for (let i = 0; i < 9000; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest(`many-${i}`) })).status).toBe(201);
    const { result: res, turns } = await turnsDuring(() => t.call('GET', '/_sandbox/resources?kind=payouts&limit=3'));
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({ payouts: 9000 });
    // All made at one instant of the test's clock: the greater id first, in the locale's order.
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual(['many-999', 'many-998', 'many-997']);
    // 9,000 records, 8,192 a slice, taken and then looked through.
    expect(turns).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
