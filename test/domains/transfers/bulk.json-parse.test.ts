// A JSON bulk file is counted against its budget and parsed a row at a time, with turns of the event
// loop between slices: read, counted and parsed in one go, a 10,000-row file held every key's
// requests 22 to 47 ms. What it reads is what JSON.parse of the whole would give.
import { describe, expect, it } from 'vitest';
import { parseBulkJson } from '../../../src/domains/transfers/bulk.file.js';
import { checkJsonBudgetInSlices } from '../../../src/kernel/json-budget.js';
import { createTestApp } from '../../support/app.js';
import { bulkRow as item } from '../../support/bulk.js';
import { turnsDuring } from '../../support/turns.js';

const SOURCE = { 'x-service-source': 'payroll-service', 'content-type': 'application/json' };
const file = (n: number) => JSON.stringify({ name: 'Payroll', items: Array.from({ length: n }, (_, i) => item(i + 1)) }, null, 1);

describe('a JSON bulk file', () => {
  it('of 10,000 rows is counted and parsed in slices, to what JSON.parse gives', async () => {
    const text = file(10_000);
    const counted = await turnsDuring(() => checkJsonBudgetInSlices(text, 300_000));
    // 2.2 MB counted 512 KiB a slice.
    expect(counted.turns).toBeGreaterThanOrEqual(4);
    const { result, turns } = await turnsDuring(() => parseBulkJson(text));
    expect(result).toEqual(JSON.parse(text));
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('is refused as malformed where JSON.parse would refuse it, and read as JSON.parse reads it otherwise', async () => {
    const t = await createTestApp();
    const trailing = `{"items":[${JSON.stringify(item(1))},]}`;
    const refused = await t.call('POST', '/_sandbox/bulk-disbursements', { raw: trailing, headers: SOURCE });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'MALFORMED_JSON']);
    // "items" twice: JSON.parse keeps the last, and so does the upload.
    const twice = `{"name":"Twice","items":[${JSON.stringify(item(1))}],"items":[${JSON.stringify(item(2))},${JSON.stringify(item(3))}]}`;
    const up = await t.call('POST', '/_sandbox/bulk-disbursements', { raw: twice, headers: SOURCE });
    expect(up.status).toBe(201);
    expect(up.body.count).toBe(2);
  });

  it('of more than 300,000 values is refused before it is parsed', async () => {
    const t = await createTestApp();
    const nested = `{"items":[${'['.repeat(350_000)}${']'.repeat(350_000)}]}`;
    const res = await t.call('POST', '/_sandbox/bulk-disbursements', { raw: nested, headers: SOURCE });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'body', issue: 'holds more than 300,000 values: send only the fields this request takes' }]);
  });
});
