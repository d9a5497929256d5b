// Every bank destination under a live key is checked as a payout's is (checkPayee): the account
// must resolve (fixtures/accounts.json), in the name it resolves to. Test keys stay lenient. Each
// destination is shown with both keys side by side.
import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY, LIVE_KEY, type TestApp } from '../../support/app.js';
import { acceptBank, fx, newTrade, rejection } from '../../support/fx.js';
import type { XmlElement } from '../../../src/iso20022/xml.js';

/** Fixture account 0123456789 at bank 058 resolves to Adaeze Okonkwo. */
const RESOLVED = { accountNumber: '0123456789', accountName: 'Adaeze Okonkwo', bankCode: '058' };
const WRONG_NAME = { ...RESOLVED, accountName: 'John Doe' };
const UNKNOWN = { ...RESOLVED, accountNumber: '9999999999' };
const NOT_FOUND = 'No account 9999999999 exists at bank 058, so a live payout cannot reach it. Resolve it first with GET /api/v1/partners/banks/resolve?accountNumber=9999999999&bankCode=058&currency=NGN.';
const MISMATCH =
  "Account 0123456789 at bank 058 is not in the name 'John Doe'. Send the accountName that Resolve Bank Account returns for it. Resolve it first with GET /api/v1/partners/banks/resolve?accountNumber=0123456789&bankCode=058&currency=NGN.";
const NGN_ACCOUNT = '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9';
const SOURCE = { 'x-service-source': 'payroll-service' };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

describe('withdrawals', () => {
  const withdraw = (dest: typeof RESOLVED, key: string) =>
    t.call('POST', '/api/v1/partners/withdrawal', { key, body: { accountId: NGN_ACCOUNT, amount: 25000, ...dest } });

  it('live: an account that does not resolve is 404, a name other than the resolved one 400; test keys take both', async () => {
    const unknown = await withdraw(UNKNOWN, LIVE_KEY);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      status: 'error',
      message: NOT_FOUND,
      error: { type: 'not_found_error', code: 'ACCOUNT_NOT_FOUND', details: [{ field: 'accountNumber', issue: 'does not resolve at this bank' }] },
    });
    const wrong = await withdraw(WRONG_NAME, LIVE_KEY);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      status: 'error',
      message: MISMATCH,
      error: { type: 'invalid_request_error', code: 'ACCOUNT_NAME_MISMATCH', details: [{ field: 'accountName', issue: 'differs from the name the account resolves to' }] },
    });
    expect((await withdraw(RESOLVED, LIVE_KEY)).status).toBe(201);
    expect((await withdraw(UNKNOWN, KEY)).status).toBe(201);
    expect((await withdraw(WRONG_NAME, KEY)).status).toBe(201);
  });
});

describe('single transfers', () => {
  const transfer = (reference: string, type: string, dest: Record<string, string>, key: string) =>
    t.call('POST', '/api/v1/transfers', {
      key,
      headers: SOURCE,
      body: { reference, amount: 25000, currency: 'NGN', type, source: { accountNumber: '1000200030' }, destination: dest },
    });

  it('live: a BANK transfer must pay a resolving account in its name; test keys pay any', async () => {
    const unknown = await transfer('00000000-0000-4000-8000-000000000001', 'BANK', UNKNOWN, LIVE_KEY);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: NOT_FOUND, error: { code: 'ACCOUNT_NOT_FOUND', details: [{ field: 'destination.accountNumber', issue: 'does not resolve at this bank' }] } });
    const wrong = await transfer('00000000-0000-4000-8000-000000000002', 'BANK', WRONG_NAME, LIVE_KEY);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: MISMATCH, error: { code: 'ACCOUNT_NAME_MISMATCH', details: [{ field: 'destination.accountName' }] } });
    expect((await transfer('00000000-0000-4000-8000-000000000003', 'BANK', RESOLVED, LIVE_KEY)).status).toBe(201);
    expect((await transfer('00000000-0000-4000-8000-000000000004', 'BANK', UNKNOWN, KEY)).status).toBe(201);
    expect((await transfer('00000000-0000-4000-8000-000000000005', 'BANK', WRONG_NAME, KEY)).status).toBe(201);
  });

  it('live: WALLET and MOBILE_MONEY destinations are not bank accounts and are not resolved', async () => {
    const wallet = await transfer('00000000-0000-4000-8000-000000000006', 'WALLET', { accountNumber: 'W-100', accountName: 'Ada Obi' }, LIVE_KEY);
    expect(wallet.status).toBe(201);
    const momo = await transfer('00000000-0000-4000-8000-000000000007', 'MOBILE_MONEY', { accountNumber: '08031234567', accountName: 'Ada Obi', bankCode: 'MTN' }, LIVE_KEY);
    expect(momo.status).toBe(201);
  });
});

