import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY_B, LIVE_KEY, type TestApp } from '../../support/app.js';
import { bulkRow } from '../../support/bulk.js';

const UPLOAD = '/_sandbox/bulk-disbursements';
const SOURCE = { 'x-service-source': 'payroll-service' };
const HEADER = 'reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,destination.bankCode,destination.branchCode,narrations,category';

const row = (i: number, over: Record<string, unknown> = {}) => ({ ...bulkRow(i), amount: 1000 + i, ...over });
const rows = (n: number, f: (i: number) => Record<string, unknown> = () => ({})) => Array.from({ length: n }, (_, i) => row(i + 1, f(i + 1)));

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const upload = (items: unknown[], o: { key?: string; name?: string } = {}) =>
  t.call('POST', UPLOAD, { key: o.key, body: { ...(o.name ? { name: o.name } : {}), items }, headers: SOURCE });
const uploadCsv = (text: string, query = '') =>
  t.call('POST', `${UPLOAD}${query}`, { raw: text, headers: { 'content-type': 'text/csv', ...SOURCE } });
const page = (id: string, query = '', key?: string) =>
  t.call('GET', `/api/v1/transfers/bulk/${id}/transfers${query}`, { key, headers: SOURCE });

describe('the x-service-source of an upload', () => {
  it('is optional, and checked as the transfer routes check it when sent: longer than 100 characters or sent twice is 400, nothing kept', async () => {
    const items = rows(2);
    const bare = await t.call('POST', UPLOAD, { body: { items } });
    expect([bare.status, bare.body.serviceSource]).toEqual([201, 'sandbox-bulk-upload']);

    const long = await t.call('POST', UPLOAD, { body: { items: rows(1, () => ({ reference: '00000000-0000-4000-8000-0000000000aa' })) }, headers: { 'x-service-source': 's'.repeat(101) } });
    expect([long.status, long.body.error.code, long.body.error.details]).toEqual([400, 'VALIDATION_ERROR', [{ field: 'x-service-source', issue: 'must be at most 100 characters long' }]]);
    const twice = await t.call('POST', UPLOAD, { body: { items: rows(1, () => ({ reference: '00000000-0000-4000-8000-0000000000bb' })) }, headers: { 'x-service-source': 'payroll, billing' } });
    expect([twice.status, twice.body.error.details]).toEqual([400, [{ field: 'x-service-source', issue: 'is given 2 times: send it once' }]]);
    // Neither file was kept: their rows' references are free.
    for (const reference of ['00000000-0000-4000-8000-0000000000aa', '00000000-0000-4000-8000-0000000000bb']) {
      expect((await t.call('GET', `/api/v1/transfers/${reference}`, { headers: SOURCE })).status).toBe(404);
    }

    const kept = await t.call('POST', UPLOAD, { body: { items: rows(1, () => ({ reference: '00000000-0000-4000-8000-0000000000cc' })) }, headers: { 'x-service-source': ` ${'s'.repeat(100)} ` } });
    expect([kept.status, kept.body.serviceSource]).toEqual([201, 's'.repeat(100)]);
  });
});

