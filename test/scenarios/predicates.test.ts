// Outcome predicates against real requests: each resource exposes chain, token and reference under
// its own field names (a wallet payout's token is `asset`, a quote's chain comes from its pool, a
// withdrawal's reference is the sandbox's own), and the predicates must still find them.
import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, type TestApp } from '../support/app.js';
import { COMPLETE, INTENT, intent, QUOTE, toChain, WALLET, walletPayout, withdrawal, WITHDRAWAL } from './resources.js';
import { useScenario } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function created(method: string, path: string, body: unknown) {
  const res = await t.call(method, path, { body });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
}

describe('outcome predicates on real requests', () => {
  it('token matches a wallet payout by its asset, chain by its chain', async () => {
    await useScenario(t, {
      scenario: { wallet_payout: { timing: { '*': 0 }, outcomes: [{ when: { chain: 'polygon', token: 'USDT' }, status: 'FAILED', reason: 'usdt on polygon' }] } },
    });
    const usdt = await created('POST', WALLET, { ...walletPayout('w-usdt'), chain: 'polygon', asset: 'usdt' });
    const usdc = await created('POST', WALLET, { ...walletPayout('w-usdc'), chain: 'polygon', asset: 'usdc' });
    await advance(t, 1);
    expect((await t.call('GET', `${WALLET}/${usdt.reference}`)).body.status).toBe('FAILED');
    expect((await t.call('GET', `${WALLET}/${usdc.reference}`)).body.status).toBe('COMPLETED');
  });

  it('chain and token match a quote by its pool chain and its token side', async () => {
    await useScenario(t, {
      scenario: { quote: { timing: { '*': 0 }, outcomes: [{ when: { chain: 'base', token: 'usdt' }, status: 'expired' }] } },
    });
    const usdt = await created('POST', INTENT, intent);
    const usdc = await created('POST', INTENT, { ...intent, destinationCurrency: 'USDC' });
    expect([usdt.chain, usdc.chain]).toEqual(['BASE', 'BASE']);
    await created('PUT', `${COMPLETE}/${usdt.quoteId}`, toChain);
    await created('PUT', `${COMPLETE}/${usdc.quoteId}`, toChain);
    await advance(t, 3600);
    expect((await t.call('GET', `${QUOTE}/${usdt.quoteId}`)).body.status).toBe('expired');
    expect((await t.call('GET', `${QUOTE}/${usdc.quoteId}`)).body.status).toBe('completed');
  });
});
