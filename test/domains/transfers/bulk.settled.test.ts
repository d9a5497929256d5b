// A bulk row may carry the sandbox's own outcome and creation time: a file can hold failed rows and
// span dates for the from/to filters. Fields a row does not take are refused, never ignored.
import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, type TestApp } from '../../support/app.js';

const UPLOAD = '/_sandbox/bulk-disbursements';
const SOURCE = { 'x-service-source': 'payroll-service' };
const row = (i: number, over: Record<string, unknown> = {}) => ({
  reference: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  amount: 1000 + i,
  currency: 'NGN',
  type: 'BANK',
  source: { accountNumber: '1000200030' },
  destination: { accountNumber: '0123456789', accountName: `Worker ${i}`, bankCode: '058' },
  category: 'SALARY',
  ...over,
});

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const upload = (items: unknown[]) => t.call('POST', UPLOAD, { body: { items }, headers: SOURCE });
const page = (id: string, query = '') => t.call('GET', `/api/v1/transfers/bulk/${id}/transfers${query}`, { headers: SOURCE });

describe('bulk rows with the sandbox outcome', () => {
  it('records FAILED rows with their reason and dated rows at their date; the others follow the lifecycle', async () => {
    const res = await upload([
      row(1, { status: 'FAILED', failureReason: 'Account closed', createdAt: '2026-01-10T08:00:00Z' }),
      row(2, { status: 'SUCCESSFUL', createdAt: '2026-01-12T08:00:00Z' }),
      row(3),
    ]);
    expect(res.status).toBe(201);
    await advance(t, 600);
    const all = await page(res.body.id, '?size=10');
    const byRef = Object.fromEntries(all.body.content.map((x: any) => [x.reference.slice(-1), x]));
    expect(byRef['1']).toMatchObject({ status: 'FAILED', failureReason: 'Account closed', createdAt: '2026-01-10T08:00:00.000Z' });
    expect(byRef['2']).toMatchObject({ status: 'SUCCESSFUL', failureReason: null, createdAt: '2026-01-12T08:00:00.000Z' });
    expect(byRef['3']).toMatchObject({ status: 'SUCCESSFUL', createdAt: '2026-01-15T09:00:00.000Z' });
    const early = await page(res.body.id, '?to=2026-01-11');
    expect(early.body.content.map((x: any) => x.status)).toEqual(['FAILED']);
    const events = await t.call('GET', '/_sandbox/events?type=transfer.pending');
    expect(events.body.data).toHaveLength(1);
  });

  it('says in its 201 description what the rows are: ended when sent with a status, PENDING otherwise until the scenario moves them', async () => {
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    expect(doc.paths[UPLOAD].post.responses['201'].description).toBe(
      'The file was accepted: each row is now a transfer of the file (GET /api/v1/transfers/bulk/{id}/transfers lists them). ' +
        'A row sent with a status is recorded already ended; every other row starts PENDING and moves on as the scenario in force times it, ' +
        'so under a zero timing (the instant scenario) it may have ended by the next request.',
    );
    const res = await t.call('POST', UPLOAD, {
      body: { items: [row(1, { status: 'FAILED' }), row(2, { destination: { accountNumber: '0000000051', accountName: 'Test Value', bankCode: '058' } }), row(3)] },
      headers: { ...SOURCE, 'x-sandbox-scenario': 'instant' },
    });
    expect(res.status).toBe(201);
    const statuses = (await page(res.body.id)).body.content.map((x: any) => [x.reference.slice(-1), x.status, x.failureReason]);
    expect(statuses).toEqual([
      ['1', 'FAILED', 'Failed as the bulk file said'],
      ['2', 'FAILED', 'Insufficient funds at the beneficiary bank'],
      ['3', 'SUCCESSFUL', null],
    ]);
  });

  it('refuses an id, a reason without FAILED, a date without status or in the future, naming each row', async () => {
    const res = await upload([
      row(1, { id: 'trf_1' }),
      row(2, { failureReason: 'x' }),
      row(3, { createdAt: '2026-01-10T08:00:00Z' }),
      row(4, { status: 'SUCCESSFUL', createdAt: '2027-01-10T08:00:00Z' }),
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'items[0].id', issue: 'is not a field of this request: remove it' },
      { field: 'items[1].failureReason', issue: 'applies only with status FAILED: add status FAILED or remove failureReason' },
      { field: 'items[2].createdAt', issue: 'applies only to a row recorded as ended: add status SUCCESSFUL or FAILED, or remove createdAt' },
      { field: 'items[3].createdAt', issue: "must not be later than the tenant's clock (2026-01-15T09:00:00.000Z)" },
    ]);
  });

  it('refuses a CSV column a row does not take', async () => {
    const csv = 'reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,category,id\n';
    const res = await t.call('POST', UPLOAD, { raw: csv + '00000000-0000-4000-8000-000000000001,10,NGN,WALLET,1,2,A B,SALARY,x\n', headers: { 'content-type': 'text/csv', ...SOURCE } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'row 1', issue: 'has a column id that is not a field of a row: remove it' }]);
  });
});
