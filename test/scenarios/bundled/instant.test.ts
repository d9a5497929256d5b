// instant: every lifecycle reaches its successful end at the next read, with no clock advance.
import { describe, expect, it } from 'vitest';
import { createTestApp, KEY } from '../../support/app.js';
import { payout, PAYOUTS, status } from '../support.js';

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

  it('makes every state of every resource last zero seconds', async () => {
    const t = await createTestApp();
    await t.call('PUT', '/_sandbox/scenario', { body: { name: 'instant' } });
    await t.call('POST', PAYOUTS, { body: payout('i-2') });
    expect(await status(t, 'i-2')).toBe('SUCCESSFUL');
    const bh = (await t.tenants.get(KEY, 'sandbox')).behaviour();
    expect(['wallet_payout', 'withdrawal', 'transfer', 'quote'].map((r) => bh.duration(r as never, 'PROCESSING'))).toEqual([0, 0, 0, 0]);
    expect(bh.duration('quote', 'awaiting_payment')).toBe(0);
    expect(bh.ttl('quote')).toBe(300);
  });
});
