import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

const BLANK = 'must not be blank: send at least one character that is not white space';
const NGN_ACCOUNT = '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9';

const payout = (reference: string) => ({
  reference,
  amount: 100,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});
const walletPayout = (reference: string) => ({ reference, chain: 'ethereum', asset: 'usdc', amount: 150, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' });
const withdrawal = { accountId: NGN_ACCOUNT, accountName: 'John Doe', accountNumber: '0123456789', amount: 100, bankCode: 'SPB-17646' };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function balances() {
  return (await t.call('GET', '/_sandbox/balances')).body.data;
}

describe('a blank reference is refused wherever a reference is taken', () => {
  it.each([' ', '   ', '\t', ' \n '])('in a payout or wallet payout body (%j), naming the field; nothing is created', async (blank) => {
    const before = await balances();
    for (const [path, body] of [
      ['/api/v1/partners/payouts', payout(blank)],
      ['/api/v1/partners/wallets/payouts', walletPayout(blank)],
    ] as const) {
      const res = await t.call('POST', path, { body });
      expect(res.status, path).toBe(400);
      expect(res.body.error).toEqual({ type: 'invalid_request_error', code: 'VALIDATION_ERROR', details: [{ field: 'reference', issue: BLANK }] });
    }
    expect(await balances()).toEqual(before);
    expect((await t.call('GET', '/_sandbox/events')).body.data).toEqual([]);
  });

  const CONTROL = 'must not hold a control character (U+0000 to U+001F, U+007F): send letters, digits and punctuation';
  const SURROGATE = 'must be well-formed Unicode: a \\u escape from D800 to DFFF needs its pair (send the character itself)';
  it.each([
    ['a\u0000b', CONTROL],
    ['order\n1', CONTROL],
    ['tab\there', CONTROL],
    ['del\u007f', CONTROL],
    ['a\udc00b', SURROGATE],
    ['end\ud800', SURROGATE],
    ['\udbff\udbff', SURROGATE],
  ])('holding a control character or a lone surrogate (%j), in a payout or wallet payout body, naming it; nothing is created', async (ref, issue) => {
    for (const [path, body] of [
      ['/api/v1/partners/payouts', payout(ref)],
      ['/api/v1/partners/wallets/payouts', walletPayout(ref)],
    ] as const) {
      const res = await t.call('POST', path, { body });
      expect(res.status, path).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'reference', issue }]);
    }
    expect((await t.call('GET', '/_sandbox/events')).body.data).toEqual([]);
    expect((await t.call('GET', '/api/v1/partners/payouts/a%00b')).status).toBe(400);
  });

  it('takes a surrogate pair (an emoji) in a reference', async () => {
    const paired = await t.call('POST', '/api/v1/partners/payouts', { body: payout('pay-\ud83d\ude00') });
    expect([paired.status, paired.body.data.reference]).toEqual([201, 'pay-\u{1F600}']);
  });

  it('in the withdrawal Idempotency-Key header', async () => {
    const res = await t.call('POST', '/api/v1/partners/withdrawal', { body: withdrawal, headers: { 'idempotency-key': '   ' } });
    expect(res.status).toBe(400);
    // Header values arrive trimmed, so a blank key is an empty one.
    expect(res.body.error.details).toEqual([{ field: 'Idempotency-Key', issue: 'must not be empty' }]);
    expect((await balances()).find((b: { key: string }) => b.key === 'NGN').available).toBe('500000000.00');
  });

  it('in the read-back paths', async () => {
    // Transfer references are UUIDs, so a blank one is refused as no UUID.
    const UUID = 'must be a UUID (8-4-4-4-12 hexadecimal digits), e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
    for (const [path, headers, issue] of [
      ['/api/v1/partners/payouts/%20%20', {}, BLANK],
      ['/api/v1/partners/wallets/payouts/%20', {}, BLANK],
      ['/api/v1/partners/withdrawal/%09', {}, BLANK],
      ['/api/v1/transfers/%20%20', { 'x-service-source': 'payroll-service' }, UUID],
    ] as const) {
      const res = await t.call('GET', path, { headers });
      expect(res.status, path).toBe(400);
      expect(res.body.error.details, path).toEqual([{ field: 'reference', issue }]);
    }
  });

  it('while a reference with white space around other characters is kept as sent', async () => {
    const res = await t.call('POST', '/api/v1/partners/payouts', { body: payout(' order 1 ') });
    expect(res.status).toBe(201);
    expect(res.body.data.reference).toBe(' order 1 ');
    expect((await t.call('GET', '/api/v1/partners/payouts/%20order%201%20')).body.data.reference).toBe(' order 1 ');
  });
});
