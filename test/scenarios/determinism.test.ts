// Same seed + same scenario + same requests → byte-identical responses (the clock is manual here,
// so no time differs either).
import { describe, expect, it } from 'vitest';
import { KEY_B } from '../support/app.js';
import { payout, PAYOUTS, scenarioApp } from './support.js';

async function flow(seed: number, scenario: string): Promise<string[]> {
  const t = await scenarioApp({ seed, scenario });
  const out: string[] = [];
  const call = async (method: string, path: string, o: Parameters<typeof t.call>[2] = {}) => {
    const res = await t.call(method, path, { ...o, unchecked: true });
    out.push(`${method} ${path} → ${res.status} ${res.headers.get('x-sandbox-fault') ?? ''} ${res.text}`);
  };
  await call('GET', '/api/v1/partners/banks?currency=NGN');
  await call('GET', '/api/v1/partners/banks/resolve?accountNumber=0123456789&bankCode=058&currency=NGN');
  for (let i = 0; i < 6; i++) await call('POST', PAYOUTS, { body: payout(`det-${i}`, { amount: 1000 + i }) });
  await call('POST', PAYOUTS, { body: payout('det-h'), headers: { 'X-Sandbox-Scenario': 'failures' } });
  await call('POST', PAYOUTS, { body: payout('det-0', { amount: 1000 }) });
  await call('POST', '/_sandbox/clock/advance', { body: { seconds: 30 } });
  for (let i = 0; i < 6; i++) await call('GET', `${PAYOUTS}/det-${i}`);
  await call('POST', '/_sandbox/simulate/payouts/det-1/fail', { body: { reason: 'Closed' } });
  await call('POST', '/_sandbox/clock/advance', { body: { seconds: 600 } });
  for (const ref of ['det-0', 'det-1', 'det-h']) await call('GET', `${PAYOUTS}/${ref}`);
  await call('POST', PAYOUTS, { key: KEY_B, body: payout('det-b') });
  await call('GET', '/_sandbox/events?limit=1000');
  await call('GET', '/_sandbox/balances');
  return out;
}

describe('determinism', () => {
  it('gives byte-identical responses for a whole payout flow with the same seed and scenario', async () => {
    const a = await flow(7, 'default');
    expect(a).toHaveLength(25);
    expect(await flow(7, 'default')).toEqual(a);
    expect(a.join('\n')).toContain('"status":"FAILED","fee":50,');
    expect(await flow(8, 'default')).not.toEqual(a);
  });

  it('holds with seeded faults too', async () => {
    const a = await flow(7, 'flaky-network');
    expect(a.some((l) => / → 503 error 503 /.test(l))).toBe(true);
    expect(a.some((l) => / latency \d+ms /.test(l))).toBe(true);
    expect(await flow(7, 'flaky-network')).toEqual(a);
  });
});
