// two-factor: withdrawals require a valid authCode.
import { describe, expect, it } from 'vitest';
import { createTestApp, KEY } from '../../support/app.js';

describe('scenario two-factor', () => {
  it('requires an authCode on withdrawals and accepts only 123456', async () => {
    const t = await createTestApp();
    await t.call('PUT', '/_sandbox/scenario', { body: { name: 'two-factor' } });
    const bh = (await t.tenants.get(KEY, 'sandbox')).behaviour();
    expect(bh.requires('withdrawal.authCode')).toBe(true);
    expect(bh.checkAuthCode(undefined)).toBe('missing');
    expect(bh.checkAuthCode('000000')).toBe('invalid');
    expect(bh.checkAuthCode('123456')).toBe('ok');
    await t.call('DELETE', '/_sandbox/scenario');
    const back = (await t.tenants.get(KEY, 'sandbox')).behaviour();
    expect([back.requires('withdrawal.authCode'), back.checkAuthCode(undefined)]).toEqual([false, 'ok']);
  });
});
