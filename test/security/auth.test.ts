import { describe, expect, it } from 'vitest';
import { keptKeyCount } from '../../src/http/tenant-auth.js';
import { createTestApp, KEY, KEY_B } from '../support/app.js';

const body = {
  reference: 'auth-1',
  amount: 100,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
};

describe('API keys', () => {
  it.each([
    ['no Authorization header', null, undefined, 'AUTHENTICATION_REQUIRED'],
    ['a wrong prefix', 'sk_prod_abc123', undefined, 'INVALID_API_KEY'],
    ['a publishable key', 'pk_test_0000000000000000000000000000000a', undefined, 'INVALID_API_KEY'],
    ['a key without Bearer', null, { authorization: KEY }, 'INVALID_API_KEY'],
    ['a Basic scheme', null, { authorization: 'Basic c2tfdGVzdF8xOg==' }, 'INVALID_API_KEY'],
    ['a key with a space inside', null, { authorization: 'Bearer sk_test_ab cd' }, 'INVALID_API_KEY'],
    ['a key with unicode', null, { authorization: 'Bearer sk_test_clé' }, 'INVALID_API_KEY'],
    ['an empty key', null, { authorization: 'Bearer ' }, 'INVALID_API_KEY'],
  ])('refuses %s with 401 in the envelope', async (_n, key, headers, code) => {
    const t = await createTestApp();
    const res = await t.call('POST', '/api/v1/partners/payouts', { key, headers, body });
    expect(res.status).toBe(401);
    expect(res.body.status).toBe('error');
    expect(res.body.error).toMatchObject({ type: 'authentication_error', code });
    expect(res.body.message).toContain('Authorization');
  });

  it('refuses a key outside the keys file, when one is given, with 403: the key is well formed but not allowed', async () => {
    const t = await createTestApp({ allowedKeys: new Set([KEY]) });
    expect((await t.call('POST', '/api/v1/partners/payouts', { body })).status).toBe(201);
    const other = await t.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({
      status: 'error',
      message: 'This API key is not one this sandbox accepts. Use a key from its keys file.',
      error: { type: 'permission_error', code: 'PERMISSION_DENIED', details: [{ field: 'Authorization', issue: 'not in the keys file' }] },
    });
    const fx = await t.app.request('/api/v1/partners/fx/rates/makers?from=NGN&to=USDT', { headers: { authorization: `Bearer ${KEY_B}` } });
    expect(fx.status).toBe(403);
    expect(await fx.text()).toContain('PERMISSION_DENIED');
  });

  it('takes readable keys by default, and with --key-format live only sk_test_/sk_live_ plus 32 lowercase hex, saying what a key looks like', async () => {
    const readable = 'sk_test_ci-job-42';
    const lax = await createTestApp();
    expect((await lax.call('POST', '/api/v1/partners/payouts', { key: readable, body })).status).toBe(201);
    const t = await createTestApp({ config: { keyFormat: 'live' } });
    for (const key of [readable, 'sk_test_0123456789ABCDEF0123456789abcdef', 'sk_live_0123456789abcdef0123456789abcde', 'sk_live_0123456789abcdef0123456789abcdef0']) {
      const res = await t.call('POST', '/api/v1/partners/payouts', { key, body });
      expect(res.status, key).toBe(401);
      expect(res.body).toEqual({
        status: 'error',
        message:
          'The API key is not in the format of the live service, which this sandbox requires (--key-format live): a key is sk_test_ or sk_live_ followed by 32 lowercase hexadecimal characters, such as sk_test_0123456789abcdef0123456789abcdef.',
        error: {
          type: 'authentication_error',
          code: 'INVALID_API_KEY',
          details: [{ field: 'Authorization', issue: 'must be sk_test_ or sk_live_ followed by 32 characters of 0-9 and a-f' }],
        },
      });
    }
    expect((await t.call('GET', '/_sandbox/balances', { key: readable })).status).toBe(401);
    expect((await t.call('POST', '/api/v1/partners/payouts', { key: 'sk_test_0123456789abcdef0123456789abcdef', body })).status).toBe(201);
    expect((await t.call('GET', '/_sandbox/balances', { key: 'sk_live_0123456789abcdef0123456789abcdef' })).status).toBe(200);
    const fx = await t.call('GET', '/api/v1/partners/fx/rates/makers?from=NGN&to=USDT', { key: readable });
    expect(fx.status).toBe(401);
    expect(fx.text).toContain('32 lowercase hexadecimal characters');
  });

  it('guards the control API but not health', async () => {
    const t = await createTestApp();
    const health = await t.call('GET', '/_sandbox/health', { key: null });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', store: 'memory' });
    for (const [method, path] of [
      ['POST', '/_sandbox/reset'],
      ['GET', '/_sandbox/clock'],
      ['GET', '/_sandbox/requests'],
      ['GET', '/_sandbox/events'],
      ['GET', '/_sandbox/balances'],
    ]) {
      const res = await t.call(method, path, { key: null });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('unknown routes', () => {
  it('answers 404 in the envelope (the key is checked first under /api)', async () => {
    const t = await createTestApp();
    const res = await t.call('GET', '/api/v1/partners/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'ROUTE_NOT_FOUND' });
    expect((await t.call('DELETE', '/api/v1/partners/payouts')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/partners/nothing-here', { key: null })).status).toBe(401);
    const root = await t.call('GET', '/nothing', { key: null });
    expect(root.status).toBe(404);
    expect(root.body.message).toContain('/api/v1');
  });

  it('says which methods a known path takes when another method is sent, still 404 after the key check', async () => {
    const t = await createTestApp();
    const get = await t.call('GET', '/api/v1/partners/payouts');
    expect(get.status).toBe(404);
    expect(get.body).toEqual({
      status: 'error',
      message: 'No route matches GET /api/v1/partners/payouts: this path takes POST. Send the request with POST.',
      error: { type: 'not_found_error', code: 'ROUTE_NOT_FOUND', details: [{ field: 'method', issue: 'must be POST on this path' }] },
    });
    const patch = await t.call('PATCH', '/api/v1/partners/marketplace/quote/3b241101-e2bb-4255-8caf-4136c566a962/remove/9c5b94b1-35ad-49bb-b118-8e8fc24abf80');
    expect(patch.body.message).toBe(
      'No route matches PATCH /api/v1/partners/marketplace/quote/3b241101-e2bb-4255-8caf-4136c566a962/remove/9c5b94b1-35ad-49bb-b118-8e8fc24abf80: this path takes PUT. Send the request with PUT.',
    );
    const scenario = await t.call('POST', '/_sandbox/scenario', { body: { name: 'default' } });
    expect(scenario.status).toBe(404);
    expect(scenario.body.error.details).toEqual([{ field: 'method', issue: 'must be one of GET, PUT, DELETE on this path' }]);
    expect((await t.call('GET', '/api/v1/partners/payouts', { key: null })).status).toBe(401);
    const fx = await t.call('GET', '/api/v1/partners/fx/trades', { unchecked: true });
    expect(fx.status).toBe(404);
    expect(fx.text).toContain('<RsnDesc>No route matches GET /api/v1/partners/fx/trades: this path takes POST. Send the request with POST.</RsnDesc>');
    expect(fx.text).toContain('<ErrLctn>method</ErrLctn>');
    const unknown = await t.call('GET', '/api/v1/partners/nothing-here');
    expect(unknown.body.error.details).toEqual([]);
    expect(unknown.body.message).toBe('No route matches GET /api/v1/partners/nothing-here. Every API path begins with /api/v1; see /openapi.json for the list.');
  });
});

it('keeps no parsed Authorization header longer than a key needs: padded headers cost memory only while read', async () => {
  const t = await createTestApp();
  await t.call('GET', '/_sandbox/clock');
  const before = keptKeyCount();
  for (let i = 0; i < 50; i++) {
    const res = await t.call('GET', '/_sandbox/clock', { key: null, headers: { authorization: `Bearer${' '.repeat(300 + i)}${KEY}` } });
    expect(res.status).toBe(200);
  }
  expect(keptKeyCount()).toBe(before);
});

