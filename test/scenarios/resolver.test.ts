// The Behaviour a scenario gives, for every resource kind: timing, outcomes (predicates and n-th
// request counters), TTLs and requirements. Resources other than fiat payouts are exercised here
// directly, through the same object their services call.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ResourceName } from '../../src/domains/index.js';
import { authCodeCheck } from '../../src/domains/withdrawals/withdrawals.service.js';
import { defaultBehaviour, magicOutcome } from '../../src/engine/registry/behaviour.js';
import { behaviourOf } from '../../src/engine/scenario/scenario.behaviour.js';
import type { Tenant } from '../../src/engine/tenancy/tenant.js';
import { createTestApp, KEY, KEY_B } from '../support/app.js';
import { checkScenario, LIFECYCLES, lifecycle, loadBundled } from '../support/scenarios.js';

let a: Tenant;
let b: Tenant;
beforeEach(async () => {
  const t = await createTestApp();
  a = await t.tenants.get(KEY, 'sandbox');
  b = await t.tenants.get(KEY_B, 'sandbox');
});

const of = (doc: unknown, t = a) => behaviourOf(checkScenario(doc, 'test'), 'test', t);
const bundled = (name: string, t = a) => behaviourOf(loadBundled().get(name)!.doc, name, t);

describe('timing', () => {
  it('uses the state, then *, then the built-in default, for every resource', () => {
    for (const r of LIFECYCLES.filter((x) => x.name !== 'fx_trade')) {
      const bh = of({ [r.name]: { timing: { '*': 7 } } });
      expect(bh.duration(r, 'ANY'), r.name).toBe(7);
      const other = LIFECYCLES.find((x) => x !== r)!;
      expect(bh.duration(other, 'PENDING')).toBe(defaultBehaviour.duration(other, 'PENDING'));
    }
    const bh = of({ wallet_payout: { timing: { PENDING: 1, '*': 9 } }, quote: { timing: { awaiting_payment: 4 } } });
    expect(bh.duration(lifecycle('wallet_payout'), 'PENDING')).toBe(1);
    expect(bh.duration(lifecycle('wallet_payout'), 'PROCESSING')).toBe(9);
    expect(bh.duration(lifecycle('quote'), 'awaiting_payment')).toBe(4);
    expect(bh.duration(lifecycle('payout'), 'PROCESSING')).toBe(270);
  });

  it('instant makes every state of every resource last 0 seconds; slow-settlement takes hours', () => {
    const instant = bundled('instant');
    const slow = bundled('slow-settlement');
    for (const r of LIFECYCLES.filter((x) => x.name !== 'fx_trade')) for (const s of ['PENDING', 'PROCESSING', 'awaiting_payment']) expect(instant.duration(r, s)).toBe(0);
    const total = (r: ResourceName, states: string[]) => states.reduce((n, s) => n + slow.duration(lifecycle(r), s), 0);
    expect(total('payout', ['PENDING', 'PROCESSING'])).toBe(3.5 * 3600);
    expect(total('wallet_payout', ['PENDING', 'PROCESSING'])).toBe(3 * 3600);
    expect(total('withdrawal', ['PROCESSING'])).toBe(4 * 3600);
    expect(total('transfer', ['PENDING', 'PROCESSING'])).toBe(4 * 3600);
  });
});

