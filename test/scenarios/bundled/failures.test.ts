// failures: every payout, wallet payout, withdrawal and transfer ends FAILED with a reason and the
// money it held comes back; pay-ins never arrive, so quotes expire. Over HTTP, on a manual clock.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp } from '../../support/app.js';
import { payout, PAYOUTS } from '../support.js';
import { resources, SIM_QUOTES } from '../resources.js';

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

  it('fails every wallet payout, withdrawal and transfer with a reason, refunds what they held, and lets quotes expire', async () => {
    const t = await createTestApp({ config: { scenario: 'failures' } });
    const r = resources(t);
    const before = await r.balances();
    const { made, first } = await r.createAll('f');
    expect(first).toEqual({ payout: 'PENDING', wallet_payout: 'PENDING', withdrawal: 'PROCESSING', transfer: 'PENDING', quote: 'pending>PENDING', fx_trade: 'NEWT' });
    const held = await r.balances();
    expect([held.NGN, held['usdc:base']]).not.toEqual([before.NGN, before['usdc:base']]);

    await advance(t, 179);
    expect((await r.statuses(made)).wallet_payout).toBe('PROCESSING');
    await advance(t, 1);
    expect((await r.statuses(made)).wallet_payout).toBe('FAILED');
    await advance(t, 119);
    expect(await r.statuses(made)).toEqual({
      payout: 'PROCESSING',
      wallet_payout: 'FAILED',
      withdrawal: 'PROCESSING',
      transfer: 'PROCESSING',
      quote: 'awaiting_payment',
      fx_trade: 'NEWT',
    });
    await advance(t, 1);
    const end = await r.read(made);
    expect(end.payout).toMatchObject({ status: 'FAILED', failureReason: 'Beneficiary bank declined the transfer' });
    expect(end.wallet_payout.status).toBe('FAILED');
    expect(await r.lastEvent('wallet_payout.failed')).toMatchObject({ reference: 'f-w', failure_reason: 'Transaction reverted on chain' });
    expect(end.withdrawal).toMatchObject({ status: 'FAILED', providerStatus: 'FAILED', failureReason: 'Destination account is dormant' });
    expect(end.transfer).toMatchObject({ status: 'FAILED', failureReason: 'Beneficiary institution rejected the credit' });
    // The pay-in never came: the quote ran out its 300-second ttl.
    expect(end.quote).toMatchObject({ status: 'expired', ttl: 300 });
    expect((await r.lastEvent('quote.expired')).quote_id).toBe(made.quote);
    expect((await t.call('POST', `${SIM_QUOTES}/${made.quote}/pay-in`)).status).toBe(409);
    // Every amount held (payout with its fee, wallet payout with its gas, withdrawal) is back.
    expect(await r.balances()).toEqual(before);
  });
});
