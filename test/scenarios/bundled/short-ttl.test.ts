// short-ttl: quotes and FX trades live 5 seconds.
import { describe, expect, it } from 'vitest';
import { createTestApp, KEY, KEY_B } from '../../support/app.js';

describe('scenario short-ttl', () => {
  it('gives quotes and FX trades a 5-second lifetime for the key that chose it', async () => {
    const t = await createTestApp();
    const put = await t.call('PUT', '/_sandbox/scenario', { body: { name: 'short-ttl' } });
    expect(put.body.document).toMatchObject({ quote: { ttl: 5 }, fx_trade: { ttl: 5 } });
    const mine = (await t.tenants.get(KEY, 'sandbox')).behaviour();
    const other = (await t.tenants.get(KEY_B, 'sandbox')).behaviour();
    expect([mine.ttl('quote'), mine.ttl('fx_trade')]).toEqual([5, 5]);
    expect([other.ttl('quote'), other.ttl('fx_trade')]).toEqual([300, 300]);
    expect(mine.duration('payout', 'PENDING')).toBe(30);
  });
});
