import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY, KEY_B, LIVE_KEY, type TestApp } from '../../support/app.js';

const PATH = '/api/v1/transfers';
const REF = '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
const SOURCE = { 'x-service-source': 'payroll-service' };

const transfer = (over: Record<string, unknown> = {}) => ({
  reference: REF,
  amount: 25000,
  currency: 'NGN',
  type: 'BANK',
  source: { accountNumber: '1000200030' },
  destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058', branchCode: '001' },
  narrations: 'January salary',
  ...over,
});

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const post = (body: unknown, o: { key?: string; headers?: Record<string, string> } = {}) =>
  t.call('POST', PATH, { body, key: o.key, headers: { ...SOURCE, ...o.headers } });

describe('POST /api/v1/transfers', () => {
  it('answers 201 with an array holding the PENDING transfer', async () => {
    const res = await post(transfer());
    expect(res.status).toBe(201);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toEqual({
      id: expect.stringMatching(/^trf_[0-9a-f]{24}$/),
      reference: REF,
      amount: 25000,
      currency: 'NGN',
      type: 'BANK',
      source: { accountNumber: '1000200030' },
      destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058', branchCode: '001' },
      narrations: 'January salary',
      status: 'PENDING',
      fee: 50,
      serviceSource: 'payroll-service',
      category: null,
      bulkId: null,
      failureReason: null,
      createdAt: '2026-01-15T09:00:00.000Z',
      updatedAt: '2026-01-15T09:00:00.000Z',
    });
  });
});

