// rate-limited: 10 requests a minute per key, on the key's clock; then 429 with Retry-After.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY_B } from '../../support/app.js';
import { payout, PAYOUTS } from '../support.js';

describe('scenario rate-limited', () => {
  it('refuses the 11th request within a minute with 429 and Retry-After, until a slot frees', async () => {
    const t = await createTestApp({ config: { scenario: 'rate-limited' } });
    for (let i = 0; i < 5; i++) expect((await t.call('GET', `${PAYOUTS}/x-${i}`)).status).toBe(404);
    await advance(t, 20);
    for (let i = 0; i < 5; i++) expect((await t.call('POST', PAYOUTS, { body: payout(`r-${i}`) })).status).toBe(201);
    const limited = await t.call('POST', PAYOUTS, { body: payout('r-over') });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('40');
    expect(limited.body).toEqual({
      status: 'error',
      message: 'Too many requests for this API key. Retry after 40 seconds.',
      error: { type: 'rate_limit_error', code: 'RATE_LIMITED', details: [] },
    });
    // Another key has its own limit; the control API is never limited.
    expect((await t.call('GET', `${PAYOUTS}/r-0`, { key: KEY_B })).status).toBe(404);
    expect((await t.call('GET', '/_sandbox/clock')).status).toBe(200);
    await advance(t, 39);
    const still = await t.call('GET', `${PAYOUTS}/r-0`);
    expect([still.status, still.headers.get('retry-after')]).toEqual([429, '1']);
    await advance(t, 1);
    // The first five (at 0 s) have left the window; the refused ones never counted.
    for (let i = 0; i < 5; i++) expect((await t.call('GET', `${PAYOUTS}/r-${i}`)).status).toBe(200);
    expect((await t.call('GET', `${PAYOUTS}/r-0`)).status).toBe(429);
    expect((await t.call('GET', `${PAYOUTS}/r-over`, { headers: { 'X-Sandbox-Scenario': 'default' } })).status).toBe(404);
  });
});
