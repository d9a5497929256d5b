// instant: every lifecycle reaches its successful end at the next read, with no clock advance.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../support/app.js';
import { fx, acceptAccount } from '../../support/fx.js';
import { payout, PAYOUTS, status } from '../support.js';
import { resources } from '../resources.js';

describe('scenario instant', () => {
  it('answers PENDING at creation and SUCCESSFUL at the next read, on a clock that never moved', async () => {
    const t = await createTestApp({ config: { scenario: 'instant' } });
    const res = await t.call('POST', PAYOUTS, { body: payout('i-1') });
    expect(res.body.data).toMatchObject({ status: 'PENDING', estimatedCompletionAt: '2026-01-15T09:00:00.000Z' });
    const read = await t.call('GET', `${PAYOUTS}/i-1`);
    expect(read.body.data).toMatchObject({ status: 'SUCCESSFUL', updatedAt: '2026-01-15T09:00:00.000Z' });
    const events = await t.call('GET', '/_sandbox/events?type=payout');
    expect(events.body.data.map((e: { event: string }) => e.event)).toEqual(['payout.pending', 'payout.processing', 'payout.successful']);
    expect((await t.call('GET', '/_sandbox/clock')).body).toMatchObject({ offsetSeconds: 0, pendingJobs: 0 });
  });

  it('brings every lifecycle to its successful end by the next read: wallet payouts with a hash, withdrawals, transfers, completed quotes', async () => {
    const t = await createTestApp();
    await t.call('PUT', '/_sandbox/scenario', { body: { name: 'instant' } });
    const r = resources(t);
    const before = await r.balances();
    const { made, first } = await r.createAll('i');
    expect(first).toEqual({ payout: 'PENDING', wallet_payout: 'PENDING', withdrawal: 'PROCESSING', transfer: 'PENDING', quote: 'pending>PENDING', fx_trade: 'NEWT' });
    const end = await r.read(made);
    expect(end.payout.status).toBe('SUCCESSFUL');
    expect(end.wallet_payout).toMatchObject({ status: 'COMPLETED', estimatedCompletionAt: '2026-01-15T09:00:00.000Z' });
    expect(end.wallet_payout.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(end.withdrawal).toMatchObject({ status: 'SUCCESSFUL', providerStatus: 'SUCCESSFUL', failureReason: null, updatedAt: '2026-01-15T09:00:00.000Z' });
    expect(end.transfer).toMatchObject({ status: 'SUCCESSFUL', updatedAt: '2026-01-15T09:00:00.000Z' });
    expect(end.quote.status).toBe('completed');
    expect((await r.lastEvent('order.successful')).quote_id).toBe(made.quote);
    // An FX trade has no timed move: it waits for the partner's accept, within its 300-second TTL.
    expect(end.fx_trade).toEqual({ status: 'NEWT', ttl: '300' });
    const accepted = await fx(t, 'POST', `/trades/${made.fx_trade}/accept`, { xml: acceptAccount });
    expect([accepted.status, (accepted.xml.TradSts as { Sts: string }).Sts]).toEqual([200, 'SETT']);
    expect((await t.call('GET', '/_sandbox/clock')).body).toMatchObject({ offsetSeconds: 0, pendingJobs: 0 });
    // The money left for good: amount and fee, amount and gas, the withdrawal.
    const after = await r.balances();
    expect(after.NGN).not.toBe(before.NGN);
    expect(after['usdc:base']).toBe('99849.900000');
  });
});
