// An outcome rule's `after`: the end state comes that many seconds after creation, whatever the
// timing says, on a clock QA has frozen so 599 s and 600 s are exact.
import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, type TestApp } from '../support/app.js';
import { transfer, TRANSFERS, WALLET, walletPayout, withdrawal, WITHDRAWAL } from './resources.js';
import { payout, PAYOUTS, useScenario } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  expect((await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } })).status).toBe(200);
});

const read = async (path: string, headers: Record<string, string> = {}) => (await t.call('GET', path, { headers })).body;

describe('an outcome rule with after', () => {
  it('fails a payout whose reference starts late- exactly 600 s after creation, and says so in estimatedCompletionAt', async () => {
    await useScenario(t, { scenario: { payout: { outcomes: [{ when: { reference: '^late-' }, status: 'FAILED', reason: 'Account closed', after: 600 }] } } });
    const created = (await t.call('POST', PAYOUTS, { body: payout('late-1') })).body.data;
    expect(created.estimatedCompletionAt).toBe('2026-01-15T09:10:00.000Z');
    await advance(t, 599);
    expect((await read(`${PAYOUTS}/late-1`)).data.status).toBe('PROCESSING');
    await advance(t, 1);
    expect((await read(`${PAYOUTS}/late-1`)).data).toMatchObject({ status: 'FAILED', failureReason: 'Account closed' });
    // A payout the rule does not match keeps the usual timing.
    expect((await t.call('POST', PAYOUTS, { body: payout('on-time-1') })).body.data.estimatedCompletionAt).not.toBe('2026-01-15T09:20:00.000Z');
  });

  it('holds a wallet payout, a withdrawal and a transfer until their own after', async () => {
    await useScenario(t, {
      scenario: {
        wallet_payout: { outcomes: [{ status: 'FAILED', after: 3600 }] },
        withdrawal: { outcomes: [{ status: 'FAILED', after: 120 }] },
        transfer: { outcomes: [{ status: 'FAILED', after: 45 }] },
      },
    });
    await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'usdc:base', amount: 1000 } });
    expect((await t.call('POST', WALLET, { body: walletPayout('w-1') })).status).toBe(201);
    const w = (await t.call('POST', WITHDRAWAL, { body: withdrawal() })).body;
    const ref = '3f1c9a52-8a64-4c1e-9d3e-1b2a3c4d5e6f';
    const headers = { 'x-service-source': 'payroll-service' };
    expect((await t.call('POST', TRANSFERS, { body: transfer(ref), headers })).status).toBe(201);
    await advance(t, 44);
    expect((await read(`${TRANSFERS}/${ref}`, headers)).status).toBe('PROCESSING');
    await advance(t, 1);
    expect((await read(`${TRANSFERS}/${ref}`, headers)).status).toBe('FAILED');
    await advance(t, 74);
    expect((await read(`${WITHDRAWAL}/${w.reference}`)).status).toBe('PROCESSING');
    await advance(t, 1);
    expect((await read(`${WITHDRAWAL}/${w.reference}`)).status).toBe('FAILED');
    await advance(t, 3479);
    expect((await read(`${WALLET}/w-1`)).status).toBe('PROCESSING');
    await advance(t, 1);
    expect((await read(`${WALLET}/w-1`)).status).toBe('FAILED');
  });

  it('is refused when negative, with the path', async () => {
    const res = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { payout: { outcomes: [{ status: 'FAILED', after: -1 }] } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('scenario.payout.outcomes[0].after');
  });
});
