// slow-settlement: hours of sandbox time, reached with clock control.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp } from '../../support/app.js';
import { payout, PAYOUTS, status } from '../support.js';

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
});