describe('x-service-source', () => {
  it('is required on every transfer endpoint, after the key', async () => {
    for (const [method, path, body] of [
      ['POST', PATH, transfer()],
      ['GET', `${PATH}/${REF}`, undefined],
      ['GET', `${PATH}/bulk/bulk_demo_salaries/transfers`, undefined],
    ] as const) {
      const res = await t.call(method, path, { body });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('MISSING_HEADER');
      expect(res.body.error.details).toEqual([{ field: 'x-service-source', issue: 'is required' }]);
      const blank = await t.call(method, path, { body, headers: { 'x-service-source': '  ' } });
      expect(blank.body.error.code).toBe('MISSING_HEADER');
      const noKey = await t.call(method, path, { body, key: null });
      expect(noKey.status).toBe(401);
    }
  });

  it('is refused when sent twice, which arrives as one value joined by a comma', async () => {
    for (const [method, path, body] of [
      ['POST', PATH, transfer()],
      ['GET', `${PATH}/${REF}`, undefined],
      ['GET', `${PATH}/bulk/bulk_demo_salaries/transfers`, undefined],
    ] as const) {
      const headers = new Headers({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
      headers.append('x-service-source', 'payroll-service');
      headers.append('x-service-source', 'billing');
      const res = await t.app.request(path, { method, headers, body: body && JSON.stringify(body) });
      expect(res.status, path).toBe(400);
      expect(await res.json()).toEqual({
        status: 'error',
        message:
          'The x-service-source header holds 2 values joined by commas, as 2 x-service-source headers arrive. Send it once, with one service name (no comma), e.g. x-service-source: payroll-service.',
        error: { type: 'invalid_request_error', code: 'VALIDATION_ERROR', details: [{ field: 'x-service-source', issue: 'is given 2 times: send it once' }] },
      });
    }
    // Nothing was created under the joined name.
    const read = await t.call('GET', `${PATH}/${REF}`, { headers: SOURCE });
    expect(read.status).toBe(404);
    const three = await t.call('POST', PATH, { body: transfer(), headers: { 'x-service-source': 'a,b , c' } });
    expect(three.body.error.details).toEqual([{ field: 'x-service-source', issue: 'is given 3 times: send it once' }]);
  });

  it('is checked before the body', async () => {
    const res = await t.call('POST', PATH, { body: { reference: 'nope' } });
    expect(res.body.error.code).toBe('MISSING_HEADER');
  });

  it('is kept on the transfer', async () => {
    await post(transfer(), { headers: { 'x-service-source': 'vendor-payments' } });
    const res = await t.call('GET', `${PATH}/${REF}`, { headers: SOURCE });
    expect(res.body.serviceSource).toBe('vendor-payments');
  });
});

describe('validation of a single transfer', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['reference missing', { reference: undefined }, 'reference', 'is required: send a string'],
    ['reference not a uuid', { reference: 'order-1' }, 'reference', 'must be a UUID (8-4-4-4-12 hexadecimal digits), e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f'],
    ['amount missing', { amount: undefined }, 'amount', 'is required: send a number'],
    ['amount a string', { amount: '100' }, 'amount', 'must be a number, not a string'],
    ['amount zero', { amount: 0 }, 'amount', 'must be greater than 0'],
    ['amount negative', { amount: -5 }, 'amount', 'must be greater than 0'],
    ['amount with 3 decimals', { amount: 10.123 }, 'amount', 'must have at most 2 decimal places (the currency minor unit)'],
    ['currency missing', { currency: undefined }, 'currency', 'is required: send one of: NGN, GHS, USD'],
    ['currency unknown', { currency: 'EUR' }, 'currency', 'must be one of: NGN, GHS, USD'],
    ['type missing', { type: undefined }, 'type', 'is required: send one of: BANK, WALLET, MOBILE_MONEY'],
    ['type unknown', { type: 'CARD' }, 'type', 'must be one of: BANK, WALLET, MOBILE_MONEY'],
    ['source missing', { source: undefined }, 'source', 'is required: send an object'],
    ['source.accountNumber missing', { source: {} }, 'source.accountNumber', 'is required: send a string'],
    ['source.accountNumber a number', { source: { accountNumber: 12 } }, 'source.accountNumber', 'must be a string, not a number'],
    ['destination missing', { destination: undefined }, 'destination', 'is required: send an object'],
    ['destination.accountNumber missing', { destination: { accountName: 'A', bankCode: '058' } }, 'destination.accountNumber', 'is required: send a string'],
    ['destination.accountName missing', { destination: { accountNumber: '1', bankCode: '058' } }, 'destination.accountName', 'is required: send a string'],
    ['destination.accountName empty', { destination: { accountNumber: '1', accountName: '', bankCode: '058' } }, 'destination.accountName', 'must not be empty'],
    ['destination.bankCode missing for BANK', { destination: { accountNumber: '1', accountName: 'A' } }, 'destination.bankCode', 'is required when type is BANK: send the bank code'],
    ['destination.bankCode missing for MOBILE_MONEY', { type: 'MOBILE_MONEY', destination: { accountNumber: '1', accountName: 'A' } }, 'destination.bankCode', 'is required when type is MOBILE_MONEY: send the mobile-money operator code'],
    ['destination.bankCode a number', { destination: { accountNumber: '1', accountName: 'A', bankCode: 58 } }, 'destination.bankCode', 'must be a string, not a number'],
    ['destination.branchCode a number', { destination: { accountNumber: '1', accountName: 'A', bankCode: '058', branchCode: 1 } }, 'destination.branchCode', 'must be a string, not a number'],
    ['narrations a number', { narrations: 5 }, 'narrations', 'must be a string, not a number'],
    ['narrations too long', { narrations: 'x'.repeat(256) }, 'narrations', 'must be at most 255 characters long'],
  ];
  for (const [name, over, field, issue] of cases) {
    it(`refuses ${name}`, async () => {
      const res = await post(transfer(over));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toContainEqual({ field, issue });
      expect(res.body.message).toContain(field);
    });
  }

  it('lists every problem at once, the bankCode rule included', async () => {
    const res = await post(transfer({ amount: 0, destination: { accountNumber: '1', accountName: 'A' } }));
    expect(res.body.error.details).toEqual([
      { field: 'amount', issue: 'must be greater than 0' },
      { field: 'destination.bankCode', issue: 'is required when type is BANK: send the bank code' },
    ]);
  });

  it('accepts a WALLET transfer without bankCode, and no narrations or branchCode', async () => {
    const res = await post(transfer({ type: 'WALLET', narrations: undefined, destination: { accountNumber: 'W-100', accountName: 'Ada Obi' } }));
    expect(res.status).toBe(201);
    expect(res.body[0].destination).toEqual({ accountNumber: 'W-100', accountName: 'Ada Obi' });
    expect(res.body[0]).not.toHaveProperty('narrations');
  });

  it('accepts any bank code with a test key, only listed banks with a live key', async () => {
    expect((await post(transfer({ destination: { accountNumber: '1', accountName: 'A', bankCode: 'ANY' } }))).status).toBe(201);
    const live = await post(transfer({ destination: { accountNumber: '1', accountName: 'A', bankCode: 'ANY' } }), { key: LIVE_KEY });
    expect(live.status).toBe(400);
    expect(live.body.error).toMatchObject({ code: 'INVALID_BANK_CODE', details: [{ field: 'destination.bankCode', issue: 'is not a known NGN bank code' }] });
    expect((await post(transfer({ destination: { accountNumber: '0123456789', accountName: 'Adaeze Okonkwo', bankCode: '058' } }), { key: LIVE_KEY })).status).toBe(201);
  });

  it('does not touch the wallet balances', async () => {
    const before = (await t.call('GET', '/_sandbox/balances')).body;
    await post(transfer());
    expect((await t.call('GET', '/_sandbox/balances')).body).toEqual(before);
  });
});