describe('JSON upload', () => {
  it('creates one PENDING transfer per row, with its category', async () => {
    const res = await upload(rows(3, (i) => ({ category: i === 2 ? 'VENDOR' : 'SALARY' })), { name: 'January payroll' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^bulk_[0-9a-f]{24}$/),
      name: 'January payroll',
      count: 3,
      serviceSource: 'payroll-service',
      createdAt: '2026-01-15T09:00:00.000Z',
    });
    const p = await page(res.body.id);
    expect(p.body.content.map((r: { category: string }) => r.category)).toEqual(['SALARY', 'VENDOR', 'SALARY']);
    expect(p.body.content[0]).toMatchObject({ status: 'PENDING', bulkId: res.body.id, serviceSource: 'payroll-service', amount: 1001, fee: 10 });
    const one = await t.call('GET', `/api/v1/transfers/${row(2).reference}`, { headers: SOURCE });
    expect(one.body).toMatchObject({ category: 'VENDOR', bulkId: res.body.id });
  });

  it('names a field of the file it does not take in X-Sandbox-Warning, with did you mean, and creates the file without it', async () => {
    const res = await t.call('POST', UPLOAD, { body: { nmae: 'March payroll', items: rows(1) }, headers: SOURCE });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: null, count: 1 });
    expect(res.headers.get('x-sandbox-warning')).toBe("unknown field 'nmae' was ignored: did you mean 'name'?");
    const named = await upload([row(2)], { name: 'April payroll' });
    expect(named.status).toBe(201);
    expect(named.headers.get('x-sandbox-warning')).toBeNull();
  });

  it('refuses the whole file, naming every bad row and field as items[i].field', async () => {
    const items = rows(5, (i) => (i === 2 ? { amount: -1 } : i === 4 ? { category: 'BONUS', currency: 'EUR' } : {}));
    items[4] = { ...items[4], reference: items[0].reference };
    const res = await upload(items);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BULK_FILE');
    expect(res.body.error.details).toEqual([
      { field: 'items[1].amount', issue: 'must be greater than 0' },
      { field: 'items[3].currency', issue: 'must be one of: NGN, GHS, USD' },
      { field: 'items[3].category', issue: 'must be one of: SALARY, VENDOR, REFUND, OTHER' },
      { field: 'items[4].reference', issue: 'appears on an earlier row of this file' },
    ]);
    expect(res.body.message).toContain('3 of 5 row(s)');
    expect((await t.call('GET', `/api/v1/transfers/${row(1).reference}`, { headers: SOURCE })).status).toBe(404);
  });

  it('validates each row like a single transfer', async () => {
    const res = await upload([
      row(1, { reference: 'x' }),
      row(2, { type: 'BANK', destination: { accountNumber: '1', accountName: 'A' } }),
      row(3, { source: {} }),
      row(4, { category: undefined }),
    ]);
    expect(res.body.error.details).toEqual([
      { field: 'items[0].reference', issue: 'must be a UUID (8-4-4-4-12 hexadecimal digits), e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' },
      { field: 'items[1].destination.bankCode', issue: 'is required when type is BANK: send the bank code' },
      { field: 'items[2].source.accountNumber', issue: 'is required: send a string' },
      { field: 'items[3].category', issue: 'is required: send one of: SALARY, VENDOR, REFUND, OTHER' },
    ]);
  });

  it('refuses references already used, live bank codes unknown, and bad shapes', async () => {
    expect((await upload(rows(1))).status).toBe(201);
    expect((await upload(rows(1))).body.error.details).toEqual([{ field: 'items[0].reference', issue: 'already used by another transfer' }]);
    const live = await upload(rows(1, () => ({ destination: { accountNumber: '1', accountName: 'A', bankCode: '999' } })), { key: LIVE_KEY });
    expect(live.body.error.details).toEqual([{ field: 'items[0].destination.bankCode', issue: 'is not a known NGN bank code' }]);
    const none = await upload([]);
    expect(none.body.error).toMatchObject({ code: 'INVALID_BULK_FILE', details: [{ field: 'items', issue: 'must have at least 1 row' }] });
    const notArray = await t.call('POST', UPLOAD, { body: { items: 'x' } });
    expect(notArray.body.error.details).toEqual([{ field: 'items', issue: 'is required: send an array of transfers' }]);
    const bad = await t.call('POST', UPLOAD, { raw: '{"items": [', headers: { 'content-type': 'application/json' } });
    expect(bad.body.error.code).toBe('MALFORMED_JSON');
    const xml = await t.call('POST', UPLOAD, { raw: '<a/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(415);
  });

  it('accepts 10,000 rows and refuses 10,001', async () => {
    const over = await upload(rows(10_001));
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual([{ field: 'items', issue: 'has 10001 rows; at most 10000 are accepted' }]);
    // Many small items within the file's value budget are counted, not parsed, before the refusal:
    // one of them not even JSON does not change the answer.
    const small = await t.call('POST', UPLOAD, { raw: `{"items":[${'0,'.repeat(149_999)}nope]}`, headers: { ...SOURCE, 'content-type': 'application/json' } });
    expect(small.status).toBe(400);
    expect(small.body.error.details).toEqual([{ field: 'items', issue: 'has 150000 rows; at most 10000 are accepted' }]);
  });
});

