// A full-size bulk file: 10,000 rows uploaded (JSON and CSV) and paged through in full. The work is
// counted (reads and writes of the tenant's transfers), not timed: how fast it runs is the bench's.
import { beforeAll, describe, expect, it } from 'vitest';
import { transfers } from '../../../src/domains/transfers/transfers.service.js';
import { advance, createTestApp, KEY, type TestApp } from '../../support/app.js';

const SOURCE = { 'x-service-source': 'payroll-service' };
const N = 10_000;
const CATEGORIES = ['SALARY', 'VENDOR', 'REFUND', 'OTHER'];

const item = (i: number) => ({
  reference: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  amount: 150000 + i,
  currency: i % 5 === 0 ? 'GHS' : 'NGN',
  type: 'BANK',
  source: { accountNumber: '1000200030' },
  destination: { accountNumber: `01${String(i).padStart(8, '0')}`, accountName: `Oluwaseun Adebayo-Williams ${i}`, bankCode: '058', branchCode: '001' },
  narrations: `Salary for January 2026, employee ${i}`,
  category: CATEGORIES[i % 4],
});

/** Counts each call of the named methods on the tenant's transfer collection while `work` runs. */
async function counting<T>(methods: readonly ('get' | 'has' | 'put')[], work: () => Promise<T>) {
  const rows = transfers(await t.tenants.get(KEY, 'sandbox')) as unknown as Record<string, (...args: unknown[]) => unknown>;
  const calls: Record<string, number> = Object.fromEntries(methods.map((m) => [m, 0]));
  for (const m of methods) {
    const original = rows[m];
    rows[m] = (...args) => {
      calls[m]++;
      return original.apply(rows, args);
    };
  }
  try {
    return { result: await work(), calls };
  } finally {
    for (const m of methods) delete rows[m];
  }
}

let t: TestApp;
let id: string;
let uploadCalls: Record<string, number>;
beforeAll(async () => {
  t = await createTestApp();
  // The key holds the demo file too (24 rows), made on request.
  expect((await t.call('POST', '/_sandbox/bulk-disbursements/demo')).status).toBe(201);
  const body = JSON.stringify({ name: 'Payroll', items: Array.from({ length: N }, (_, i) => item(i + 1)) });
  expect(body.length).toBeGreaterThan(1024 * 1024);
  expect(body.length).toBeLessThan(8 * 1024 * 1024);
  const { result: res, calls } = await counting(['has', 'put'], () =>
    t.call('POST', '/_sandbox/bulk-disbursements', { raw: body, headers: { 'content-type': 'application/json', ...SOURCE } }),
  );
  uploadCalls = calls;
  expect(res.status).toBe(201);
  expect(res.body.count).toBe(N);
  id = res.body.id;
}, 60_000);

describe('a 10,000-row file', () => {
  it('uploads each row with a bounded amount of work: written once, looked up at most twice', () => {
    expect(uploadCalls.put).toBe(N);
    expect(uploadCalls.has).toBeLessThanOrEqual(2 * N);
  });

  it('pages through in full at size 100, every row once, in file order', async () => {
    const seen: number[] = [];
    for (let p = 0; ; p++) {
      const res = await t.call('GET', `/api/v1/transfers/bulk/${id}/transfers?page=${p}&size=100`, { headers: SOURCE });
      expect(res.body).toMatchObject({ pageNumber: p, pageSize: 100, totalElements: N, totalPages: 100 });
      if (res.body.content.length === 0) break;
      seen.push(...res.body.content.map((r: { amount: number }) => r.amount - 150000));
    }
    expect(seen).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  }, 60_000);

  it('pages through a filter in full without re-filtering every page', async () => {
    const { result: total, calls } = await counting(['get'], async () => {
      let total = 0;
      for (let p = 0; p < 250; p++) {
        const res = await t.call('GET', `/api/v1/transfers/bulk/${id}/transfers?page=${p}&size=10&category=VENDOR&currency=NGN`, { headers: SOURCE });
        total += res.body.content.length;
        expect(res.body.totalElements).toBe(2000);
      }
      return total;
    });
    expect(total).toBe(2000);
    // Each row read once to filter the file and each matching row once to show it; filtering on
    // every page would read the file's 10,000 rows 250 times.
    expect(calls.get).toBeLessThanOrEqual(N + 2000);
  }, 60_000);

  it('moves every row on the file schedule', async () => {
    await advance(t, 300);
    const res = await t.call('GET', `/api/v1/transfers/bulk/${id}/transfers?status=SUCCESSFUL&size=1`, { headers: SOURCE });
    expect(res.body.totalElements).toBe(N);
  }, 60_000);

  it('refuses 10,001 rows and a body over 8 MiB', async () => {
    const csv = ['reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,category'];
    for (let i = 1; i <= N + 1; i++) csv.push(`00000000-0000-4000-9000-${String(i).padStart(12, '0')},100,NGN,WALLET,1,2,A,OTHER`);
    const over = await t.call('POST', '/_sandbox/bulk-disbursements', { raw: csv.join('\n'), headers: { 'content-type': 'text/csv' } });
    expect(over.status).toBe(400);
    // Counted as the CSV is read: reading stops at the first row past the limit.
    expect(over.body.error.details).toEqual([{ field: 'file', issue: 'has more than 10000 rows; at most 10000 are accepted' }]);
    const huge = await t.call('POST', '/_sandbox/bulk-disbursements', { raw: `{"items":"${'x'.repeat(8 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const other = await t.call('POST', '/_sandbox/clock/advance', { raw: `{"seconds":1,"x":"${'x'.repeat(1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } });
    expect(other.status).toBe(413);
  }, 60_000);

  it('uploads as CSV too', async () => {
    const csv = ['reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,category'];
    for (let i = 1; i <= N; i++) csv.push(`00000000-0000-4000-a000-${String(i).padStart(12, '0')},100,NGN,WALLET,1,2,A,OTHER`);
    const res = await t.call('POST', '/_sandbox/bulk-disbursements', { raw: csv.join('\n'), headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(N);
  }, 60_000);
});
