import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY, KEY_B, LIVE_KEY, type TestApp } from '../../support/app.js';

const PATH = '/api/v1/partners/payouts';

const payout = (over: Record<string, unknown> = {}) => ({
  reference: 'order-10001',
  amount: 10000,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
  narration: 'Invoice 10001',
  ...over,
});

/** A fixture account live keys resolve, in its resolved name. */
const ADAEZE = { accountNumber: '0123456789', accountName: 'Adaeze Okonkwo', bankCode: '058' };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function balance(key = KEY, currency = 'NGN') {
  const res = await t.call('GET', '/_sandbox/balances', { key });
  return res.body.data.find((b: { key: string }) => b.key === currency).available as string;
}

describe('POST /api/v1/partners/payouts', () => {
  it('creates a PENDING payout in the success envelope', async () => {
    const res = await t.call('POST', PATH, { body: payout({ destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058', branchCode: '001' } }) });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('success');
    expect(res.body.message).toBe('Payout initiated successfully');
    const d = res.body.data;
    expect(d).toMatchObject({
      reference: 'order-10001',
      amount: 10000,
      currency: 'NGN',
      status: 'PENDING',
      fee: 50,
      narration: 'Invoice 10001',
      failureReason: null,
      destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058', branchCode: '001', bankName: 'Guaranty Trust Bank' },
    });
    expect(d.createdAt).toBe('2026-01-15T09:00:00.000Z');
    expect(d.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(d.estimatedCompletionAt).toBe('2026-01-15T09:05:00.000Z');
    expect(d.transactionReference).toMatch(/^HPR-TRSF-[0-9A-F]{24}$/);
  });

  it('applies the fee schedule per currency and band', async () => {
    const cases: [string, number, number][] = [
      ['NGN', 5000, 10],
      ['NGN', 50000, 50],
      ['NGN', 50000.01, 100],
      ['GHS', 1000, 2],
      ['GHS', 1500, 5],
      ['USD', 999.99, 1],
      ['USD', 2500, 3],
    ];
    for (const [i, [currency, amount, fee]] of cases.entries()) {
      const res = await t.call('POST', PATH, { body: payout({ reference: `fee-${i}`, currency, amount }) });
      expect(res.status, `${currency} ${amount}`).toBe(201);
      expect(res.body.data.fee, `${currency} ${amount}`).toBe(fee);
    }
  });

  it('debits amount plus fee from the currency balance', async () => {
    expect(await balance()).toBe('500000000.00');
    await t.call('POST', PATH, { body: payout() });
    expect(await balance()).toBe('499989950.00');
  });

  it('accepts a 50-character reference and refuses 51 characters, naming the field', async () => {
    const ok = await t.call('POST', PATH, { body: payout({ reference: 'r'.repeat(50) }) });
    expect(ok.status).toBe(201);
    const bad = await t.call('POST', PATH, { body: payout({ reference: 'r'.repeat(51) }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', code: 'VALIDATION_ERROR' });
    expect(bad.body.error.details).toEqual([{ field: 'reference', issue: 'must be at most 50 characters long' }]);
    expect(bad.body.message).toContain('reference');
  });

  it.each([
    ['a string amount', { amount: '10000' }, 'amount', 'must be a number, not a string'],
    ['a zero amount', { amount: 0 }, 'amount', 'must be greater than 0'],
    ['a negative amount', { amount: -5 }, 'amount', 'must be greater than 0'],
    ['three decimals', { amount: 10.123 }, 'amount', 'must have at most 2 decimal places (the currency minor unit)'],
    ['an unknown currency', { currency: 'EUR' }, 'currency', 'must be one of: NGN, GHS, USD'],
    ['a lower-case currency', { currency: 'ngn' }, 'currency', "must be one of: NGN, GHS, USD (send 'NGN', in that case)"],
    ['a missing destination', { destination: undefined }, 'destination', 'is required: send an object'],
    ['an empty reference', { reference: '' }, 'reference', 'must not be empty'],
    ['a numeric bank code', { destination: { accountNumber: '1', accountName: 'A', bankCode: 58 } }, 'destination.bankCode', 'must be a string, not a number'],
    ['a missing account name', { destination: { accountNumber: '1', bankCode: '058' } }, 'destination.accountName', 'is required: send a string'],
  ])('refuses %s with 400 naming the field', async (_name, over, field, issue) => {
    const res = await t.call('POST', PATH, { body: payout(over) });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
    expect(res.body.error.details).toContainEqual({ field, issue });
    expect(res.body.message).toContain(field);
  });

  it('ignores fields the document does not name', async () => {
    const res = await t.call('POST', PATH, { body: { ...payout(), extra: 'x' } });
    expect(res.status).toBe(201);
    expect(res.body.data.extra).toBeUndefined();
  });

  it('refuses malformed JSON, a non-JSON body and an oversized body', async () => {
    const malformed = await t.call('POST', PATH, { raw: '{"reference": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('MALFORMED_JSON');
    const wrongType = await t.call('POST', PATH, { raw: 'reference=1', headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = await t.call('POST', PATH, { body: payout({ narration: 'x'.repeat(1024 * 1024 + 10) }) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const none = await t.call('GET', `${PATH}/order-10001`);
    expect(none.status).toBe(404);
  });

  it('reads back a reference of at most 50 characters, the creation limit: a longer one is 400 naming reference', async () => {
    expect((await t.call('POST', PATH, { body: payout({ reference: 'r'.repeat(50) }) })).status).toBe(201);
    expect((await t.call('GET', `${PATH}/${'r'.repeat(50)}`)).status).toBe(200);
    const long = await t.call('GET', `${PATH}/${'r'.repeat(51)}`);
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'reference', issue: 'must be at most 50 characters long' }] });
  });

  it('refuses a payout larger than the balance with its own code and keeps nothing', async () => {
    const res = await t.call('POST', PATH, { body: payout({ currency: 'USD', amount: 2_000_000 }) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect((await t.call('GET', `${PATH}/order-10001`)).status).toBe(404);
    expect(await balance(KEY, 'USD')).toBe('1000000.00');
  });

  it('debits amount plus fee: a payout of the whole balance is refused naming what it needs with its fee', async () => {
    const res = await t.call('POST', PATH, { body: payout({ currency: 'USD', amount: 1_000_000 }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: [{ field: 'amount', issue: 'with its fee, 1000003, exceeds the available USD balance of 1000000' }],
    });
    const fits = await t.call('POST', PATH, { body: payout({ currency: 'USD', amount: 999_997 }) });
    expect(fits.status).toBe(201);
    expect(fits.body.data.fee).toBe(3);
    expect(await balance(KEY, 'USD')).toBe('0.00');
  });
});

describe('idempotency', () => {
  it('replays the stored response for the same reference and body', async () => {
    const first = await t.call('POST', PATH, { body: payout() });
    const again = await t.call('POST', PATH, { body: payout() });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body).toEqual(first.body);
    expect(await balance()).toBe('499989950.00');
  });

  it('answers 409 for the same reference with a different body', async () => {
    await t.call('POST', PATH, { body: payout() });
    const res = await t.call('POST', PATH, { body: payout({ amount: 20000 }) });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'conflict_error', code: 'IDEMPOTENCY_CONFLICT' });
  });

  it('makes exactly one payout from 20 concurrent identical requests', async () => {
    const all = await Promise.all(Array.from({ length: 20 }, () => t.call('POST', PATH, { body: payout() })));
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(all.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(new Set(all.map((r) => r.body.data.transactionReference)).size).toBe(1);
    expect(await balance()).toBe('499989950.00');
    const events = await t.call('GET', '/_sandbox/events?type=payout');
    expect(events.body.data).toHaveLength(1);
  });
});

describe('lifecycle', () => {
  it('reads back by reference and moves PENDING → PROCESSING → SUCCESSFUL on the tenant clock', async () => {
    await t.call('POST', PATH, { body: payout() });
    const read = async () => (await t.call('GET', `${PATH}/order-10001`)).body;
    expect((await read()).message).toBe('Payout retrieved successfully');
    expect((await read()).data.status).toBe('PENDING');
    await advance(t, 30);
    expect((await read()).data.status).toBe('PROCESSING');
    await advance(t, 3600);
    const done = (await read()).data;
    expect(done.status).toBe('SUCCESSFUL');
    expect(done.updatedAt).toBe('2026-01-15T09:05:00.000Z');
    const events = await t.call('GET', '/_sandbox/events?type=payout');
    expect(events.body.data.map((e: { event: string }) => e.event)).toEqual(['payout.pending', 'payout.processing', 'payout.successful']);
    expect(events.body.data[2].data).toMatchObject({ reference: 'order-10001', status: 'SUCCESSFUL', transaction_reference: done.transactionReference });
    expect(events.body.data[2].data.destination.account_number).toBe('0123456789');
  });

  it('estimatedCompletionAt follows a simulated early PROCESSING, in the read-back and the event', async () => {
    await t.call('POST', PATH, { body: payout() });
    await advance(t, 10);
    const moved = await t.call('POST', '/_sandbox/simulate/payouts/order-10001/process');
    // PROCESSING entered at 09:00:10 lasts its 270 s: the payout now ends at 09:04:40, not 09:05:00.
    expect(moved.body.state).toMatchObject({ status: 'PROCESSING', updatedAt: '2026-01-15T09:00:10.000Z', estimatedCompletionAt: '2026-01-15T09:04:40.000Z' });
    expect((await t.call('GET', `${PATH}/order-10001`)).body.data.estimatedCompletionAt).toBe('2026-01-15T09:04:40.000Z');
    const events = (await t.call('GET', '/_sandbox/events?type=payout.processing')).body.data;
    expect(events[0].data.estimated_completion_at).toBe('2026-01-15T09:04:40.000Z');
    await advance(t, 270);
    const done = (await t.call('GET', `${PATH}/order-10001`)).body.data;
    expect([done.status, done.updatedAt, done.createdAt]).toEqual(['SUCCESSFUL', '2026-01-15T09:04:40.000Z', '2026-01-15T09:00:00.000Z']);
    expect(done.estimatedCompletionAt).toBe(done.updatedAt);
  });

  it('estimatedCompletionAt follows the PROCESSING time of the scenario in force when PROCESSING is entered', async () => {
    await t.call('POST', PATH, { body: payout() });
    expect((await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { payout: { timing: { PROCESSING: 60 } } } } })).status).toBe(200);
    await advance(t, 30);
    expect((await t.call('GET', `${PATH}/order-10001`)).body.data).toMatchObject({ status: 'PROCESSING', estimatedCompletionAt: '2026-01-15T09:01:30.000Z' });
    await advance(t, 60);
    expect((await t.call('GET', `${PATH}/order-10001`)).body.data).toMatchObject({ status: 'SUCCESSFUL', updatedAt: '2026-01-15T09:01:30.000Z' });
  });

  it('a read after the real clock passes the due time shows the implied state', async () => {
    await t.call('POST', PATH, { body: payout() });
    t.clock.advance(301);
    expect((await t.call('GET', `${PATH}/order-10001`)).body.data.status).toBe('SUCCESSFUL');
  });

  it('refunds amount and fee when a payout fails, and refuses moves from a terminal state', async () => {
    await t.call('POST', PATH, { body: payout() });
    const failed = await t.call('POST', '/_sandbox/simulate/payouts/order-10001/fail', { body: { reason: 'Account closed' } });
    expect(failed.status).toBe(200);
    expect(failed.body.state).toMatchObject({ status: 'FAILED', failureReason: 'Account closed' });
    // failing a PENDING payout walks it through PROCESSING: the lifecycle keeps its order
    const events = (await t.call('GET', '/_sandbox/events?type=payout')).body.data;
    expect(events.map((e: { event: string }) => e.event)).toEqual(['payout.pending', 'payout.processing', 'payout.failed']);
    expect(await balance()).toBe('500000000.00');
    const again = await t.call('POST', '/_sandbox/simulate/payouts/order-10001/complete');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE_TRANSITION');
    await advance(t, 3600);
    expect((await t.call('GET', `${PATH}/order-10001`)).body.data.status).toBe('FAILED');
  });

  it('simulate refuses unknown resources, unknown events and unknown ids', async () => {
    expect((await t.call('POST', '/_sandbox/simulate/widgets/x/fail')).status).toBe(404);
    const ev = await t.call('POST', '/_sandbox/simulate/payouts/x/explode');
    expect(ev.status).toBe(400);
    expect(ev.body.error.details[0].issue).toBe('must be one of: process, complete, fail');
    expect((await t.call('POST', '/_sandbox/simulate/payouts/nope/fail')).status).toBe(404);
  });
});

describe('tenants', () => {
  it('isolates payouts per key and lets another key reuse a reference', async () => {
    await t.call('POST', PATH, { body: payout() });
    const other = await t.call('GET', `${PATH}/order-10001`, { key: KEY_B });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect(other.body.message).toBe("No payout with reference 'order-10001' exists for this API key. Send the reference the create call answered with.");
    const reuse = await t.call('POST', PATH, { key: KEY_B, body: payout({ amount: 777 }) });
    expect(reuse.status).toBe(201);
    expect(reuse.headers.get('idempotent-replayed')).toBeNull();
    expect((await t.call('GET', `${PATH}/order-10001`)).body.data.amount).toBe(10000);
  });

  it('live keys need a listed bank code and show mode-specific rules', async () => {
    const bad = await t.call('POST', PATH, { key: LIVE_KEY, body: payout({ destination: { accountNumber: '1', accountName: 'A', bankCode: '999' } }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_BANK_CODE', details: [{ field: 'destination.bankCode', issue: 'is not a known NGN bank code' }] });
    const ok = await t.call('POST', PATH, { key: LIVE_KEY, body: payout({ destination: ADAEZE }) });
    expect(ok.status).toBe(201);
    const test = await t.call('POST', PATH, { body: payout({ destination: { accountNumber: '1', accountName: 'A', bankCode: '999' } }) });
    expect(test.status).toBe(201);
    expect(test.body.data.destination).toEqual({ accountNumber: '1', accountName: 'A', bankCode: '999', bankName: 'Sandbox Test Bank' });
  });

  it('live keys refuse an account that does not resolve, naming the field and the resolve operation, and debit nothing', async () => {
    const res = await t.call('POST', PATH, { key: LIVE_KEY, body: payout({ destination: { ...ADAEZE, accountNumber: '9999999999' } }) });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      type: 'not_found_error',
      code: 'ACCOUNT_NOT_FOUND',
      details: [{ field: 'destination.accountNumber', issue: 'does not resolve at this bank' }],
    });
    expect(res.body.message).toBe(
      'No account 9999999999 exists at bank 058, so a live payout cannot reach it. Resolve it first with GET /api/v1/partners/banks/resolve?accountNumber=9999999999&bankCode=058&currency=NGN.',
    );
    const resolved = await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=9999999999&bankCode=058', { key: LIVE_KEY });
    expect(resolved.status).toBe(404);
    expect(await balance(LIVE_KEY)).toBe('500000000.00');
    expect((await t.call('GET', `${PATH}/order-10001`, { key: LIVE_KEY })).status).toBe(404);
  });

  it('live keys refuse a name other than the resolved one; case and spacing do not count', async () => {
    const res = await t.call('POST', PATH, { key: LIVE_KEY, body: payout({ destination: { ...ADAEZE, accountName: 'John Doe' } }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      type: 'invalid_request_error',
      code: 'ACCOUNT_NAME_MISMATCH',
      details: [{ field: 'destination.accountName', issue: 'differs from the name the account resolves to' }],
    });
    expect(res.body.message).toBe(
      "Account 0123456789 at bank 058 is not in the name 'John Doe'. Send the accountName that Resolve Bank Account returns for it. Resolve it first with GET /api/v1/partners/banks/resolve?accountNumber=0123456789&bankCode=058&currency=NGN.",
    );
    expect(await balance(LIVE_KEY)).toBe('500000000.00');
    const spelled = await t.call('POST', PATH, { key: LIVE_KEY, body: payout({ destination: { ...ADAEZE, accountName: '  ADAEZE   okonkwo ' } }) });
    expect(spelled.status).toBe(201);
    expect(spelled.body.data.destination.accountName).toBe('  ADAEZE   okonkwo ');
  });

  it('live USD payouts take only the fixture accounts, and say so', async () => {
    const usd = { accountNumber: '000123456789', accountName: 'Jordan Smith', bankCode: '021000021' };
    const ok = await t.call('POST', PATH, { key: LIVE_KEY, body: payout({ currency: 'USD', amount: 100, destination: usd }) });
    expect(ok.status).toBe(201);
    const bad = await t.call('POST', PATH, { key: LIVE_KEY, body: payout({ reference: 'usd-2', currency: 'USD', amount: 100, destination: { ...usd, accountNumber: '1' } }) });
    expect(bad.status).toBe(404);
    expect(bad.body.message).toMatch(/USD accounts of the sandbox's fixtures\/accounts\.json \(Resolve Bank Account covers NGN and GHS\)/);
  });

  it('test keys pay any account in any name, as before', async () => {
    const res = await t.call('POST', PATH, { body: payout({ destination: { accountNumber: '9999999999', accountName: 'Somebody Else', bankCode: '058' } }) });
    expect(res.status).toBe(201);
    expect(res.body.data.destination).toMatchObject({ accountNumber: '9999999999', accountName: 'Somebody Else' });
  });
});

describe('validation messages', () => {
  it('says a missing enum field is required and lists what to send', async () => {
    const t2 = await createTestApp();
    const { currency: _c, ...rest } = payout();
    const res = await t2.call('POST', PATH, { body: rest });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'currency', issue: 'is required: send one of: NGN, GHS, USD' }]);
    expect(res.body.message).toBe('Invalid request body: currency is required: send one of: NGN, GHS, USD.');
  });

  it('says a number too large for JSON must be finite', async () => {
    const t2 = await createTestApp();
    const raw = JSON.stringify(payout()).replace('"amount":10000', '"amount":1e400');
    const res = await t2.call('POST', PATH, { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'amount', issue: 'must be a finite number, not Infinity' }]);
  });
});

describe('simulate bodies', () => {
  it('accepts an empty body sent with a JSON content type, and refuses a body that is not JSON', async () => {
    const t2 = await createTestApp();
    await t2.call('POST', PATH, { body: payout() });
    const empty = await t2.call('POST', '/_sandbox/simulate/payouts/order-10001/process', { raw: '', headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(200);
    expect(empty.body.state.status).toBe('PROCESSING');
    const bad = await t2.call('POST', '/_sandbox/simulate/payouts/order-10001/fail', { raw: '{"reason":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('MALFORMED_JSON');
    const wrong = await t2.call('POST', '/_sandbox/simulate/payouts/order-10001/fail', { body: { reason: 5 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([{ field: 'reason', issue: 'must be a string, not a number' }]);
    expect((await t2.call('GET', `${PATH}/order-10001`)).body.data.status).toBe('PROCESSING');
  });
});

describe('idempotency and key order', () => {
  it('replays a retry whose fields come in another order', async () => {
    const t2 = await createTestApp();
    await t2.call('POST', PATH, { body: payout() });
    const { destination, ...rest } = payout();
    const reordered = { destination: { bankCode: destination.bankCode, accountName: destination.accountName, accountNumber: destination.accountNumber }, ...Object.fromEntries(Object.entries(rest).reverse()) };
    const again = await t2.call('POST', PATH, { body: reordered });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
