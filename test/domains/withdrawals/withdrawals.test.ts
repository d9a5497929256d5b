import { beforeEach, describe, expect, it } from 'vitest';
import { defaultBehaviour, type Behaviour } from '../../../src/engine/registry/behaviour.js';
import { advance, createTestApp, KEY, KEY_B, LIVE_KEY, type TestApp } from '../../support/app.js';

const PATH = '/api/v1/partners/withdrawal';
const SIM = '/_sandbox/simulate/withdrawals';
const NGN_ACCOUNT = '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9';
const GHS_ACCOUNT = '9d1e9f26-ed7b-4255-9ae3-b0b5e3e59112';
const USD_ACCOUNT = 'd36df8bd-dba0-42c6-8f53-8a70cfb32d19';
const OTHER_UUID = '0b7c3c5e-2f43-4d8e-9a51-6c2d8e4f1a90';

const withdrawal = (over: Record<string, unknown> = {}) => ({
  accountId: NGN_ACCOUNT,
  accountName: 'John Doe',
  accountNumber: '0123456789',
  amount: 25000,
  bankCode: 'SPB-17646',
  narration: 'Settlement June',
  ...over,
});

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function balance(currency = 'NGN', key = KEY) {
  const res = await t.call('GET', '/_sandbox/balances', { key });
  return res.body.data.find((b: { key: string }) => b.key === currency).available as string;
}

async function create(over: Record<string, unknown> = {}, opts: { key?: string; headers?: Record<string, string> } = {}) {
  return t.call('POST', PATH, { body: withdrawal(over), ...opts });
}

const read = async (reference: string, key = KEY) => (await t.call('GET', `${PATH}/${reference}`, { key })).body;

