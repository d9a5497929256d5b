// A bulk file refused lists every problem of every row in error.details: a 10,000-row JSON file whose
// rows each had ten problems was answered with 100,000 details, 9 MB, stringified and encoded in one
// go (100 ms, every key waiting). Past 1,000 details the answer is the same JSON written a slice at a
// time, the event loop given its turn between slices; the turns are counted, not timed.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';
import { bulkRow } from '../support/bulk.js';
import { turnsDuring } from '../support/turns.js';

const ROWS = 2_000;

describe('a bulk file refused for thousands of problems', () => {
  it('is answered with every problem, written a slice at a time', async () => {
    const t = await createTestApp();
    const items = Array.from({ length: ROWS }, (_, i) => ({ ...bulkRow(i + 1), amount: -1, currency: 'XXX', category: 'NOPE' }));
    const res = await t.app.request('/_sandbox/bulk-disbursements', {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_bulk_refusal', 'content-type': 'application/json', 'x-service-source': 'payroll-service' },
      body: JSON.stringify({ items }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json');
    const { result: text, turns } = await turnsDuring(() => res.text());
    expect(turns).toBeGreaterThanOrEqual(5);
    const body = JSON.parse(text);
    expect(body.status).toBe('error');
    expect(body.message).toBe(`The bulk file was refused: ${ROWS} of ${ROWS} row(s) have problems, each listed in error.details. Nothing was created; fix them and upload the whole file again.`);
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.code).toBe('INVALID_BULK_FILE');
    expect(body.error.details).toHaveLength(3 * ROWS);
    expect(body.error.details.filter((d: { field: string }) => d.field.startsWith(`items[${ROWS - 1}].`)).map((d: { field: string }) => d.field).sort()).toEqual([
      `items[${ROWS - 1}].amount`,
      `items[${ROWS - 1}].category`,
      `items[${ROWS - 1}].currency`,
    ]);
    // A few problems are answered as before.
    const few = await t.call('POST', '/_sandbox/bulk-disbursements', { body: { items: items.slice(0, 3) }, headers: { 'x-service-source': 'payroll-service' } });
    expect(few.status).toBe(400);
    expect(few.body.error.details).toHaveLength(9);
  });
});
