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
