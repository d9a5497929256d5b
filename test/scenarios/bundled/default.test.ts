// default: the document's behaviour with realistic timings, and no faults.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY } from '../../support/app.js';
import { payout, PAYOUTS, status } from '../support.js';
import { authCodeCheck } from '../../../src/domains/withdrawals/withdrawals.service.js';
import { lifecycle } from '../../support/scenarios.js';

describe('scenario default', () => {
  it('settles a payout five minutes after creation: 30 s PENDING, 270 s PROCESSING', async () => {
    const t = await createTestApp({ config: { scenario: 'default' } });
    const res = await t.call('POST', PAYOUTS, { body: payout('d-1') });
    expect(res.body.data).toMatchObject({ status: 'PENDING', estimatedCompletionAt: '2026-01-15T09:05:00.000Z' });
    await advance(t, 29);
    expect(await status(t, 'd-1')).toBe('PENDING');
    await advance(t, 1);
    expect(await status(t, 'd-1')).toBe('PROCESSING');
    await advance(t, 269);
    expect(await status(t, 'd-1')).toBe('PROCESSING');
    await advance(t, 1);
    const done = await t.call('GET', `${PAYOUTS}/d-1`);
    expect(done.body.data).toMatchObject({ status: 'SUCCESSFUL', failureReason: null, updatedAt: '2026-01-15T09:05:00.000Z' });
  });

  it('gives quotes and FX trades 300 seconds and requires no authCode', async () => {
    const t = await createTestApp();
    const tenant = await t.tenants.get(KEY, 'sandbox');
    const bh = tenant.behaviour();
    expect(bh.name).toBe('default');
    expect([bh.ttl(lifecycle('quote')), bh.ttl(lifecycle('fx_trade')), authCodeCheck(bh, undefined)]).toEqual([300, 300, 'ok']);
  });

  it('injects no faults', async () => {
    const t = await createTestApp();
    for (let i = 0; i < 40; i++) {
      const res = await t.call('GET', `${PAYOUTS}/none-${i}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('x-sandbox-fault')).toBeNull();
    }
  });
});
