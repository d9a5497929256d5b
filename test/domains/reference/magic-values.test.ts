// The zero-setup test values: every row of the table over HTTP, under the default scenario, and
// the ways they are switched off (a scenario's magicValues: false, a live key).
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { magicValueTable } from '../../../src/domains/reference/magic-values.js';
import { advance, createTestApp, KEY, LIVE_KEY, type TestApp } from '../../support/app.js';
import { transfer, TRANSFERS, WALLET, walletPayout, withdrawal, WITHDRAWAL } from '../../scenarios/resources.js';
import { payout, PAYOUTS } from '../../scenarios/support.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'usdc:base', amount: 100_000 } });
});

const SOURCE = { 'x-service-source': 'payroll-service' };
let n = 0;
const uuid = () => `3f1c9a52-8a64-4c1e-9d3e-${(++n).toString(16).padStart(12, '0')}`;

/** Create the resource a row applies to with its value; answers how to read it back. */
async function create(row: { value: string; applies: string }, key = KEY): Promise<{ status: number; read: () => Promise<{ status: string; failureReason?: string | null }> }> {
  switch (row.applies) {
    case 'fiat payout': {
      const ref = `m-${++n}`;
      const res = await t.call('POST', PAYOUTS, { key, body: payout(ref, { destination: { accountNumber: row.value, accountName: 'John Doe', bankCode: '058' } }) });
      return { status: res.status, read: async () => (await t.call('GET', `${PAYOUTS}/${ref}`, { key })).body.data };
    }
    case 'withdrawal': {
      const res = await t.call('POST', WITHDRAWAL, { key, body: withdrawal({ accountNumber: row.value }) });
      return { status: res.status, read: async () => (await t.call('GET', `${WITHDRAWAL}/${res.body.reference}`, { key })).body };
    }
    case 'transfer': {
      const ref = uuid();
      const body = { ...transfer(ref), destination: { accountNumber: row.value, accountName: 'Ada Obi', bankCode: '058' } };
      const res = await t.call('POST', TRANSFERS, { key, body, headers: SOURCE });
      return { status: res.status, read: async () => (await t.call('GET', `${TRANSFERS}/${ref}`, { key, headers: SOURCE })).body };
    }
    case 'wallet payout': {
      const ref = `w-${++n}`;
      const res = await t.call('POST', WALLET, { key, body: { ...walletPayout(ref), toAddress: row.value } });
      return { status: res.status, read: async () => (await t.call('GET', `${WALLET}/${ref}`, { key })).body };
    }
  }
  throw new Error(`no resource ${row.applies}`);
}

const rows = magicValueTable().filter((r) => r.applies !== 'Resolve Bank Account');

describe('test values under the default scenario', () => {
  it.each(rows.map((r) => [`${r.applies} ${r.value}`, r] as const))('%s: %s', async (_name, row) => {
    const made = await create(row);
    expect(made.status).toBe(201);
    await advance(t, 86_400);
    const now = await made.read();
    if (row.effect.startsWith('stays PROCESSING')) {
      expect(now.status).toBe('PROCESSING');
    } else {
      const [status, reason] = row.effect.split(': ');
      expect(now.status).toBe(status);
      if ('failureReason' in now) expect(now.failureReason).toBe(reason);
    }
  });

  it('a held payout moves when simulated', async () => {
    const made = await create({ value: '0000000099', applies: 'fiat payout' });
    await advance(t, 86_400);
    const ref = (await made.read()) as { reference?: string; status: string };
    expect((await t.call('POST', `/_sandbox/simulate/payouts/${ref.reference}/complete`)).status).toBe(200);
    expect((await made.read()).status).toBe('SUCCESSFUL');
  });

  it('Resolve Bank Account answers 404 for 0000000044 and resolves any other number', async () => {
    const miss = await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=0000000044&bankCode=058&currency=NGN');
    expect([miss.status, miss.body.error.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    const hit = await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=0000000045&bankCode=058&currency=NGN');
    expect(hit.body.data.accountName).toBe('John Doe');
  });
});

describe('switched off', () => {
  it('by a scenario with magicValues: false: the same values succeed and resolve', async () => {
    expect((await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { magicValues: false } } })).status).toBe(200);
    expect((await t.call('GET', '/_sandbox/magic-values')).body.honoured).toBe(false);
    const made = await create({ value: '0000000052', applies: 'fiat payout' });
    await advance(t, 86_400);
    expect((await made.read()).status).toBe('SUCCESSFUL');
    expect((await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=0000000044&bankCode=058&currency=NGN')).status).toBe(200);
  });

  it('for live keys, which follow live rules', async () => {
    await t.call('POST', '/_sandbox/balances/top-up', { key: LIVE_KEY, body: { key: 'usdc:base', amount: 100_000 } });
    expect((await t.call('GET', '/_sandbox/magic-values', { key: LIVE_KEY })).body.honoured).toBe(false);
    const made = await create({ value: `0x${'0'.repeat(38)}51`, applies: 'wallet payout' }, LIVE_KEY);
    await advance(t, 86_400, LIVE_KEY);
    expect((await made.read()).status).toBe('COMPLETED');
  });
});

describe('docs/magic-values.md', () => {
  it('lists exactly the table the sandbox serves', async () => {
    const served = (await t.call('GET', '/_sandbox/magic-values')).body.data as { value: string; applies: string; effect: string }[];
    expect(served).toEqual(magicValueTable());
    const doc = readFileSync(new URL('../../../docs/magic-values.md', import.meta.url), 'utf8');
    const documented = [...doc.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| ([^|]+) \| ([^|]+) \|$/gm)].map((m) => ({ value: m[1], field: m[2], applies: m[3].trim(), effect: m[4].trim() }));
    expect(documented).toEqual(served);
  });
});
