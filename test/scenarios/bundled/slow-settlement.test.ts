// slow-settlement: hours of sandbox time, reached with clock control.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp } from '../../support/app.js';
import { acceptAccount, fx } from '../../support/fx.js';
import { payout, PAYOUTS, status } from '../support.js';
import { resources } from '../resources.js';

describe('scenario slow-settlement', () => {
  it('keeps a payout PENDING 30 minutes and PROCESSING 3 hours more', async () => {
    const t = await createTestApp({ config: { scenario: 'slow-settlement' } });
    const res = await t.call('POST', PAYOUTS, { body: payout('s-1') });
    expect(res.body.data.estimatedCompletionAt).toBe('2026-01-15T12:30:00.000Z');
    await advance(t, 1799);
    expect(await status(t, 's-1')).toBe('PENDING');
    await advance(t, 1);
    expect(await status(t, 's-1')).toBe('PROCESSING');
    t.clock.advance(3 * 3600 - 1);
    expect(await status(t, 's-1')).toBe('PROCESSING');
    await advance(t, 1);
    const done = await t.call('GET', `${PAYOUTS}/s-1`);
    expect(done.body.data).toMatchObject({ status: 'SUCCESSFUL', updatedAt: '2026-01-15T12:30:00.000Z' });
  });

  it('takes hours for wallet payouts, withdrawals, transfers and quote pay-ins; FX trades have no timed move', async () => {
    const t = await createTestApp({ config: { scenario: 'slow-settlement' } });
    const r = resources(t);
    const { made } = await r.createAll('s');
    const first = await r.read(made);
    expect(first.wallet_payout.estimatedCompletionAt).toBe('2026-01-15T12:00:00.000Z');
    expect(first.withdrawal.estimatedCompletionAt).toBe('2026-01-15T13:00:00.000Z');
    expect(first.quote).toMatchObject({ status: 'awaiting_payment', ttl: 7200 });
    const accepted = await fx(t, 'POST', `/trades/${made.fx_trade}/accept`, { xml: acceptAccount });
    expect(accepted.status).toBe(200);

    let elapsed = 0;
    /** Statuses `seconds` after creation. */
    const at = async (seconds: number) => {
      await advance(t, seconds - elapsed);
      elapsed = seconds;
      return r.statuses(made);
    };
    const hours = (h: number) => h * 3600;
    expect(await at(hours(0.5) - 1)).toMatchObject({ payout: 'PENDING', transfer: 'PENDING', wallet_payout: 'PENDING' });
    expect(await at(hours(0.5))).toMatchObject({ payout: 'PROCESSING', transfer: 'PROCESSING', wallet_payout: 'PENDING' });
    expect(await at(hours(1) - 1)).toMatchObject({ wallet_payout: 'PENDING', quote: 'awaiting_payment' });
    expect(await at(hours(1))).toMatchObject({ wallet_payout: 'PROCESSING', quote: 'completed' });
    expect((await r.read(made)).wallet_payout.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await at(hours(3) - 1)).toMatchObject({ wallet_payout: 'PROCESSING' });
    expect(await at(hours(3))).toMatchObject({ wallet_payout: 'COMPLETED' });
    expect(await at(hours(4) - 1)).toEqual({
      payout: 'SUCCESSFUL',
      wallet_payout: 'COMPLETED',
      withdrawal: 'PROCESSING',
      transfer: 'PROCESSING',
      quote: 'completed',
      fx_trade: 'SETT',
    });
    expect(await at(hours(4))).toEqual({
      payout: 'SUCCESSFUL',
      wallet_payout: 'COMPLETED',
      withdrawal: 'SUCCESSFUL',
      transfer: 'SUCCESSFUL',
      quote: 'completed',
      fx_trade: 'SETT',
    });
    expect((await t.call('GET', '/_sandbox/clock')).body.pendingJobs).toBe(0);
  });
});