describe('POST /api/v1/partners/withdrawal', () => {
  it('debits the NGN account and answers PROCESSING with its own TRF reference', async () => {
    const res = await create();
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      amount: 25000,
      currency: 'NGN',
      destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: 'SPB-17646' },
      providerStatus: 'PROCESSING',
      reference: res.body.reference,
      status: 'PROCESSING',
      accountId: NGN_ACCOUNT,
      narration: 'Settlement June',
      failureReason: null,
      createdAt: '2026-01-15T09:00:00.000Z',
      updatedAt: '2026-01-15T09:00:00.000Z',
      estimatedCompletionAt: '2026-01-15T09:05:00.000Z',
    });
    expect(res.body.reference).toMatch(/^TRF-[0-9A-F]{32}$/);
    expect(await balance()).toBe('499975000.00');
    expect(await read(res.body.reference)).toEqual(res.body);
  });

  it('lists the balance accounts and takes the currency from the account named', async () => {
    const accounts = await t.call('GET', '/_sandbox/accounts');
    expect(accounts.status).toBe(200);
    expect(accounts.body.data).toEqual([
      { accountId: NGN_ACCOUNT, currency: 'NGN', available: '500000000.00' },
      { accountId: GHS_ACCOUNT, currency: 'GHS', available: '5000000.00' },
      { accountId: USD_ACCOUNT, currency: 'USD', available: '1000000.00' },
    ]);
    const ghs = await create({ accountId: GHS_ACCOUNT, amount: 1200.5 });
    expect(ghs.body.currency).toBe('GHS');
    const usd = await create({ accountId: USD_ACCOUNT.toUpperCase(), amount: 99.99 });
    expect(usd.body.currency).toBe('USD');
    expect(await balance('GHS')).toBe('4998799.50');
    expect(await balance('USD')).toBe('999900.01');
    expect(await balance('NGN')).toBe('500000000.00');
    const after = await t.call('GET', '/_sandbox/accounts');
    expect(after.body.data[1].available).toBe('4998799.50');
  });

  it('answers the balance account id as the accounts list spells it when it was sent in upper case', async () => {
    const res = await create({ accountId: USD_ACCOUNT.toUpperCase(), amount: 10 });
    expect(res.status).toBe(201);
    expect(res.body.accountId).toBe(USD_ACCOUNT);
    expect((await read(res.body.reference)).accountId).toBe(USD_ACCOUNT);
  });

  it.each([
    ['test', KEY],
    ['live', LIVE_KEY],
  ])('%s keys refuse an accountId that is none of the balance accounts with 404, and debit nothing', async (_mode, key) => {
    const res = await create({ accountId: OTHER_UUID, amount: 100 }, { key });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      status: 'error',
      message: `No balance account '${OTHER_UUID}' belongs to this API key. Send the accountId of one of your accounts, as listed by GET /_sandbox/accounts.`,
      error: { type: 'not_found_error', code: 'ACCOUNT_NOT_FOUND', details: [{ field: 'accountId', issue: 'is not one of your balance accounts' }] },
    });
    expect(await balance('NGN', key)).toBe('500000000.00');
    expect((await t.call('GET', '/_sandbox/events', { key })).body.data).toEqual([]);
  });

  it('live keys refuse a bank code outside the bank list with 400', async () => {
    const badBank = await create({}, { key: LIVE_KEY });
    expect(badBank.status).toBe(400);
    expect(badBank.body.error).toMatchObject({ code: 'INVALID_BANK_CODE', details: [{ field: 'bankCode', issue: 'is not a known NGN bank code' }] });
    const ghsBank = await create({ accountId: GHS_ACCOUNT, bankCode: '058' }, { key: LIVE_KEY });
    expect(ghsBank.status).toBe(400);
    const ok = await create({ bankCode: '058', accountName: 'Adaeze Okonkwo' }, { key: LIVE_KEY });
    expect(ok.status).toBe(201);
    expect(ok.body.currency).toBe('NGN');
    expect(await balance('NGN', LIVE_KEY)).toBe('499975000.00');
  });

  it('accepts the smallest amount, a 100-character narration and no optional fields', async () => {
    expect((await create({ amount: 0.01 })).status).toBe(201);
    expect((await create({ narration: 'n'.repeat(100) })).status).toBe(201);
    const bare = await create({ narration: undefined, authCode: undefined });
    expect(bare.status).toBe(201);
    expect(bare.body.narration).toBeUndefined();
  });

  it.each([
    ['an accountId that is not a uuid', { accountId: 'acct-1' }, 'accountId', 'must be a UUID (8-4-4-4-12 hexadecimal digits), e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f'],
    ['a missing accountId', { accountId: undefined }, 'accountId', 'is required: send a string'],
    ['an empty accountName', { accountName: '' }, 'accountName', 'must not be empty'],
    ['an empty accountNumber', { accountNumber: '' }, 'accountNumber', 'must not be empty'],
    ['a numeric accountNumber', { accountNumber: 123 }, 'accountNumber', 'must be a string, not a number'],
    ['an empty bankCode', { bankCode: '' }, 'bankCode', 'must not be empty'],
    ['a missing bankCode', { bankCode: undefined }, 'bankCode', 'is required: send a string'],
    ['a zero amount', { amount: 0 }, 'amount', 'must be greater than 0'],
    ['a negative amount', { amount: -1 }, 'amount', 'must be greater than 0'],
    ['three decimals', { amount: 0.001 }, 'amount', 'must have at most 2 decimal places (the currency minor unit)'],
    ['a string amount', { amount: '25000' }, 'amount', 'must be a number, not a string'],
    ['an empty authCode', { authCode: '' }, 'authCode', 'must not be empty'],
    ['a 101-character narration', { narration: 'n'.repeat(101) }, 'narration', 'must be at most 100 characters long'],
  ])('refuses %s with 400 naming the field', async (_name, over, field, issue) => {
    const res = await create(over);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'VALIDATION_ERROR' });
    expect(res.body.error.details).toContainEqual({ field, issue });
    expect(res.body.message).toContain(field);
    expect(await balance()).toBe('500000000.00');
  });

  it('refuses more than the account holds, and takes exactly all of it', async () => {
    const over = await create({ accountId: USD_ACCOUNT, amount: 1000000.01 });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('INSUFFICIENT_BALANCE');
    // withdrawals carry no fee, so the message does not speak of one
    expect(over.body.message).toBe(
      'The USD wallet holds 1000000, less than the 1000000.01 this needs. Send a smaller amount, or top up with POST /_sandbox/balances/top-up.',
    );
    expect(await balance('USD')).toBe('1000000.00');
    expect((await create({ accountId: USD_ACCOUNT, amount: 1000000 })).status).toBe(201);
    expect(await balance('USD')).toBe('0.00');
  });
});

describe('authCode', () => {
  // The bundled two-factor scenario, named per request.
  const scenario = { headers: { 'X-Sandbox-Scenario': 'two-factor' } };

  it('is optional by default: missing or any value is accepted', async () => {
    expect((await create()).status).toBe(201);
    expect((await create({ authCode: '000000' })).status).toBe(201);
  });

  it('when required, a missing code is 403 AUTH_CODE_REQUIRED and nothing is debited', async () => {
    const res = await create({}, scenario);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'AUTH_CODE_REQUIRED', details: [{ field: 'authCode', issue: 'is required by the current scenario' }] });
    expect(await balance()).toBe('500000000.00');
  });

  it('when required, a wrong code is 403 INVALID_AUTH_CODE and 123456 is accepted', async () => {
    const wrong = await create({ authCode: '654321' }, scenario);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('INVALID_AUTH_CODE');
    expect(wrong.body.message).toContain('authCode');
    const right = await create({ authCode: '123456' }, scenario);
    expect(right.status).toBe(201);
    expect(await balance()).toBe('499975000.00');
  });
});