describe('idempotency per reference', () => {
  it('replays the same body and refuses a different one', async () => {
    const first = await post(transfer());
    const again = await post(transfer());
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await post(transfer({ amount: 1 }));
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', details: [{ field: 'reference', issue: 'already used with a different body' }] });
    const events = (await t.call('GET', '/_sandbox/events?type=transfer')).body.data;
    expect(events).toHaveLength(1);
  });

  it('refuses the reference of a bulk row', async () => {
    expect((await t.call('POST', '/_sandbox/bulk-disbursements/demo')).status).toBe(201);
    const res = await post(transfer({ reference: '501cce9d-3fdb-4258-9466-616fec7a75ef' }));
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual([{ field: 'reference', issue: 'already used by another transfer' }]);
    const upper = await post(transfer({ reference: '501CCE9D-3FDB-4258-9466-616FEC7A75EF' }));
    expect(upper.status).toBe(409);
  });

  it('takes one UUID in any letter case as one reference, answered in lower case', async () => {
    const upper = REF.toUpperCase();
    const first = await post(transfer({ reference: upper }));
    expect(first.status).toBe(201);
    expect(first.body[0].reference).toBe(REF);
    const again = await post(transfer());
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await post(transfer({ amount: 6 }));
    expect(other.status).toBe(409);
    const read = await t.call('GET', `${PATH}/${upper}`, { headers: SOURCE });
    expect(read.status).toBe(200);
    expect(read.body.reference).toBe(REF);
    const moved = await t.call('POST', `/_sandbox/simulate/transfers/${upper}/complete`);
    expect(moved.body.state).toMatchObject({ reference: REF, status: 'SUCCESSFUL' });
    expect((await t.call('GET', '/_sandbox/events?type=transfer')).body.data.map((e: { event: string }) => e.event)).toEqual([
      'transfer.pending',
      'transfer.processing',
      'transfer.successful',
    ]);
  });
});

describe('lifecycle', () => {
  it('moves PENDING → PROCESSING → SUCCESSFUL on the tenant clock, with snake_case events', async () => {
    await post(transfer());
    const read = () => t.call('GET', `${PATH}/${REF}`, { headers: SOURCE });
    expect((await read()).body.status).toBe('PENDING');
    await advance(t, 30);
    expect((await read()).body).toMatchObject({ status: 'PROCESSING', updatedAt: '2026-01-15T09:00:30.000Z' });
    await advance(t, 270);
    expect((await read()).body).toMatchObject({ status: 'SUCCESSFUL', updatedAt: '2026-01-15T09:05:00.000Z', failureReason: null });
    const events = (await t.call('GET', '/_sandbox/events?type=transfer')).body.data;
    expect(events.map((e: { event: string }) => e.event)).toEqual(['transfer.pending', 'transfer.processing', 'transfer.successful']);
    expect(events[2].data).toMatchObject({ reference: REF, status: 'SUCCESSFUL', service_source: 'payroll-service', bulk_id: null, failure_reason: null });
  });

  it('can be failed through the control API, and then no longer moves', async () => {
    await post(transfer());
    const res = await t.call('POST', `/_sandbox/simulate/transfers/${REF}/fail`, { body: { reason: 'Account closed' } });
    expect(res.status).toBe(200);
    expect(res.body.state).toMatchObject({ status: 'FAILED', failureReason: 'Account closed' });
    const events = (await t.call('GET', '/_sandbox/events?type=transfer')).body.data;
    expect(events.map((e: { event: string }) => e.event)).toEqual(['transfer.pending', 'transfer.processing', 'transfer.failed']);
    expect((await t.call('POST', `/_sandbox/simulate/transfers/${REF}/process`)).status).toBe(409);
    await advance(t, 600);
    expect((await t.call('GET', `${PATH}/${REF}`, { headers: SOURCE })).body.status).toBe('FAILED');
  });

  it('a simulated process move starts the PROCESSING timer from then', async () => {
    await post(transfer());
    await advance(t, 10);
    await t.call('POST', `/_sandbox/simulate/transfers/${REF}/process`);
    await advance(t, 269);
    expect((await t.call('GET', `${PATH}/${REF}`, { headers: SOURCE })).body.status).toBe('PROCESSING');
    await advance(t, 1);
    expect((await t.call('GET', `${PATH}/${REF}`, { headers: SOURCE })).body.status).toBe('SUCCESSFUL');
  });

  it('an unknown reference is 404', async () => {
    const res = await t.call('GET', `${PATH}/${REF}`, { headers: SOURCE });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await t.call('POST', `/_sandbox/simulate/transfers/${REF}/process`)).status).toBe(404);
  });

  it('a reference that is no UUID is 400 naming reference, as on creation', async () => {
    const res = await t.call('GET', `${PATH}/payroll-1`, { headers: SOURCE });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'reference', issue: 'must be a UUID (8-4-4-4-12 hexadecimal digits), e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' }],
    });
  });
});