describe('bulk rows', () => {
  const row = (i: number, dest: Record<string, string>) => ({
    reference: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    amount: 1000,
    currency: 'NGN',
    type: 'BANK',
    source: { accountNumber: '1000200030' },
    destination: dest,
    category: 'SALARY',
  });
  const read = async (i: number, key: string) =>
    (await t.call('GET', `/api/v1/transfers/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, { key, headers: SOURCE })).body;

  it('live: the file is accepted; a row to an account that does not resolve, or in another name, ends FAILED with the reason', async () => {
    const items = [row(1, RESOLVED), row(2, UNKNOWN), row(3, WRONG_NAME)];
    const res = await t.call('POST', '/_sandbox/bulk-disbursements', { key: LIVE_KEY, headers: SOURCE, body: { items } });
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(3);
    expect((await read(2, LIVE_KEY)).status).toBe('PENDING');
    await advance(t, 301, LIVE_KEY);
    expect(await read(1, LIVE_KEY)).toMatchObject({ status: 'SUCCESSFUL', failureReason: null });
    expect(await read(2, LIVE_KEY)).toMatchObject({ status: 'FAILED', failureReason: NOT_FOUND });
    expect(await read(3, LIVE_KEY)).toMatchObject({ status: 'FAILED', failureReason: MISMATCH });
  });

  it('test keys: the same rows all succeed', async () => {
    const items = [row(1, RESOLVED), row(2, UNKNOWN), row(3, WRONG_NAME)];
    expect((await t.call('POST', '/_sandbox/bulk-disbursements', { headers: SOURCE, body: { items } })).status).toBe(201);
    await advance(t, 301);
    for (const i of [1, 2, 3]) expect((await read(i, KEY)).status).toBe('SUCCESSFUL');
  });

  it('live: a row with an unlisted bank code still refuses the file, as before', async () => {
    const res = await t.call('POST', '/_sandbox/bulk-disbursements', { key: LIVE_KEY, headers: SOURCE, body: { items: [row(1, { ...RESOLVED, bankCode: '999' })] } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'items[0].destination.bankCode', issue: 'is not a known NGN bank code' }]);
  });
});

describe('FX accept with SttlmDstn/BkDstn', () => {
  const bank = (d: typeof RESOLVED) => acceptBank.replace('John Doe', d.accountName).replace('0123456789', d.accountNumber);
  const accept = async (d: typeof RESOLVED, key: string) => {
    const id = await newTrade(t, { base: 'USDT', quoted: 'NGN', amount: '10', direction: 'SELL' }, key);
    return fx(t, 'POST', `/trades/${id}/accept`, { xml: bank(d), key });
  };
  const sts = (x: XmlElement) => (x.TradSts as XmlElement).Sts;

  it('live: answers the XML reject at the BkDstn field; test keys settle', async () => {
    expect(rejection(await accept(UNKNOWN, LIVE_KEY))).toEqual({ status: 404, code: 'ACCOUNT_NOT_FOUND', location: 'SttlmDstn/BkDstn/AcctNb', text: NOT_FOUND });
    expect(rejection(await accept(WRONG_NAME, LIVE_KEY))).toEqual({ status: 400, code: 'ACCOUNT_NAME_MISMATCH', location: 'SttlmDstn/BkDstn/AcctNm', text: MISMATCH });
    expect(sts((await accept(RESOLVED, LIVE_KEY)).xml)).toBe('SETT');
    expect(sts((await accept(UNKNOWN, KEY)).xml)).toBe('SETT');
    expect(sts((await accept(WRONG_NAME, KEY)).xml)).toBe('SETT');
  });
});

describe('quote completion to a bank', () => {
  const complete = async (d: typeof RESOLVED, key: string) => {
    const q = await t.call('POST', '/api/v1/partners/marketplace/intent', { key, body: { sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 10, amountDirection: 'source' } });
    expect(q.status, q.text).toBe(201);
    return t.call('PUT', `/api/v1/quotes/complete/${q.body.quoteId}`, { key, body: { destination: { bank: d } } });
  };

  it('live: refuses with the payout errors at destination.bank; test keys complete', async () => {
    const unknown = await complete(UNKNOWN, LIVE_KEY);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({ type: 'not_found_error', code: 'ACCOUNT_NOT_FOUND', details: [{ field: 'destination.bank.accountNumber', issue: 'does not resolve at this bank' }] });
    const wrong = await complete(WRONG_NAME, LIVE_KEY);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'ACCOUNT_NAME_MISMATCH', details: [{ field: 'destination.bank.accountName' }] });
    expect((await complete(RESOLVED, LIVE_KEY)).status).toBe(200);
    expect((await complete(UNKNOWN, KEY)).status).toBe(200);
    expect((await complete(WRONG_NAME, KEY)).status).toBe(200);
  });
});