describe('lifecycle', () => {
  it('settles PROCESSING → SUCCESSFUL after 300 s, provider status alongside, one event per change', async () => {
    const { reference } = (await create()).body;
    await advance(t, 299);
    expect(await read(reference)).toMatchObject({ status: 'PROCESSING', providerStatus: 'PROCESSING' });
    await advance(t, 1);
    expect(await read(reference)).toMatchObject({ status: 'SUCCESSFUL', providerStatus: 'SUCCESSFUL', updatedAt: '2026-01-15T09:05:00.000Z', failureReason: null });
    expect(await balance()).toBe('499975000.00');
    const events = (await t.call('GET', '/_sandbox/events?type=withdrawal')).body.data;
    expect(events.map((e: { event: string }) => e.event)).toEqual(['withdrawal.processing', 'withdrawal.successful']);
    expect(events[1].data).toMatchObject({
      reference,
      status: 'SUCCESSFUL',
      provider_status: 'SUCCESSFUL',
      account_id: NGN_ACCOUNT,
      destination: { account_number: '0123456789', account_name: 'John Doe', bank_code: 'SPB-17646' },
    });
  });

  it('a simulated failure refunds the account and records the reason', async () => {
    const { reference } = (await create()).body;
    const res = await t.call('POST', `${SIM}/${reference}/fail`, { body: { reason: 'Beneficiary account dormant' } });
    expect(res.status).toBe(200);
    expect(res.body.state).toMatchObject({ status: 'FAILED', providerStatus: 'FAILED', failureReason: 'Beneficiary account dormant' });
    expect(await balance()).toBe('500000000.00');
    await advance(t, 3600);
    expect((await read(reference)).status).toBe('FAILED');
    const events = (await t.call('GET', '/_sandbox/events?type=withdrawal.failed')).body.data;
    expect(events[0].data.failure_reason).toBe('Beneficiary account dormant');
  });

  it('a simulated completion settles it at once', async () => {
    const { reference } = (await create()).body;
    const res = await t.call('POST', `${SIM}/${reference}/complete`);
    expect(res.body.state).toMatchObject({ status: 'SUCCESSFUL', providerStatus: 'SUCCESSFUL' });
    await advance(t, 3600);
    expect((await t.call('GET', '/_sandbox/events?type=withdrawal.successful')).body.data).toHaveLength(1);
  });

  it('follows the duration and outcome of the scenario in force', async () => {
    const failing: Behaviour = {
      ...defaultBehaviour,
      name: 'bank-down',
      duration: (r, s) => (r.name === 'withdrawal' ? 60 : defaultBehaviour.duration(r, s)),
      outcome: (r, f) => (r.name === 'withdrawal' ? { succeed: false, reason: `Bank ${f.bankCode} unavailable` } : { succeed: true }),
    };
    t = await createTestApp({ behaviourFor: () => failing });
    const res = await create({ accountId: GHS_ACCOUNT, amount: 500 });
    expect(res.body.estimatedCompletionAt).toBe('2026-01-15T09:01:00.000Z');
    expect(await balance('GHS')).toBe('4999500.00');
    await advance(t, 60);
    expect(await read(res.body.reference)).toMatchObject({ status: 'FAILED', providerStatus: 'FAILED', failureReason: 'Bank SPB-17646 unavailable' });
    expect(await balance('GHS')).toBe('5000000.00');
  });

  it('refuses every move out of a settled withdrawal with 409', async () => {
    for (const [end, event] of [['complete', 'fail'], ['complete', 'complete'], ['fail', 'complete'], ['fail', 'fail']]) {
      const { reference } = (await create({ amount: 10 })).body;
      expect((await t.call('POST', `${SIM}/${reference}/${end}`)).status).toBe(200);
      const res = await t.call('POST', `${SIM}/${reference}/${event}`);
      expect(res.status, `${event} after ${end}`).toBe(409);
      expect(res.body.error.code).toBe('INVALID_STATE_TRANSITION');
    }
    expect(await balance()).toBe('499999980.00');
  });

  it('simulate names the events and refuses an unknown withdrawal', async () => {
    const ev = await t.call('POST', `${SIM}/x/cancel`);
    expect(ev.status).toBe(400);
    expect(ev.body.error.details[0].issue).toBe('must be one of: complete, fail');
    expect((await t.call('POST', `${SIM}/TRF-NOPE/fail`)).status).toBe(404);
  });
});

