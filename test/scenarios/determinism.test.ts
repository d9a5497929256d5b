// Same seed + same scenario + same requests → byte-identical responses (the clock is manual here,
// so no time differs either), for a flow over payouts, a wallet payout, a quote and an FX trade.
import { describe, expect, it } from 'vitest';
import { KEY_B } from '../support/app.js';
import { instruction } from '../support/fx.js';
import { COMPLETE, INTENT, intent, QUOTE, toChain, WALLET, walletPayout } from './resources.js';
import { payout, PAYOUTS, scenarioApp } from './support.js';

async function flow(seed: number, scenario: string): Promise<string[]> {
  const t = await scenarioApp({ seed, scenario });
  const out: string[] = [];
  const call = async (method: string, path: string, o: Parameters<typeof t.call>[2] = {}) => {
    const res = await t.call(method, path, { ...o, unchecked: true });
    out.push(`${method} ${path} → ${res.status} ${res.headers.get('x-sandbox-fault') ?? ''} ${res.text}`);
    return res;
  };
  await call('GET', '/api/v1/partners/banks?currency=NGN');
  await call('GET', '/api/v1/partners/banks/resolve?accountNumber=0123456789&bankCode=058&currency=NGN');
  for (let i = 0; i < 6; i++) await call('POST', PAYOUTS, { body: payout(`det-${i}`, { amount: 1000 + i }) });
  await call('POST', WALLET, { body: walletPayout('det-w') });
  const quote = await call('POST', INTENT, { body: intent });
  const quoteId = quote.status === 201 ? (JSON.parse(quote.text).quoteId as string) : 'none';
  await call('PUT', `${COMPLETE}/${quoteId}`, { body: toChain });
  await call('POST', '/api/v1/partners/fx/trades', { raw: instruction(), headers: { 'content-type': 'application/xml' } });
  await call('POST', PAYOUTS, { body: payout('det-h'), headers: { 'X-Sandbox-Scenario': 'failures' } });
  await call('POST', PAYOUTS, { body: payout('det-0', { amount: 1000 }) });
  await call('POST', '/_sandbox/clock/advance', { body: { seconds: 30 } });
  for (let i = 0; i < 6; i++) await call('GET', `${PAYOUTS}/det-${i}`);
  await call('POST', '/_sandbox/simulate/payouts/det-1/fail', { body: { reason: 'Closed' } });
  await call('POST', `/_sandbox/simulate/quotes/${quoteId}/pay-in`);
  await call('POST', '/_sandbox/clock/advance', { body: { seconds: 600 } });
  for (const ref of ['det-0', 'det-1', 'det-h']) await call('GET', `${PAYOUTS}/${ref}`);
  await call('GET', `${WALLET}/det-w`);
  await call('GET', `${QUOTE}/${quoteId}`);
  await call('POST', PAYOUTS, { key: KEY_B, body: payout('det-b') });
  await call('GET', '/_sandbox/events?limit=1000');
  await call('GET', '/_sandbox/balances');
  return out;
}

describe('determinism', () => {
  it('gives byte-identical responses for a whole multi-resource flow with the same seed and scenario', async () => {
    const a = await flow(7, 'default');
    expect(a).toHaveLength(32);
    expect(await flow(7, 'default')).toEqual(a);
    const all = a.join('\n');
    expect(all).toContain('"status":"FAILED","fee":50,');
    expect(all).toMatch(/GET \/api\/v1\/partners\/wallets\/payouts\/det-w → 200 .*"status":"COMPLETED","transactionHash":"0x[0-9a-f]{64}"/);
    expect(all).toMatch(/PUT \/api\/v1\/quotes\/complete\/[0-9a-f-]{36} → 200 .*"HyperRailReference":"HR-REF-\d{6}"/);
    expect(all).toMatch(/POST \/api\/v1\/partners\/fx\/trades → 201 .*<TxId>[0-9a-f-]{36}<\/TxId>/s);
    expect(all).toMatch(/POST \/_sandbox\/simulate\/quotes\/[0-9a-f-]{36}\/pay-in → 200 /);
    expect(all).toMatch(/GET \/api\/v1\/partners\/marketplace\/quote\/[0-9a-f-]{36} → 200 \s*\{"quoteId":"[0-9a-f-]{36}","status":"completed"/);
    expect(await flow(8, 'default')).not.toEqual(a);
  });

  it('holds with seeded faults too', async () => {
    const a = await flow(7, 'flaky-network');
    expect(a.some((l) => / → 503 error 503 /.test(l))).toBe(true);
    expect(a.some((l) => / latency \d+ms /.test(l))).toBe(true);
    expect(await flow(7, 'flaky-network')).toEqual(a);
  });
});
