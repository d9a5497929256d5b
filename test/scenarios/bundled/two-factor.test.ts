// two-factor: withdrawals require a valid authCode.
import { describe, expect, it } from 'vitest';
import { createTestApp, KEY } from '../../support/app.js';
import { resources, withdrawal, WITHDRAWAL } from '../resources.js';
import { authCodeCheck } from '../../../src/domains/withdrawals/withdrawals.service.js';

describe('scenario two-factor', () => {
  it('requires an authCode on withdrawals and accepts only 123456', async () => {
    const t = await createTestApp();
    await t.call('PUT', '/_sandbox/scenario', { body: { name: 'two-factor' } });
    const bh = (await t.tenants.get(KEY, 'sandbox')).behaviour();
    expect(authCodeCheck(bh, undefined)).toBe('missing');
    expect(authCodeCheck(bh, '000000')).toBe('invalid');
    expect(authCodeCheck(bh, '123456')).toBe('ok');
    await t.call('DELETE', '/_sandbox/scenario');
    const back = (await t.tenants.get(KEY, 'sandbox')).behaviour();
    expect(authCodeCheck(back, undefined)).toBe('ok');
  });

  it('refuses a withdrawal without a code (403 AUTH_CODE_REQUIRED) or with a wrong one (403 INVALID_AUTH_CODE), and takes 123456', async () => {
    const t = await createTestApp({ config: { scenario: 'two-factor' } });
    const r = resources(t);
    const before = (await r.balances()).NGN;
    const missing = await t.call('POST', WITHDRAWAL, { body: withdrawal() });
    expect(missing.status).toBe(403);
    expect(missing.body.error).toEqual({ type: 'permission_error', code: 'AUTH_CODE_REQUIRED', details: [{ field: 'authCode', issue: 'is required by the current scenario' }] });
    const wrong = await t.call('POST', WITHDRAWAL, { body: withdrawal({ authCode: '654321' }) });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toEqual({ type: 'permission_error', code: 'INVALID_AUTH_CODE', details: [{ field: 'authCode', issue: 'is not a valid code' }] });
    expect((await r.balances()).NGN).toBe(before);
    const right = await t.call('POST', WITHDRAWAL, { body: withdrawal({ authCode: '123456' }) });
    expect([right.status, right.body.status]).toEqual([201, 'PROCESSING']);
    expect((await r.balances()).NGN).toBe('499975000.00');
    // Another scenario for one request: no code needed.
    const other = await t.call('POST', WITHDRAWAL, { body: withdrawal(), headers: { 'X-Sandbox-Scenario': 'default' } });
    expect(other.status).toBe(201);
  });

  it('honours a scenario\'s own codes and pattern, even when the code is optional', async () => {
    const t = await createTestApp();
    await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { withdrawal: { authCode: { required: false, pattern: '^\\d{6}$' } } } } });
    expect((await t.call('POST', WITHDRAWAL, { body: withdrawal() })).status).toBe(201);
    const bad = await t.call('POST', WITHDRAWAL, { body: withdrawal({ authCode: '12ab' }) });
    expect([bad.status, bad.body.error.code]).toEqual([403, 'INVALID_AUTH_CODE']);
    expect((await t.call('POST', WITHDRAWAL, { body: withdrawal({ authCode: '987654' }) })).status).toBe(201);
    await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { withdrawal: { authCode: { required: true, codes: ['999999'] } } } } });
    expect((await t.call('POST', WITHDRAWAL, { body: withdrawal({ authCode: '123456' }) })).status).toBe(403);
    expect((await t.call('POST', WITHDRAWAL, { body: withdrawal({ authCode: '999999' }) })).status).toBe(201);
  });
});
