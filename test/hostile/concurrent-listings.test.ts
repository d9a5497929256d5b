// Sliced work of requests sent at once takes the event loop's turns one slice at a time. A resource
// listing takes every record of each kind in one go (the listing is of one instant): thirty listings
// of one key sent at once took theirs in the same pass of the loop, 150 ms over 90,000 records during
// which no key was answered. Each listing now takes its records in a turn of its own. Counted, not
// timed: how many listings took the records between two turns of the event loop.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, KEY, type TestApp } from '../support/app.js';
import { bulkRow } from '../support/bulk.js';

const SOURCE = { 'x-service-source': 'payroll-service' };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const items = Array.from({ length: 2_000 }, (_, i) => bulkRow(i + 1));
  expect((await t.call('POST', '/_sandbox/bulk-disbursements', { body: { items }, headers: SOURCE })).status).toBe(201);
});

describe('resource listings sent at once', () => {
  it('each take the records in a turn of the event loop of its own', async () => {
    const tenant = await t.tenants.get(KEY, 'sandbox');
    const rows = tenant.store.collection('transfers') as unknown as { values: () => IterableIterator<unknown> };
    const values = rows.values;
    let taken = 0;
    let most = 0;
    rows.values = function () {
      taken++;
      return values.call(this);
    };
    let running = true;
    const spin = () => {
      most = Math.max(most, taken);
      taken = 0;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => t.app.request('/_sandbox/resources?kind=transfers&limit=10', { headers: { authorization: `Bearer ${KEY}` } })));
      for (const res of answers) {
        expect(res.status).toBe(200);
        expect(((await res.json()) as { counts: Record<string, number> }).counts.transfers).toBe(2_000);
      }
    } finally {
      running = false;
      delete (rows as { values?: unknown }).values;
    }
    most = Math.max(most, taken);
    expect(most).toBeGreaterThanOrEqual(1);
    expect(most).toBeLessThanOrEqual(2);
  });
});