describe('outcomes', () => {
  it('without rules every resource succeeds', () => {
    for (const r of LIFECYCLES) expect(of({}).outcome(r, { amount: 1 })).toEqual({ succeed: true });
  });

  it('failures: each money-moving resource fails with a reason, quotes expire', () => {
    const f = bundled('failures');
    expect(f.outcome(lifecycle('payout'), {})).toEqual({ succeed: false, status: 'FAILED', reason: 'Beneficiary bank declined the transfer' });
    expect(f.outcome(lifecycle('wallet_payout'), {})).toEqual({ succeed: false, status: 'FAILED', reason: 'Transaction reverted on chain' });
    expect(f.outcome(lifecycle('withdrawal'), {})).toEqual({ succeed: false, status: 'FAILED', reason: 'Destination account is dormant' });
    expect(f.outcome(lifecycle('transfer'), {})).toEqual({ succeed: false, status: 'FAILED', reason: 'Beneficiary institution rejected the credit' });
    expect(f.outcome(lifecycle('quote'), {})).toMatchObject({ succeed: false, status: 'expired' });
    expect(f.outcome(lifecycle('fx_trade'), {})).toEqual({ succeed: true });
  });

  it('success is the resource’s own successful terminal state', () => {
    const bh = of({
      wallet_payout: { outcomes: [{ status: 'COMPLETED' }] },
      quote: { outcomes: [{ status: 'completed' }] },
    });
    expect(bh.outcome(lifecycle('wallet_payout'), {})).toEqual({ succeed: true, status: 'COMPLETED' });
    expect(bh.outcome(lifecycle('quote'), {})).toEqual({ succeed: true, status: 'completed' });
  });

  it('selects by amount range, currency, chain, token, reference and account-number patterns', () => {
    const bh = of({
      payout: { outcomes: [
        { when: { amount: { min: 100, max: 200 } }, status: 'FAILED', reason: 'amount' },
        { when: { reference: '^fail-' }, status: 'FAILED', reason: 'reference' },
        { when: { accountNumber: '^000' }, status: 'FAILED', reason: 'account' },
        { when: { fields: { 'destination.bankCode': '^999$' } }, status: 'FAILED', reason: 'bank' },
        { when: { currency: 'ghs' }, status: 'FAILED', reason: 'currency' },
      ] },
      wallet_payout: { outcomes: [{ when: { chain: 'BASE', token: ['usdt'] }, status: 'FAILED', reason: 'chain' }] },
      quote: { outcomes: [{ when: { currency: 'USDT' }, status: 'expired' }] },
    });
    const p = (over: Record<string, unknown>) =>
      bh.outcome(lifecycle('payout'), { reference: 'r', amount: 50, currency: 'NGN', destination: { accountNumber: '123', bankCode: '058' }, ...over }).reason;
    expect(p({})).toBeUndefined();
    expect([p({ amount: 100 }), p({ amount: 200 }), p({ amount: 200.01 }), p({ amount: 99.99 })]).toEqual(['amount', 'amount', undefined, undefined]);
    expect(p({ reference: 'fail-1' })).toBe('reference');
    expect(p({ reference: 'x-fail-1' })).toBeUndefined();
    expect(p({ destination: { accountNumber: '000111', bankCode: '058' } })).toBe('account');
    expect(p({ destination: { accountNumber: '123', bankCode: '999' } })).toBe('bank');
    expect(p({ currency: 'GHS' })).toBe('currency');
    expect(bh.outcome(lifecycle('wallet_payout'), { chain: 'base', token: 'usdt' }).reason).toBe('chain');
    expect(bh.outcome(lifecycle('wallet_payout'), { chain: 'base', token: 'usdc' }).succeed).toBe(true);
    expect(bh.outcome(lifecycle('quote'), { sourceCurrency: 'NGN', destinationCurrency: 'USDT' }).status).toBe('expired');
    expect(bh.outcome(lifecycle('quote'), { sourceCurrency: 'NGN', destinationCurrency: 'USDC' }).succeed).toBe(true);
  });

  it('counts the n-th matching request per tenant and per resource, in the tenant store', () => {
    const doc = { transfer: { outcomes: [{ when: { currency: 'NGN' }, nth: [2, 4], status: 'FAILED' }, { every: 3, status: 'FAILED', reason: 'third' }] } };
    const bh = of(doc);
    const seen = ['NGN', 'USD', 'NGN', 'NGN', 'NGN', 'USD'].map((currency) => {
      const o = bh.outcome(lifecycle('transfer'), { currency });
      return o.succeed ? 'ok' : (o.reason ?? 'nth');
    });
    // Rule 0 counts NGN requests only (it fires on NGN #2 and #4); rule 1 counts every request, fired or not.
    expect(seen).toEqual(['ok', 'ok', 'nth', 'ok', 'nth', 'third']);
    expect(of(doc, b).outcome(lifecycle('transfer'), { currency: 'NGN' }).succeed).toBe(true);
    expect(of(doc, b).outcome(lifecycle('transfer'), { currency: 'NGN' }).succeed).toBe(false);
    expect(of(doc).outcome(lifecycle('withdrawal'), { currency: 'NGN' }).succeed).toBe(true);
    expect(a.store.collection<number>('scenario_counters').get('test:outcome:transfer:0')).toBe(4);
  });
});

