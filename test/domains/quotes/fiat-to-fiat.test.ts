// Fiat to fiat quotes (GHS→NGN): priced as the cross of the GHS/USDT and NGN/USDT markets, filled
// from cross pools that pair a GHS→USDT pool with a USDT→NGN pool on one chain, completed to a bank.
// Expected figures are worked out by hand from fixtures/pools.json (the market at its origin):
//   BASE     GHS→USDT 15.62 (28,500 USDT)    USDT→NGN 1575    (68,000,000 NGN)
//   POLYGON  GHS→USDT 15.7  (9,200.75 USDT)  USDT→NGN 1568.75 (3,850,000 NGN = 2,454.18... USDT)
//   ARBITRUM GHS→USDT 15.84 (61,000 USDT)    USDT→NGN 1562.3  (125,000,000 NGN)
// Cross rates, NGN per GHS rounded down to 8 digits: 1575 / 15.62 = 100.83226, 1568.75 / 15.7 =
// 99.920382, 1562.3 / 15.84 = 98.63005; cross balances 28,500 × 1575 = 44,887,500 NGN, 3,850,000 NGN,
// 61,000 × 1562.3 = 95,300,300 NGN.
import { beforeEach, describe, expect, it } from 'vitest';
import type { XmlElement } from '../../../src/iso20022/xml.js';
import { createTestApp, KEY, LIVE_KEY, type TestApp } from '../../support/app.js';
import { fx } from '../../support/fx.js';
import { setup, verifyAll } from '../../support/webhooks.js';
import { ADDRESS, COMPLETE, EXPRESS, INTENT, QUOTE, SIM_QUOTES as SIM } from '../../support/quotes.js';

const BANK = { accountName: 'John Doe', accountNumber: '0123456789', bankCode: '058' };

const GHS_USDT_BASE = 'e85267cf-6026-412f-8f6a-9c6ad108928d';
const GHS_USDT_POLYGON = '931aa903-b8d6-4054-be72-f45577bdb63a';
const GHS_USDT_ARBITRUM = '34bfec1a-6044-4722-821e-c223e90da1f4';
const USDT_NGN_BASE = { id: '9d6abf8d-16fc-427f-86e5-acc66d38af79', accountId: 'ff4cc66b-1df3-4c04-bf9b-0c33533218cd', clientId: 'f8f63772-ad42-4ba2-af0c-eedd3109c814' };
const USDT_NGN_POLYGON = '8b6472b5-971d-4221-88b4-4bf752cd1f96';
const USDT_NGN_ARBITRUM = '4c8e70ba-7f90-4577-a63a-de22c35cc7f8';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const intent = (over: Record<string, unknown> = {}) => ({ sourceCurrency: 'GHS', destinationCurrency: 'NGN', amount: 1000, amountDirection: 'source', ...over });