describe('read-back, idempotency and tenants', () => {
  it('answers 404 for an unknown reference', async () => {
    const res = await t.call('GET', `${PATH}/TRF-00000000000000000000000000000000`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('reads and moves a withdrawal by its reference in any letter case, as quote ids and FX TxIds are read', async () => {
    const created = (await create()).body;
    const lower = created.reference.toLowerCase();
    expect(lower).not.toBe(created.reference);
    const res = await t.call('GET', `${PATH}/${lower}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    const mixed = `trf-${created.reference.slice(4)}`;
    expect((await t.call('GET', `${PATH}/${mixed}`)).body.reference).toBe(created.reference);
    const failed = await t.call('POST', `${SIM}/${lower}/fail`);
    expect(failed.status).toBe(200);
    expect(failed.body.state).toMatchObject({ reference: created.reference, status: 'FAILED' });
    expect(await balance()).toBe('500000000.00');
    const missing = await t.call('GET', `${PATH}/trf-00000000000000000000000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("No withdrawal with reference 'trf-00000000000000000000000000000000' exists for this API key. Send the reference the create call answered with.");
  });

  it('without an Idempotency-Key every request is a new withdrawal', async () => {
    const a = await create();
    const b = await create();
    expect(b.body.reference).not.toBe(a.body.reference);
    expect(await balance()).toBe('499950000.00');
  });

  it('with an Idempotency-Key replays the same body and refuses another with 409', async () => {
    const headers = { 'Idempotency-Key': 'settle-2026-06' };
    const first = await create({}, { headers });
    const again = await create({}, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await create({ amount: 1 }, { headers });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', details: [{ field: 'Idempotency-Key', issue: 'already used with a different body' }] });
    expect(await balance()).toBe('499975000.00');
    const long = await create({}, { headers: { 'Idempotency-Key': 'k'.repeat(101) } });
    expect(long.status).toBe(400);
    // The header is spelt one way in every refusal, whatever case it was sent in.
    expect(long.body.message).toBe('Invalid request headers: Idempotency-Key must be at most 100 characters long.');
    expect(long.body.error.details).toEqual([{ field: 'Idempotency-Key', issue: 'must be at most 100 characters long' }]);
    const lower = await create({}, { headers: { 'idempotency-key': '' } });
    expect([lower.status, lower.body.error.details]).toEqual([400, [{ field: 'Idempotency-Key', issue: 'must not be empty' }]]);
  });

  it('makes exactly one withdrawal from concurrent requests with one key', async () => {
    const headers = { 'Idempotency-Key': 'once' };
    const all = await Promise.all(Array.from({ length: 10 }, () => create({}, { headers })));
    expect(all.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(all.map((r) => r.body.reference)).size).toBe(1);
    expect(await balance()).toBe('499975000.00');
  });

  it('keeps withdrawals, balances and idempotency keys per API key', async () => {
    const headers = { 'Idempotency-Key': 'shared-key' };
    const mine = await create({}, { headers });
    expect((await t.call('GET', `${PATH}/${mine.body.reference}`, { key: KEY_B })).status).toBe(404);
    expect((await t.call('POST', `${SIM}/${mine.body.reference}/fail`, { key: KEY_B })).status).toBe(404);
    const theirs = await create({ amount: 7 }, { key: KEY_B, headers });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await balance('NGN', KEY_B)).toBe('499999993.00');
    expect(await balance()).toBe('499975000.00');
  });

  it('refuses both routes and the accounts list without a key', async () => {
    expect((await t.call('POST', PATH, { key: null, body: withdrawal() })).status).toBe(401);
    expect((await t.call('GET', `${PATH}/TRF-X`, { key: null })).status).toBe(401);
    expect((await t.call('GET', '/_sandbox/accounts', { key: null })).status).toBe(401);
    expect(await balance()).toBe('500000000.00');
  });

  it('both routes and the accounts list are in /openapi.json', async () => {
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    expect(doc.paths['/api/v1/partners/withdrawal'].post.responses['403']).toBeDefined();
    expect(doc.paths['/api/v1/partners/withdrawal/{reference}'].get.responses['200']).toBeDefined();
    expect(doc.paths['/_sandbox/accounts'].get.responses['200']).toBeDefined();
    expect(doc.components.schemas.CreateWithdrawalRequest.required.sort()).toEqual(['accountId', 'accountName', 'accountNumber', 'amount', 'bankCode']);
  });

  it("publishes the answer's amount as a double, as the API document types it", async () => {
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    expect(doc.components.schemas.Withdrawal.properties.amount).toEqual({ type: 'number', format: 'double' });
  });
});
