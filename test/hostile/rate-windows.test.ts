// A scenario's rate rule keeps the time of each call it lets through within its window and looks them
// all over at each matching call. Its limit and window had no bound: 50 rules with a limit no call
// reached kept every call's time, each call copying all of them, so after 10,000 calls every call of
// the key held every key's requests 10 to 20 ms, and more with each call. The limit is at most 1,000
// calls and the window a day; what a window keeps is bounded by them.
import { describe, expect, it } from 'vitest';
import { createTestApp, KEY } from '../support/app.js';

const rule = (rate: Record<string, number>) => ({ route: { path: '/api/**' }, rate, fault: { kind: 'error', status: 429 } });

describe('a rate rule', () => {
  it('is refused past 1,000 calls or a window of a day, naming the field', async () => {
    const t = await createTestApp();
    const many = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { faults: [rule({ limit: 1e15, perSeconds: 60 })] } } });
    expect(many.status).toBe(400);
    expect(many.body.error.code).toBe('INVALID_SCENARIO');
    expect(many.body.error.details).toEqual([{ field: 'scenario.faults[0].rate.limit', issue: 'must be at most 1000' }]);
    const long = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { faults: [rule({ limit: 10, perSeconds: 1e12 })] } } });
    expect(long.status).toBe(400);
    expect(long.body.error.details).toEqual([{ field: 'scenario.faults[0].rate.perSeconds', issue: 'must be at most 86400' }]);
    const saved = await t.call('PUT', '/_sandbox/scenarios/endless', { body: { scenario: { faults: [rule({ limit: 1001, perSeconds: 86_400 })] } } });
    expect(saved.status).toBe(400);
  });

  it('keeps at most its limit of call times however many calls come, and refuses past it', async () => {
    const t = await createTestApp();
    const limit = 1000;
    const set = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { faults: [rule({ limit, perSeconds: 86_400 }), rule({ limit, perSeconds: 86_400 })] } } });
    expect(set.status, set.text).toBe(200);
    const statuses = new Map<number, number>();
    for (let i = 0; i < limit + 50; i++) {
      const res = await t.app.request('/api/v1/partners/banks?currency=NGN', { headers: { authorization: `Bearer ${KEY}` } });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: limit, 429: 50 });
    const tenant = await t.tenants.get(KEY, 'sandbox');
    const windows = [...tenant.store.collection<number[]>('scenario_rates').values()];
    expect(windows.length).toBeGreaterThan(0);
    expect(Math.max(...windows.map((w) => w.length))).toBe(limit);
  });
});
