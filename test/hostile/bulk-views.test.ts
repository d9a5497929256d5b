// GET /_sandbox/resources shows each bulk file with its rows counted by state: a view reads every row
// of its file, so the views are shown a few milliseconds at a time, not 500 at a time. Nine files of
// 10,000 rows were 90,000 reads between two turns of the event loop (45 to 50 ms, every key waiting).
// The reads are counted between turns, not timed.
import { beforeAll, describe, expect, it } from 'vitest';
import { transfers } from '../../src/domains/transfers/transfers.service.js';
import { createTestApp, KEY, type TestApp } from '../support/app.js';
import { bulkRow } from '../support/bulk.js';

const FILES = 6;
const ROWS = 5_000;
const SOURCE = { 'x-service-source': 'payroll-service' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (let f = 0; f < FILES; f++) {
    const items = Array.from({ length: ROWS }, (_, i) => bulkRow(f * ROWS + i + 1));
    const res = await t.call('POST', '/_sandbox/bulk-disbursements', { body: { items }, headers: SOURCE });
    expect(res.status, res.text).toBe(201);
  }
}, 60_000);

describe('the resource listing of a key with large bulk files', () => {
  it('reads their rows a few files at a time, with turns of the event loop between', async () => {
    const rows = transfers(await t.tenants.get(KEY, 'sandbox')) as unknown as { get: (ref: string) => unknown };
    let reads = 0;
    let most = 0;
    const get = rows.get;
    rows.get = function (ref: string) {
      reads++;
      return get.call(this, ref);
    };
    let running = true;
    const spin = () => {
      most = Math.max(most, reads);
      reads = 0;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    try {
      const res = await t.call('GET', '/_sandbox/resources?kind=bulk-disbursements');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(FILES);
      expect(res.body.data[0].resource.statuses).toEqual({ PENDING: ROWS });
    } finally {
      running = false;
      delete (rows as { get?: unknown }).get;
    }
    most = Math.max(most, reads);
    // All of them were read in one go before; now at most five files' rows between two turns.
    expect(most).toBeGreaterThanOrEqual(ROWS);
    expect(most).toBeLessThan(FILES * ROWS);
  });
});