describe('TTLs and requirements', () => {
  it('default and short-ttl give quote and FX trade lifetimes', () => {
    expect([bundled('default').ttl(lifecycle('quote')), bundled('default').ttl(lifecycle('fx_trade'))]).toEqual([300, 300]);
    expect([bundled('short-ttl').ttl(lifecycle('quote')), bundled('short-ttl').ttl(lifecycle('fx_trade'))]).toEqual([5, 5]);
    expect(of({ quote: { ttl: 60 } }).ttl(lifecycle('fx_trade'))).toBe(300);
  });

  it('two-factor requires an authCode on withdrawals and accepts only 123456', () => {
    const tf = bundled('two-factor');
    expect([authCodeCheck(tf, undefined), authCodeCheck(tf, ''), authCodeCheck(tf, '000000'), authCodeCheck(tf, '123456')]).toEqual(['missing', 'missing', 'invalid', 'ok']);
    const d = bundled('default');
    expect([authCodeCheck(d, undefined), authCodeCheck(d, 'anything')]).toEqual(['ok', 'ok']);
    const pattern = of({ withdrawal: { authCode: { required: false, pattern: '^\\d{6}$' } } });
    expect([authCodeCheck(pattern, undefined), authCodeCheck(pattern, '12345'), authCodeCheck(pattern, '654321')]).toEqual(['ok', 'invalid', 'ok']);
  });
});

describe('test values', () => {
  it('ends a resource as the first value of its table that the request holds, read at its dotted field', () => {
    const table = [
      { field: 'destination.accountNumber', value: '0000000051', status: 'FAILED', reason: 'first' },
      { field: 'memo', value: 'hold-me', hold: true },
      { field: 'destination.accountNumber', value: '0000000051', status: 'FAILED', reason: 'second, never reached' },
      { field: 'destination.accountNumber', value: '0000000052', status: 'COMPLETED' },
    ];
    const r = { ...lifecycle('payout'), magic: table };
    expect(magicOutcome(r, { destination: { accountNumber: '0000000051' } })).toEqual({ succeed: false, status: 'FAILED', reason: 'first' });
    expect(magicOutcome(r, { destination: { accountNumber: '0000000052' } })).toMatchObject({ status: 'COMPLETED' });
    // Both fields hold a value of the table: the one listed first decides.
    expect(magicOutcome(r, { memo: 'hold-me', destination: { accountNumber: '0000000052' } })).toEqual({ succeed: true, after: 10 * 365 * 86_400 });
    expect(magicOutcome(r, { memo: 'hold-me', destination: { accountNumber: '0000000051' } })).toMatchObject({ reason: 'first' });
    // Only the text itself: a number, a nested object or a missing field is no test value.
    expect(magicOutcome(r, { destination: { accountNumber: 51 } })).toBeUndefined();
    expect(magicOutcome(r, { destination: '0000000051' })).toBeUndefined();
    expect(magicOutcome(r, {})).toBeUndefined();
    expect(magicOutcome(lifecycle('quote'), { destination: { accountNumber: '0000000051' } })).toBeUndefined();
  });
});
