// A key holding tens of thousands of resources: looking one up by an id kept under no key (one that
// does not exist, or differs in case) and listing every kind at once are done a slice at a time, so
// other keys' requests are answered meanwhile.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, payoutRequest, type TestApp } from '../support/app.js';
import { turnsDuring } from '../support/turns.js';

describe('the resources of a key of 17,000 payouts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { maxResources: 0 } });
    for (let i = 0; i < 17_000; i++) expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest(`many-${i}`) })).status).toBe(201);
  }, 120_000);

  it('looks an id that is no key up in slices, and finds none', async () => {
    for (const id of ['nope', 'MANY-16999']) {
      const { result: res, turns } = await turnsDuring(() => t.call('GET', `/_sandbox/resources?id=${id}`));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], counts: { payouts: 17_000, 'wallet-payouts': 0, withdrawals: 0, transfers: 0, 'bulk-disbursements': 0, quotes: 0, 'fx-trades': 0 } });
      // 17,000 records, 8,192 a slice.
      expect(turns).toBeGreaterThanOrEqual(2);
    }
    const found = await t.call('GET', '/_sandbox/resources?id=many-16999');
    expect(found.body.data.map((r: { kind: string; id: string }) => [r.kind, r.id])).toEqual([['payouts', 'many-16999']]);
  });

  it('lists every kind, 1,000 of each, written in slices', async () => {
    const { result: res, turns } = await turnsDuring(() => t.call('GET', '/_sandbox/resources?limit=1000'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.data).toHaveLength(1000);
    // All made at one instant of the test's clock: the greater id first, in the locale's order.
    expect(res.body.data.slice(0, 2).map((r: { id: string }) => r.id)).toEqual(['many-9999', 'many-9998']);
    expect(res.body.data[0]).toMatchObject({ kind: 'payouts', status: 'PENDING', eventPrefix: 'payout', resource: { reference: 'many-9999', amount: 1000 } });
    expect(res.body.counts.payouts).toBe(17_000);
    // 1,000 resources written 25 at a time.
    expect(turns).toBeGreaterThanOrEqual(30);
  });
});

describe('a lookup over several kinds', () => {
  it('gives the event loop a turn before each kind it looks through', async () => {
    const t: TestApp = await createTestApp();
    for (let i = 0; i < 50; i++) {
      expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest(`kind-${i}`) })).status).toBe(201);
      const intent = { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 1000, amountDirection: 'source' };
      expect((await t.call('POST', '/api/v1/partners/marketplace/intent', { body: intent })).status).toBe(201);
    }
    const { result: res, turns } = await turnsDuring(() => t.call('GET', '/_sandbox/resources?id=nope'));
    expect(res.body.data).toEqual([]);
    expect([res.body.counts.payouts, res.body.counts.quotes]).toEqual([50, 50]);
    // Slices start afresh at each kind: one turn before each of the two kinds held.
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});
