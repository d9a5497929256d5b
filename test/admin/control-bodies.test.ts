// Every control body refuses a field it does not take, naming it, instead of ignoring it.
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const unknownField = (res: { status: number; body: any }) => {
  expect(res.status).toBe(400);
  return res.body.error.details;
};

describe('control bodies name the fields they do not take', () => {
  it('a simulated pay-in with an amount', async () => {
    const res = await t.call('POST', '/_sandbox/simulate/quotes/4f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f/pay-in', { body: { amount: 100 } });
    expect(unknownField(res)).toEqual([{ field: 'amount', issue: 'is not a field of this request: remove it' }]);
    expect(res.body.message).toBe('Invalid request body: amount is not a field of this request: remove it.');
  });

  it('a top-up, the webhook settings and their faults', async () => {
    expect(unknownField(await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'NGN', amount: 10, currency: 'NGN' } }))).toEqual([
      { field: 'currency', issue: 'is not a field of this request: remove it' },
    ]);
    const webhook = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hook', faults: { delay: 5 } } });
    expect(unknownField(webhook)).toEqual([{ field: 'faults.delay', issue: 'is not a field of this request: remove it' }]);
  });
});

describe('a simulate body field the move does not read is named in X-Sandbox-Warning', () => {
  const payout = (reference: string) => ({
    reference,
    amount: 1000,
    currency: 'NGN',
    destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
  });

  it('a reason on a move that ends no payout FAILED, an accountId off an FX accept, and neither where they are read', async () => {
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout('sim-1') })).status).toBe(201);
    const complete = await t.call('POST', '/_sandbox/simulate/payouts/sim-1/complete', { body: { reason: 'Bank closed', accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9' } });
    expect(complete.status).toBe(200);
    expect(complete.body.state).toMatchObject({ status: 'SUCCESSFUL', failureReason: null });
    expect(complete.headers.get('x-sandbox-warning')).toBe(
      "field 'reason' was ignored: the complete move of payouts does not read it; field 'accountId' was ignored: the complete move of payouts does not read it",
    );
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout('sim-2') })).status).toBe(201);
    const fail = await t.call('POST', '/_sandbox/simulate/payouts/sim-2/fail', { body: { reason: 'Bank closed' } });
    expect(fail.body.state).toMatchObject({ status: 'FAILED', failureReason: 'Bank closed' });
    expect(fail.headers.get('x-sandbox-warning')).toBeNull();
    const quote = await t.call('POST', '/api/v1/partners/marketplace/intent', { body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 100000, amountDirection: 'source' } });
    const cancel = await t.call('POST', `/_sandbox/simulate/quotes/${quote.body.quoteId}/cancel`, { body: { reason: 'Changed my mind' } });
    expect(cancel.body.state).toMatchObject({ status: 'cancelled' });
    expect(cancel.headers.get('x-sandbox-warning')).toBe("field 'reason' was ignored: the cancel move of quotes does not read it");
  });

  it('a wallet payout cancelled with a reason keeps it, so no warning', async () => {
    const body = { reference: 'w-1', chain: 'polygon', asset: 'usdt', amount: 20, toAddress: `0x${'a'.repeat(40)}` };
    expect((await t.call('POST', '/api/v1/partners/wallets/payouts', { body })).status).toBe(201);
    const res = await t.call('POST', '/_sandbox/simulate/wallet-payouts/w-1/cancel', { body: { reason: 'Wrong address' } });
    expect(res.body.state).toMatchObject({ status: 'CANCELLED' });
    expect(res.headers.get('x-sandbox-warning')).toBeNull();
  });
});