describe('X-Sandbox-Scenario on an upload', () => {
  it('refuses an unknown name with 400 and creates nothing; a known one applies to the rows', async () => {
    const bad = await t.call('POST', UPLOAD, { body: { items: rows(1) }, headers: { ...SOURCE, 'x-sandbox-scenario': 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_SCENARIO', details: [{ field: 'X-Sandbox-Scenario' }] });
    expect((await t.call('GET', '/_sandbox/events?type=transfer')).body.data).toEqual([]);
    const ok = await t.call('POST', UPLOAD, { body: { items: rows(1) }, headers: { ...SOURCE, 'x-sandbox-scenario': 'failures' } });
    expect(ok.status).toBe(201);
  });
});

describe('CSV upload', () => {
  const line = (i: number, over: Partial<Record<string, string>> = {}) => {
    const r = row(i);
    const v = { amount: String(r.amount), currency: 'NGN', type: 'BANK', bankCode: '058', category: 'SALARY', ...over };
    return [r.reference, v.amount, v.currency, v.type, '1000200030', `01${String(i).padStart(8, '0')}`, `"Worker, ${i}"`, v.bankCode, '001', 'Pay', v.category].join(',');
  };

  it('reads a header row and one transfer per line', async () => {
    const res = await uploadCsv([HEADER, line(1), line(2, { type: 'WALLET', bankCode: '' })].join('\n') + '\n', '?name=Feb');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Feb', count: 2 });
    expect(res.headers.get('x-sandbox-warning')).toBeNull();
    const typo = await uploadCsv([HEADER, line(3)].join('\n') + '\n', '?nmae=March');
    expect(typo.status).toBe(201);
    expect(typo.body.name).not.toBe('March');
    expect(typo.headers.get('x-sandbox-warning')).toBe("unknown query parameter 'nmae' was ignored: did you mean 'name'?");
    const p = await page(res.body.id);
    expect(p.body.content[0]).toMatchObject({
      amount: 1001,
      destination: { accountNumber: '0100000001', accountName: 'Worker, 1', bankCode: '058', branchCode: '001' },
      narrations: 'Pay',
      category: 'SALARY',
    });
    expect(p.body.content[1].destination).not.toHaveProperty('bankCode');
  });

  it('names bad rows by their line in the file (header is row 1)', async () => {
    const text = [HEADER, line(1), line(2, { amount: 'ten' }), line(3), line(4, { category: 'X', bankCode: '' }), '1,2,3'].join('\n');
    const res = await uploadCsv(text);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BULK_FILE');
    expect(res.body.error.details).toEqual([
      { field: 'row 3: amount', issue: 'must be a number, not a string' },
      { field: 'row 5: category', issue: 'must be one of: SALARY, VENDOR, REFUND, OTHER' },
      { field: 'row 5: destination.bankCode', issue: 'is required when type is BANK: send the bank code' },
      { field: 'row 6: row', issue: 'has 3 cells; the header has 11' },
    ]);
  });

  it('refuses a header without the required columns, and an empty file', async () => {
    const res = await uploadCsv('reference,amount\n1,2\n');
    expect(res.body.error.details).toContainEqual({ field: 'row 1', issue: 'has no column category' });
    expect((await uploadCsv('')).body.error.details).toEqual([{ field: 'file', issue: 'is empty' }]);
    expect((await uploadCsv(`${HEADER}\n`)).body.error.details).toEqual([{ field: 'file', issue: 'must have at least 1 row' }]);
  });
});

describe('bulk page', () => {
  it('pages at the edges: exact multiple, last partial page, past the end', async () => {
    const id = (await upload(rows(20))).body.id;
    const p1 = await page(id, '?page=1');
    expect(p1.body).toMatchObject({ pageNumber: 1, pageSize: 10, totalElements: 20, totalPages: 2 });
    expect(p1.body.content.map((r: { amount: number }) => r.amount)).toEqual(rows(20).slice(10).map((r) => r.amount));
    const past = await page(id, '?page=2');
    expect(past.body).toEqual({ content: [], pageNumber: 2, pageSize: 10, totalElements: 20, totalPages: 2 });
    const partial = await page(id, '?page=2&size=7');
    expect(partial.body).toMatchObject({ pageNumber: 2, pageSize: 7, totalElements: 20, totalPages: 3 });
    expect(partial.body.content).toHaveLength(6);
    // any int32 page is a page: the largest one is empty, one past int32 is refused
    const far = await page(id, '?page=2147483647&size=100');
    expect(far.body).toEqual({ content: [], pageNumber: 2147483647, pageSize: 100, totalElements: 20, totalPages: 1 });
    expect((await page(id, '?page=2147483648')).status).toBe(400);
  });

  it('publishes page and size as the int32 query parameters of the API document, with their defaults', async () => {
    const doc = await (await t.app.request('/openapi.json')).json();
    const params = doc.paths['/api/v1/transfers/bulk/{id}/transfers'].get.parameters;
    const schemaOf = (name: string) => params.find((p: { name: string }) => p.name === name).schema;
    expect(schemaOf('page')).toMatchObject({ type: 'integer', format: 'int32', default: 0, minimum: 0 });
    expect(schemaOf('size')).toMatchObject({ type: 'integer', format: 'int32', default: 10, minimum: 1, maximum: 100 });
  });

  it('defaults to page 0 of size 10; size 100 is allowed, 101 and other bad numbers or dates are not', async () => {
    const id = (await upload(rows(105))).body.id;
    const d = await page(id);
    expect(d.body).toMatchObject({ pageNumber: 0, pageSize: 10, totalElements: 105, totalPages: 11 });
    expect(d.body.content[0].reference).toBe(row(1).reference);
    const big = await page(id, '?size=100');
    expect(big.body.content).toHaveLength(100);
    expect(big.body.totalPages).toBe(2);
    expect((await page(id, '?page=&size=100')).body).toMatchObject({ pageNumber: 0, pageSize: 100 });
    expect((await page(id, '?size=abc')).body.error.details).toEqual([{ field: 'size', issue: 'must be a whole number from 1 to 100' }]);
    for (const [q, field] of [['size=101', 'size'], ['size=0', 'size'], ['page=-1', 'page'], ['page=x', 'page'], ['size=1.5', 'size'], ['size=0x10', 'size'], ['page=1e1', 'page'], ['from=yesterday', 'from'], ['to=2026-13-45', 'to']]) {
      const res = await page(id, `?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.details[0].field, q).toBe(field);
    }
  });

  it('reads a parameter sent empty as not sent: every documented parameter empty is page 0 of size 10, unfiltered', async () => {
    const id = (await upload(rows(12))).body.id;
    const res = await page(id, '?page=&size=&query=&status=&category=&currency=&from=&to=');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-warning')).toBeNull();
    expect(res.body).toMatchObject({ pageNumber: 0, pageSize: 10, totalElements: 12, totalPages: 2 });
    expect(res.body.content).toHaveLength(10);
    expect((await page(id, '?page=1&size=')).body).toMatchObject({ pageNumber: 1, pageSize: 10, totalElements: 12 });
    expect((await page(id, '?from=&to=2020-01-01')).body).toMatchObject({ totalElements: 0 });
  });

  it('takes any string as status, category or currency: an unknown value matches nothing and is named in X-Sandbox-Warning, with did you mean', async () => {
    const id = (await upload(rows(3))).body.id;
    const empty = { content: [], pageNumber: 0, pageSize: 10, totalElements: 0, totalPages: 0 };
    const failed = await page(id, '?status=failed');
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual(empty);
    expect(failed.headers.get('x-sandbox-warning')).toBe("status 'failed' is not a status a transfer can have, so nothing matches: did you mean 'FAILED'?");
    const bonus = await page(id, '?category=SALRY&currency=EUR');
    expect(bonus.body).toEqual(empty);
    expect(bonus.headers.get('x-sandbox-warning')).toBe(
      "category 'SALRY' is not a category a transfer can have, so nothing matches: did you mean 'SALARY'?; " +
        "currency 'EUR' is not a currency a transfer can have, so nothing matches: use one of NGN, GHS, USD",
    );
    const journal = (await t.call('GET', '/_sandbox/requests?limit=1')).body.data[0];
    expect(journal.warnings).toHaveLength(2);
    const known = await page(id, '?status=PENDING');
    expect(known.body.totalElements).toBe(3);
    expect(known.headers.get('x-sandbox-warning')).toBeNull();
  });

  it('names a query parameter it does not take in X-Sandbox-Warning, with did you mean, and answers the page as if it were not sent', async () => {
    const id = (await upload(rows(3))).body.id;
    const typo = await page(id, '?stauts=FAILED&pageSize=5');
    expect(typo.status).toBe(200);
    expect(typo.body).toMatchObject({ pageNumber: 0, pageSize: 10, totalElements: 3 });
    expect(typo.headers.get('x-sandbox-warning')).toBe(
      "unknown query parameter 'stauts' was ignored: did you mean 'status'?; unknown query parameter 'pageSize' was ignored: did you mean 'size'?",
    );
    expect((await t.call('GET', '/_sandbox/requests?limit=1')).body.data[0].warnings).toHaveLength(2);
    expect((await page(id, '?status=PENDING&size=5')).headers.get('x-sandbox-warning')).toBeNull();
  });

  it('an empty result has no pages; an unknown id is 404', async () => {
    const id = (await upload(rows(3))).body.id;
    expect((await page(id, '?currency=GHS')).body).toEqual({ content: [], pageNumber: 0, pageSize: 10, totalElements: 0, totalPages: 0 });
    const res = await page('bulk_nope');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('reads a file by its id in any letter case, as transfer references and withdrawal references are read', async () => {
    const id = (await upload(rows(3))).body.id;
    const res = await page(id.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await page(id)).body);
    expect(res.body.content.map((r: { bulkId: string }) => r.bulkId)).toEqual([id, id, id]);
    expect((await page('BULK_DEMO_SALARIES')).body.totalElements).toBe(24);
    const missing = await page('BULK_NOPE');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("No bulk disbursement file with id 'BULK_NOPE' exists for this API key. Send the id the create call answered with.");
  });

  it('filters by each parameter alone and combined', async () => {
    const items = rows(12, (i) => ({
      currency: i % 3 === 0 ? 'GHS' : 'NGN',
      category: i % 4 === 0 ? 'REFUND' : 'SALARY',
      destination: { accountNumber: `01${String(i).padStart(8, '0')}`, accountName: i === 7 ? 'Ama Owusu' : `Worker ${i}`, bankCode: '058' },
    }));
    const id = (await upload(items)).body.id;
    const refs = async (q: string) => (await page(id, `${q}&size=100`)).body.content.map((r: { amount: number }) => r.amount - 1000);
    expect(await refs('?currency=GHS')).toEqual([3, 6, 9, 12]);
    expect(await refs('?category=REFUND')).toEqual([4, 8, 12]);
    expect(await refs('?query=owusu')).toEqual([7]);
    expect(await refs('?query=0100000011')).toEqual([11]);
    expect(await refs(`?query=${row(5).reference.slice(-6)}`)).toEqual([5]);
    await t.call('POST', `/_sandbox/simulate/transfers/${row(2).reference}/fail`);
    await t.call('POST', `/_sandbox/simulate/transfers/${row(12).reference}/fail`);
    expect(await refs('?status=FAILED')).toEqual([2, 12]);
    expect(await refs('?status=PENDING&currency=GHS&category=REFUND')).toEqual([]);
    expect(await refs('?status=FAILED&currency=GHS&category=REFUND')).toEqual([12]);
    expect(await refs('?query=worker 1&currency=NGN')).toEqual([1, 10, 11]);
  });

  it('filters createdAt by dates (whole UTC days) and date-times (inclusive)', async () => {
    const first = (await upload(rows(2))).body.id;
    await advance(t, 86_400);
    const batch2 = rows(4).slice(2);
    const second = (await upload(batch2)).body.id;
    const count = async (id: string, q: string) => (await page(id, q)).body.totalElements;
    expect(await count(first, '?from=2026-01-15&to=2026-01-15')).toBe(2);
    expect(await count(first, '?from=2026-01-16')).toBe(0);
    expect(await count(second, '?from=2026-01-16')).toBe(2);
    expect(await count(second, '?to=2026-01-15')).toBe(0);
    expect(await count(second, '?from=2026-01-16T09:00:00.000Z&to=2026-01-16T09:00:00Z')).toBe(2);
    expect(await count(second, '?from=2026-01-16T10:00:00%2B01:00')).toBe(2);
    expect(await count(second, '?from=2026-01-16T09:00:00.001Z')).toBe(0);
    // A + sent unencoded reads as a space: the answer says to send it as %2B.
    const plus = await page(second, '?from=2026-01-16T10:00:00+01:00');
    expect([plus.status, plus.body.error.details]).toEqual([
      400,
      [{ field: 'from', issue: "must be a date (2026-01-15) or an ISO 8601 date-time (2026-01-15T09:00:00Z): its offset's + arrived as a space, send it as %2B" }],
    ]);
    const wrong = await page(first, '?from=2026-01-16&to=2026-01-15');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([{ field: 'from', issue: 'must not be after to' }]);
  });

  it('refuses impossible calendar dates in from and to, as it refuses an impossible time', async () => {
    const id = (await upload(rows(2))).body.id;
    const issue = 'must be a date (2026-01-15) or an ISO 8601 date-time (2026-01-15T09:00:00Z)';
    for (const [q, field] of [['from=2026-02-30', 'from'], ['to=2026-02-31', 'to'], ['from=2026-02-29', 'from'], ['to=2026-04-31', 'to'], ['from=2026-02-30T09:00:00Z', 'from'], ['to=2026-01-16T25:61:00Z', 'to']]) {
      const res = await page(id, `?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe('VALIDATION_ERROR');
      expect(res.body.error.details, q).toEqual([{ field, issue }]);
    }
    const leap = await page(id, '?from=2028-02-29&to=2028-02-29');
    expect(leap.status).toBe(200);
    expect(leap.body.totalElements).toBe(0);
    expect((await page(id, '?to=2028-02-29')).body.totalElements).toBe(2);
  });

  it('rows follow their file\'s schedule, and a simulated row keeps its own', async () => {
    const id = (await upload(rows(3))).body.id;
    await t.call('POST', `/_sandbox/simulate/transfers/${row(1).reference}/fail`);
    await advance(t, 30);
    expect((await page(id)).body.content.map((r: { status: string }) => r.status)).toEqual(['FAILED', 'PROCESSING', 'PROCESSING']);
    await advance(t, 270);
    expect((await page(id, '?status=SUCCESSFUL')).body.totalElements).toBe(2);
    const events = (await t.call('GET', '/_sandbox/events?type=transfer&limit=100')).body.data.map((e: { event: string }) => e.event);
    expect(events.filter((e: string) => e === 'transfer.successful')).toHaveLength(2);
  });

  it('a row held by its test value stays PROCESSING, and a row an outcome rule times by after ends then, as single transfers do', async () => {
    const outcomes = [
      { when: { amount: { min: 1003, max: 1003 } }, status: 'FAILED', reason: 'Late refusal', after: 120 },
      { when: { amount: { min: 1004, max: 1004 } }, status: 'SUCCESSFUL', after: 10 },
    ];
    expect((await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { transfer: { outcomes } } } })).status).toBe(200);
    const id = (await upload(rows(4, (i) => (i === 2 ? { destination: { accountNumber: '0000000099', accountName: 'Worker 2', bankCode: '058' } } : {})))).body.id;
    const statuses = async () => (await page(id)).body.content.map((r: { status: string }) => r.status);
    await advance(t, 10);
    expect(await statuses()).toEqual(['PENDING', 'PENDING', 'PENDING', 'SUCCESSFUL']);
    await advance(t, 20);
    expect(await statuses()).toEqual(['PROCESSING', 'PROCESSING', 'PROCESSING', 'SUCCESSFUL']);
    const processing = (await t.call('GET', '/_sandbox/events?type=transfer.processing')).body.data;
    expect(processing.map((e: { data: { reference: string } }) => e.data.reference)).toEqual([row(4), row(1), row(2), row(3)].map((r) => r.reference));
    await advance(t, 90);
    expect(await statuses()).toEqual(['PROCESSING', 'PROCESSING', 'FAILED', 'SUCCESSFUL']);
    const failed = await t.call('GET', `/api/v1/transfers/${row(3).reference}`, { headers: SOURCE });
    expect(failed.body).toMatchObject({ failureReason: 'Late refusal', updatedAt: '2026-01-15T09:02:00.000Z', createdAt: '2026-01-15T09:00:00.000Z' });
    await advance(t, 86_400);
    expect(await statuses()).toEqual(['SUCCESSFUL', 'PROCESSING', 'FAILED', 'SUCCESSFUL']);
    const events = (await t.call('GET', '/_sandbox/events?type=transfer&limit=100')).body.data;
    expect(events.filter((e: { data: { reference: string } }) => e.data.reference === row(2).reference).map((e: { event: string }) => e.event)).toEqual([
      'transfer.pending',
      'transfer.processing',
    ]);
    expect((await t.call('POST', `/_sandbox/simulate/transfers/${row(2).reference}/complete`)).body.state.status).toBe('SUCCESSFUL');
  });
});

describe('the demo file', () => {
  it('is made only on request, settled, with a fixed id', async () => {
    for (const key of [undefined, KEY_B, LIVE_KEY]) {
      expect((await t.call('GET', '/_sandbox/resources?limit=1', { key })).body.counts['bulk-disbursements']).toBe(0);
      const made = await t.call('POST', '/_sandbox/bulk-disbursements/demo', { key });
      expect(made.status).toBe(201);
      expect(made.body).toEqual({ id: 'bulk_demo_salaries', name: expect.any(String), count: 24, serviceSource: 'payroll-service', createdAt: '2026-01-15T09:00:00.000Z' });
      const res = await page('bulk_demo_salaries', '?size=100', key);
      expect(res.status).toBe(200);
      expect(res.body.totalElements).toBe(24);
      expect(res.body.content[0]).toMatchObject({ reference: '501cce9d-3fdb-4258-9466-616fec7a75ef', id: 'trf_demo_0001', status: 'SUCCESSFUL', category: 'SALARY', serviceSource: 'payroll-service' });
    }
    expect((await page('bulk_demo_salaries', '?status=FAILED')).body.totalElements).toBe(3);
    // Asked again, the key's file stays as it is.
    const again = await t.call('POST', '/_sandbox/bulk-disbursements/demo');
    expect([again.status, again.body.count]).toEqual([200, 24]);
  });

  it('is not made by a transfer request, a bulk upload or a transfer read', async () => {
    const source = { 'x-service-source': 'payroll-service' };
    const transfer = { reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e70', amount: 100, currency: 'NGN', type: 'BANK', source: { accountNumber: '0011223344' }, destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } };
    expect((await t.call('POST', '/api/v1/transfers', { headers: source, body: transfer })).status).toBe(201);
    expect((await t.call('GET', `/api/v1/transfers/${transfer.reference}`, { headers: source })).status).toBe(200);
    expect((await upload(rows(1))).status).toBe(201);
    const counts = (await t.call('GET', '/_sandbox/resources?limit=1')).body.counts;
    expect([counts.transfers, counts['bulk-disbursements']]).toEqual([2, 1]);
  });

  it('is made by the first read of its id, as the README reads it, and then held', async () => {
    const first = await page('bulk_demo_salaries');
    expect([first.status, first.body.totalElements]).toEqual([200, 24]);
    expect((await t.call('GET', '/_sandbox/resources?limit=1')).body.counts['bulk-disbursements']).toBe(1);
    expect((await t.call('POST', '/_sandbox/bulk-disbursements/demo')).status).toBe(200);
  });

  it('is gone after a reset until asked for again', async () => {
    await t.call('POST', '/_sandbox/bulk-disbursements/demo');
    await t.call('POST', '/_sandbox/reset');
    expect((await t.call('GET', '/_sandbox/resources?limit=1')).body.counts['bulk-disbursements']).toBe(0);
    expect((await t.call('POST', '/_sandbox/bulk-disbursements/demo')).status).toBe(201);
    expect((await page('bulk_demo_salaries')).body.totalElements).toBe(24);
  });
});

describe('tenant isolation', () => {
  it('another key cannot page a file, read its rows, or collide with its references', async () => {
    const id = (await upload(rows(2))).body.id;
    expect((await page(id, '', KEY_B)).status).toBe(404);
    expect((await t.call('GET', `/api/v1/transfers/${row(1).reference}`, { key: KEY_B, headers: SOURCE })).status).toBe(404);
    expect((await upload(rows(2), { key: KEY_B })).status).toBe(201);
  });
});