describe('tenant isolation', () => {
  it('one key never sees another key\'s transfers, and may reuse its references', async () => {
    await post(transfer());
    expect((await t.call('GET', `${PATH}/${REF}`, { key: KEY_B, headers: SOURCE })).status).toBe(404);
    const b = await post(transfer({ amount: 7 }), { key: KEY_B });
    expect(b.status).toBe(201);
    expect((await t.call('GET', `${PATH}/${REF}`, { key: KEY, headers: SOURCE })).body.amount).toBe(25000);
  });
});

describe('OpenAPI', () => {
  it('documents the transfer routes and the header', async () => {
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([PATH, `${PATH}/{reference}`, `${PATH}/bulk/{id}/transfers`, '/_sandbox/bulk-disbursements']));
    const params = doc.paths[PATH].post.parameters;
    expect(params).toContainEqual(expect.objectContaining({ name: 'x-service-source', in: 'header', required: true }));
    expect(Object.keys(doc.paths['/_sandbox/bulk-disbursements'].post.requestBody.content)).toEqual(['application/json', 'text/csv']);
  });

  it("publishes the answer's reference as a UUID, as the request's is", async () => {
    const res = await t.call('POST', PATH, { key: KEY, headers: SOURCE, body: transfer({ reference: REF.toUpperCase() }) });
    expect(res.body[0].reference).toBe(REF);
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    expect(doc.components.schemas.Transfer.properties.reference).toMatchObject({ type: 'string', format: 'uuid' });
  });
});

describe('UUID fields take any 8-4-4-4-12 hexadecimal string, as the document\'s format: uuid says', () => {
  it('accepts a generated UUID without RFC version and variant digits, in either case, for a reference and an account id', async () => {
    const t = await createTestApp();
    const body = (reference: string) => ({
      reference,
      amount: 100,
      currency: 'NGN',
      type: 'BANK',
      source: { accountNumber: '0011223344' },
      destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
    });
    const created = await t.call('POST', '/api/v1/transfers', { headers: { 'x-service-source': 'uuid-test' }, body: body('21C024D1-22FF-F3A2-631C-68B2DFF91FD0') });
    expect(created.status, created.text).toBe(201);
    expect(created.body[0].reference).toBe('21c024d1-22ff-f3a2-631c-68b2dff91fd0');
    const withdrawal = await t.call('POST', '/api/v1/partners/withdrawal', {
      body: { accountId: '21c024d1-22ff-f3a2-631c-68b2dff91fd0', accountName: 'John Doe', accountNumber: '0123456789', amount: 100, bankCode: '058' },
    });
    // Well formed, so it is looked up: no balance account of the key has that id.
    expect(withdrawal.status).not.toBe(400);
    expect(withdrawal.body.error.details.map((d: { field: string }) => d.field)).toEqual(['accountId']);
  });
});