async function create(over: Record<string, unknown> = {}, key = KEY, app = t) {
  const res = await app.call('POST', INTENT, { body: intent(over), key });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A pool's listing (XML): its available balance (at most 5 decimals) and trade count. */
async function listing(app: TestApp, name: string, source: string, destination: string) {
  const res = await fx(app, 'GET', `/listings?source=${source}&destination=${destination}`);
  const found = (res.xml.Listgs as XmlElement[]).find((l) => l.Nm === name);
  expect(found, res.text).toBeDefined();
  return { AvlblBal: found!.AvlblBal, TradsCnt: found!.TradsCnt };
}

describe('a GHS → NGN quote', () => {
  it('is the cross of the two USDT markets: 1000 GHS at 100.83226 NGN per GHS from the BASE cross pool', async () => {
    const q = await create();
    expect(q).toMatchObject({
      status: 'pending',
      source: 'GHS',
      destination: 'NGN',
      chain: 'BASE',
      amount: 1000,
      totalSourceAmount: 1000,
      // 1000 × 100.83226, rounded down
      totalDestinationAmount: 100832.26,
      allocationResult: { totalSourceAmount: 1000, totalDestinationAmount: 100832.26, weightedAverageRate: 100.83226 },
    });
    const [a] = q.allocationResult.allocations;
    expect(q.allocationResult.allocations).toHaveLength(1);
    expect(a).toMatchObject({
      clientId: USDT_NGN_BASE.clientId,
      poolAccountId: USDT_NGN_BASE.accountId,
      sourceAmount: 1000,
      allocatedAmount: 100832.26,
      rate: 100.83226,
      metadata: {
        poolName: 'Accra Digital Exchange + Lagos Liquidity Partners',
        chain: 'BASE',
        // 100,832.26 NGN / 1575, rounded up to 6 decimals
        settlement: { token: 'USDT', tokenAmount: 64.020483, sourcePoolId: GHS_USDT_BASE, sourceRate: 15.62, destinationPoolId: USDT_NGN_BASE.id, destinationRate: 1575 },
      },
    });
    // The cross pool's id is the same on every quote of the pair (derived from its two pools).
    expect((await create({ amount: 5 })).allocationResult.allocations[0].poolId).toBe(a.poolId);
    // Paid in by bank: the deposit block names the settlement token and expects nothing.
    expect(q.metadata.cryptoPayIn).toMatchObject({ token: 'USDT', chain: 'BASE', expectedAmount: 0 });
    expect(q.metadata.cryptoPayIn.warningMessage).toContain('bank transfer');
    expect(q.metadata.bankPayIn.reference).toMatch(/^HPR-[0-9a-f]{32}$/);
  });

  it('fills a large amount from the cross pools best rate first, each computed side rounded in the pools\' favour', async () => {
    const q = await create({ amount: 50_000_000, amountDirection: 'destination' });
    // 44,887,500 NGN (all of BASE) + 3,850,000 (all of POLYGON) + 1,262,500 from ARBITRUM; the GHS paid
    // into each is the NGN over its rate, rounded up: 445,170.03 + 38,530.68 + 12,800.36 = 496,501.07.
    expect(q.allocationResult.allocations.map((a: any) => [a.rate, a.allocatedAmount, a.sourceAmount, a.metadata.chain, a.metadata.settlement.sourcePoolId, a.metadata.settlement.destinationPoolId, a.metadata.settlement.tokenAmount])).toEqual([
      [100.83226, 44887500, 445170.03, 'BASE', GHS_USDT_BASE, USDT_NGN_BASE.id, 28500],
      [99.920382, 3850000, 38530.68, 'POLYGON', GHS_USDT_POLYGON, USDT_NGN_POLYGON, 2454.183267],
      [98.63005, 1262500, 12800.36, 'ARBITRUM', GHS_USDT_ARBITRUM, USDT_NGN_ARBITRUM, 808.103438],
    ]);
    // 50,000,000 / 496,501.07 to 10 decimals
    expect(q.allocationResult).toMatchObject({ totalSourceAmount: 496501.07, totalDestinationAmount: 50000000, weightedAverageRate: 100.7047175145 });
  });

  it('leaves out cross pools worse than a proposed rate (NGN per GHS), and goes the other way at GHS per NGN', async () => {
    const strict = await t.call('POST', INTENT, { body: intent({ amount: 50_000_000, amountDirection: 'destination', rate: 100 }) });
    expect(strict.status).toBe(400);
    expect(strict.body.error).toMatchObject({ code: 'INSUFFICIENT_LIQUIDITY' });
    expect(strict.body.message).toContain('44887500.00 NGN');
    // NGN → GHS: NGN→USDT BASE 1580.5 with USDT→GHS BASE 15.41: 15.41 / 1580.5 = 0.0097500790 GHS per NGN
    const back = await create({ sourceCurrency: 'NGN', destinationCurrency: 'GHS', amount: 100000 });
    expect(back.allocationResult).toMatchObject({ totalDestinationAmount: 975, weightedAverageRate: 0.009750079 });
    expect(back.allocationResult.allocations[0]).toMatchObject({ rate: 0.009750079, metadata: { settlement: { sourceRate: 1580.5, destinationRate: 15.41, tokenAmount: 63.270604 } } });
  });

  it('takes any two of NGN, GHS and USD: NGN→USD and USD→NGN through USDT on their best chain', async () => {
    // NGN→USDT BASE 1580.5 with USDT→USD BASE 0.9991: 0.9991 / 1580.5 = 0.00063214172..., cut to 10 decimals
    // (a rate has at most 10, as the FX interface's Rate type says): 0.0006321417 USD per NGN
    const toUsd = await create({ sourceCurrency: 'NGN', destinationCurrency: 'USD', amount: 100000 });
    // 63.21 / 100,000 = 0.0006321 is below the one rate used, so the average is that rate
    expect(toUsd).toMatchObject({ chain: 'BASE', totalDestinationAmount: 63.21, allocationResult: { weightedAverageRate: 0.0006321417, allocations: [{ rate: 0.0006321417 }] } });
    // USD→USDT BASE 1.0009 with USDT→NGN BASE 1575: 1575 / 1.0009 = 1573.5837 NGN per USD, better than ETHEREUM's 1570.7716
    const fromUsd = await create({ sourceCurrency: 'USD', destinationCurrency: 'NGN', amount: 100 });
    expect(fromUsd).toMatchObject({ chain: 'BASE', totalDestinationAmount: 157358.37, allocationResult: { weightedAverageRate: 1573.5837 } });
  });

  it('is completed to a bank only, then paid: its webhooks carry chain null and the two pools of each allocation are drawn down', async () => {
    const { t: app, r, hook, outbox } = await setup();
    const secret = await hook({ events: ['quote.*', 'order.successful'] });
    const before = {
      ghs: Number((await listing(app, 'Accra Digital Exchange', 'GHS', 'USDT')).TradsCnt),
      ngn: Number((await listing(app, 'Lagos Liquidity Partners', 'USDT', 'NGN')).TradsCnt),
    };
    const q = await create({}, KEY, app);

    const wallet = await app.call('PUT', `${COMPLETE}/${q.quoteId}`, { body: { destination: { blockChain: { address: ADDRESS } } } });
    expect(wallet.status).toBe(400);
    expect(wallet.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'destination.bank', issue: 'is required when the destination currency is NGN' }] });
    expect(wallet.body.message).toContain('send destination.bank with accountName, accountNumber and bankCode instead of destination.blockChain');

    const done = await app.call('PUT', `${COMPLETE}/${q.quoteId}`, { body: { destination: { bank: BANK } } });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({
      sourceCurrency: 'GHS',
      destinationCurrency: 'NGN',
      destinationNetwork: 'BANK',
      rate: 100.83226,
      amount: 1000,
      receiveAmount: 100832.26,
      totalAmount: 1000.5,
      providerId: USDT_NGN_BASE.clientId,
      providerBalanceId: USDT_NGN_BASE.accountId,
      status: 'PENDING',
    });
    const paid = await app.call('POST', `${SIM}/${q.quoteId}/pay-in`);
    expect(paid.status).toBe(200);
    expect((await app.call('GET', `${QUOTE}/${q.quoteId}`)).body.status).toBe('completed');

    await r.waitFor(4);
    await outbox.idle();
    const got = verifyAll(r, secret);
    expect(got.map((m) => m.event)).toEqual(['quote.pending', 'quote.awaiting_payment', 'quote.completed', 'order.successful']);
    for (const m of got) expect(m.data).toMatchObject({ source_currency: 'GHS', destination_currency: 'NGN', chain: null });
    expect(got[3].data).toMatchObject({ status: 'successful', amount: 1000, receive_amount: 100832.26, total_amount: 1000.5, rate: 100.83226, mode: 'test' });

    // The GHS→USDT pool delivered the 64.020483 USDT the USDT→NGN pool paid out as 100,832.26 NGN.
    expect(await listing(app, 'Accra Digital Exchange', 'GHS', 'USDT')).toEqual({ AvlblBal: '28435.97952', TradsCnt: String(before.ghs + 1) });
    expect(await listing(app, 'Lagos Liquidity Partners', 'USDT', 'NGN')).toEqual({ AvlblBal: '67899167.74', TradsCnt: String(before.ngn + 1) });
  });

  it('checks the bank destination under a live key as every bank destination', async () => {
    const q = await create({}, LIVE_KEY);
    const bad = await t.call('PUT', `${COMPLETE}/${q.quoteId}`, { key: LIVE_KEY, body: { destination: { bank: { ...BANK, bankCode: '999' } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_BANK_CODE', details: [{ field: 'destination.bank.bankCode' }] });
    const ok = await t.call('PUT', `${COMPLETE}/${q.quoteId}`, { key: LIVE_KEY, body: { destination: { bank: { ...BANK, accountName: 'Adaeze Okonkwo' } } } });
    expect(ok.status, ok.text).toBe(200);
  });

  it('is made by the express quote and POST /api/v1/quotes too, destinationNetwork naming the chain the USDT settles on', async () => {
    const ex = await t.call('POST', EXPRESS, { body: { sourceCurrency: 'GHS', destinationCurrency: 'NGN', amount: 1000, destinationNetwork: 'ARBITRUM' } });
    expect(ex.status, ex.text).toBe(201);
    // 1000 × 98.63005
    expect(ex.body[0]).toMatchObject({ chain: 'ARBITRUM', totalDestinationAmount: 98630.05, allocationResult: { weightedAverageRate: 98.63005 } });
    const none = await t.call('POST', EXPRESS, { body: { sourceCurrency: 'GHS', destinationCurrency: 'NGN', amount: 1000, destinationNetwork: 'ETHEREUM' } });
    expect(none.status).toBe(400);
    expect(none.body.error.details).toEqual([{ field: 'destinationNetwork', issue: 'must be one of BASE, POLYGON, ARBITRUM for GHS→NGN' }]);
    const pq = await t.call('POST', '/api/v1/quotes', { body: { sourceCurrency: 'GHS', destinationCurrency: 'NGN', amount: 1000 } });
    expect(pq.status, pq.text).toBe(201);
    expect(pq.body[0]).toMatchObject({ sourceCurrency: 'GHS', destinationCurrency: 'NGN', destinationNetwork: 'BANK', rate: 100.83226, receiveAmount: 100832.26 });
  });

  it('refuses one fiat on both sides naming both fields, and token to token as before', async () => {
    const same = await t.call('POST', INTENT, { body: intent({ destinationCurrency: 'GHS' }) });
    expect(same.status).toBe(400);
    expect(same.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        { field: 'sourceCurrency', issue: 'must differ from destinationCurrency' },
        { field: 'destinationCurrency', issue: 'must differ from sourceCurrency' },
      ],
    });
    expect(same.body.message).toContain('Send another currency as destinationCurrency');
    const tokens = await t.call('POST', EXPRESS, { body: { sourceCurrency: 'USDT', destinationCurrency: 'USDC', amount: 10 } });
    expect(tokens.status).toBe(400);
    expect(tokens.body.error).toMatchObject({ code: 'UNSUPPORTED_CURRENCY', details: [{ field: 'destinationCurrency', issue: 'must be a fiat currency (NGN, GHS, USD) when sourceCurrency is USDT' }] });
  });

  it('keeps chain on the events of a fiat–token quote', async () => {
    await create({ destinationCurrency: 'USDT' });
    const [e] = (await t.call('GET', '/_sandbox/events?type=quote.pending')).body.data;
    expect(e.data).toMatchObject({ source_currency: 'GHS', destination_currency: 'USDT', chain: 'BASE' });
  });
});
