// failures: every payout-like resource ends FAILED with a reason; quotes never get their pay-in.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY } from '../../support/app.js';
import { payout, PAYOUTS } from '../support.js';

describe('scenario failures', () => {
  it('accepts a payout, keeps the usual timing, ends it FAILED with a reason and refunds it', async () => {
    const t = await createTestApp({ config: { scenario: 'failures' } });
    const before = (await t.call('GET', '/_sandbox/balances')).body.data.find((b: { key: string }) => b.key === 'NGN').available;
    const res = await t.call('POST', PAYOUTS, { body: payout('f-1') });
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('PENDING');
    await advance(t, 30);
    expect((await t.call('GET', `${PAYOUTS}/f-1`)).body.data.status).toBe('PROCESSING');
    await advance(t, 270);
    const done = await t.call('GET', `${PAYOUTS}/f-1`);
    expect(done.body.data).toMatchObject({ status: 'FAILED', failureReason: 'Beneficiary bank declined the transfer', updatedAt: '2026-01-15T09:05:00.000Z' });
    const after = (await t.call('GET', '/_sandbox/balances')).body.data.find((b: { key: string }) => b.key === 'NGN').available;
    expect(after).toBe(before);
  });

  it('fails wallet payouts, withdrawals and transfers with reasons, and lets quotes expire', async () => {
    const t = await createTestApp({ config: { scenario: 'failures' } });
    const bh = (await t.tenants.get(KEY, 'sandbox')).behaviour();
    for (const r of ['wallet_payout', 'withdrawal', 'transfer'] as const) {
      const o = bh.outcome(r, { amount: 10 });
      expect(o.succeed, r).toBe(false);
      expect(o.status, r).toBe('FAILED');
      expect(o.reason, r).toMatch(/\w{5,}/);
    }
    expect(bh.outcome('quote', { amount: 10 })).toMatchObject({ succeed: false, status: 'expired' });
    expect(bh.ttl('quote')).toBe(300);
  });
});
