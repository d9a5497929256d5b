// A thousand keys creating payouts, wallet payouts, withdrawals and transfers at once, then reading
// back and listing: every answer holds only that key's own references.
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

const TENANTS = 1000;
const keyOf = (i: number) => `sk_test_many${String(i).padStart(28, '0')}`;
const uuidOf = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const SOURCE = { 'x-service-source': 'isolation' };

async function createAll(t: TestApp, i: number) {
  const key = keyOf(i);
  const [payout, wallet, withdrawal, transfer] = await Promise.all([
    t.call('POST', '/api/v1/partners/payouts', {
      key,
      body: { reference: `p-${i}`, amount: 1000 + i, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } },
    }),
    t.call('POST', '/api/v1/partners/wallets/payouts', {
      key,
      body: { reference: `w-${i}`, chain: 'ethereum', asset: 'usdc', amount: 10, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' },
    }),
    t.call('POST', '/api/v1/partners/withdrawal', {
      key,
      body: { accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9', accountName: 'John Doe', accountNumber: '0123456789', amount: 500 + i, bankCode: 'SPB-17646', narration: `n-${i}` },
    }),
    t.call('POST', '/api/v1/transfers', {
      key,
      headers: SOURCE,
      body: { reference: uuidOf(i), amount: 2000, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' }, destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058' } },
    }),
  ]);
  for (const r of [payout, wallet, withdrawal, transfer]) expect(r.status, r.text).toBe(201);
  return { payout: `p-${i}`, wallet: `w-${i}`, withdrawal: withdrawal.body.reference as string, transfer: uuidOf(i) };
}

/** Every reference-like value in an answer: `p-N`, `w-N`, and the UUIDs this test made. */
function foreignMarks(text: string, i: number, own: Set<string>): string[] {
  const marks = text.match(/"(?:[pw]-\d+|00000000-0000-4000-8000-[0-9a-f]{12}|TRF-[A-Za-z0-9-]+|n-\d+)"/g) ?? [];
  return marks.map((m) => m.slice(1, -1)).filter((m) => !own.has(m) && m !== `n-${i}`);
}

describe(`${TENANTS} tenants at once`, () => {
  it('never shows one tenant another tenant’s data', async () => {
    const t = await createTestApp();
    const made = await Promise.all(Array.from({ length: TENANTS }, (_, i) => createAll(t, i)));
    const withdrawals = new Set(made.map((m) => m.withdrawal));
    expect(withdrawals.size).toBe(TENANTS);
    await Promise.all(
      made.map(async (m, i) => {
        const key = keyOf(i);
        const own = new Set(Object.values(m));
        const answers = await Promise.all([
          t.call('GET', `/api/v1/partners/payouts/${m.payout}`, { key }),
          t.call('GET', `/api/v1/partners/wallets/payouts/${m.wallet}`, { key }),
          t.call('GET', `/api/v1/partners/withdrawal/${m.withdrawal}`, { key }),
          t.call('GET', `/api/v1/transfers/${m.transfer}`, { key, headers: SOURCE }),
          t.call('GET', '/_sandbox/events?limit=1000', { key }),
          t.call('GET', '/_sandbox/requests?limit=200', { key }),
          t.call('GET', '/_sandbox/balances', { key }),
        ]);
        for (const a of answers) {
          expect(a.status).toBe(200);
          expect(foreignMarks(a.text, i, own), a.text.slice(0, 300)).toEqual([]);
        }
        const [payout, , , , events, journal, balances] = answers;
        expect(payout.body.data.amount).toBe(1000 + i);
        expect(events.body.data.length).toBeGreaterThanOrEqual(4);
        expect(journal.body.data.filter((e: { method: string }) => e.method === 'POST')).toHaveLength(4);
        for (const e of journal.body.data) expect(e.requestHeaders.authorization).toContain(key.slice(-4));
        const ngn = balances.body.data.find((b: { key: string }) => b.key === 'NGN').available;
        // 500,000,000 at start, less this tenant's payout (amount + fee) and transfer (amount + fee) only.
        expect(Number(ngn)).toBeGreaterThan(499_990_000);
      }),
    );
    // Each tenant's NGN balance moved by exactly its own payout and withdrawal, whose amounts both
    // grow by one per index.
    const ngnOf = async (i: number) =>
      Number((await t.call('GET', '/_sandbox/balances', { key: keyOf(i) })).body.data.find((b: { key: string }) => b.key === 'NGN').available);
    expect((await ngnOf(0)) - (await ngnOf(1))).toBe(2);
    expect((await ngnOf(0)) - (await ngnOf(999))).toBe(1998);
  }, 60_000);
});
