// The quote operations of the live reference beyond the API document: express quotes, the quote
// read-back, and payment-specific quotes made and read directly.
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/kernel/clock.js';
import { advance, createTestApp, KEY_B, type TestApp } from '../../support/app.js';
import { ADDRESS, COMPLETE, EXPRESS, PAYMENTS, QUOTE, QUOTES, SIM_QUOTES as SIM } from '../../support/quotes.js';

const NGN_USDT_BASE = '7e4ffa35-4c02-497f-b525-28a216edd814';
const NGN_USDT_ETHEREUM = '73bd4452-6eb7-47ed-95cb-f457564a0687';
const NGN_USDT_POLYGON = '4b3ae805-2509-4a3e-ae86-2c0e6feb3514';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const body = (over: Record<string, unknown> = {}) => ({ sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, ...over });
const events = async (type: string, key?: string) => (await t.call('GET', `/_sandbox/events?type=${type}`, { key })).body.data;

async function express(over: Record<string, unknown> = {}, key?: string) {
  const res = await t.call('POST', EXPRESS, { body: body(over), key });
  expect(res.status, res.text).toBe(201);
  expect(Array.isArray(res.body)).toBe(true);
  expect(res.body).toHaveLength(1);
  return res.body[0];
}

describe('POST /api/v1/partners/marketplace/express/quote', () => {
  it('answers an array of one pending marketplace quote filled from the best pools, amount in source units', async () => {
    const q = await express();
    expect(q).toMatchObject({
      status: 'pending',
      source: 'NGN',
      destination: 'USDT',
      chain: 'BASE',
      amount: 50000,
      totalSourceAmount: 50000,
      totalDestinationAmount: 31.635558,
      mode: 'sandbox',
      ttl: 300,
      allocationResult: { weightedAverageRate: 1580.5 },
      metadata: { cryptoPayIn: { addressType: 'deposit', status: 'active' } },
      chatMetadata: {},
    });
    expect(q.allocationResult.allocations.map((a: { poolId: string }) => a.poolId)).toEqual([NGN_USDT_BASE]);
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}`)).body).toEqual(q);
    // Larger than the best pool: spills into the next, best execution.
    const big = await express({ amount: 80_000_000 });
    expect(big.allocationResult.allocations.map((a: { poolId: string }) => a.poolId)).toEqual([NGN_USDT_BASE, NGN_USDT_ETHEREUM]);
  });

  it('uses only the pools of destinationNetwork when it is sent', async () => {
    const q = await express({ destinationNetwork: 'POLYGON', amount: 1000 });
    expect(q).toMatchObject({ chain: 'POLYGON', allocationResult: { weightedAverageRate: 1586 } });
    expect(q.allocationResult.allocations.map((a: { poolId: string }) => a.poolId)).toEqual([NGN_USDT_POLYGON]);
    const none = await t.call('POST', EXPRESS, { body: body({ destinationNetwork: 'OPTIMISM' }) });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'destinationNetwork', issue: 'must be one of BASE, ETHEREUM, POLYGON, ARBITRUM for NGN→USDT' }] });
  });

  it('says a liquidity refusal on destinationNetwork counts that chain\'s pools only, on both quote routes', async () => {
    for (const path of [EXPRESS, QUOTES]) {
      // BASE holds 42500 USDT (67171250 NGN at 1580.5); ETHEREUM alone holds far more.
      const res = await t.call('POST', path, { body: body({ amount: 100_000_000, destinationNetwork: 'BASE' }) });
      expect(res.status, path).toBe(400);
      expect(res.body.message).toBe(
        'Not enough NGN to USDT liquidity on BASE: 100000000.00 NGN was requested but at most 67171250.00 NGN (42500.000000 USDT) can be filled. ' +
          'Send 67171250.00 NGN or less instead. Only the pools on BASE were used, as destinationNetwork asks; leave it out to fill from every chain.',
      );
      expect(res.body.error).toMatchObject({
        code: 'INSUFFICIENT_LIQUIDITY',
        details: [
          { field: 'amount', issue: 'exceeds the available liquidity of 67171250.00 NGN' },
          { field: 'destinationNetwork', issue: 'leaves out the pools on every chain but BASE' },
        ],
      });
      expect((await t.call('POST', path, { body: body({ amount: 100_000_000 }) })).status).toBe(201);
    }
  });

  it('refuses a bad body naming the field, an unconvertible pair and more than the pools hold', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ amount: -1 }, 400, 'VALIDATION_ERROR', 'amount'],
      [{ destinationCurrency: 'EUR' }, 400, 'VALIDATION_ERROR', 'destinationCurrency'],
      [{ destinationNetwork: 'SOLANA' }, 400, 'VALIDATION_ERROR', 'destinationNetwork'],
      [{ sourceCurrency: 'USDC' }, 400, 'UNSUPPORTED_CURRENCY', 'destinationCurrency'],
      [{ destinationCurrency: 'NGN' }, 400, 'VALIDATION_ERROR', 'sourceCurrency'],
      [{ amount: 1.234 }, 400, 'VALIDATION_ERROR', 'amount'],
    ];
    for (const [over, status, code, field] of cases) {
      const res = await t.call('POST', EXPRESS, { body: body(over) });
      expect(res.status, JSON.stringify(over)).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.details[0].field).toBe(field);
    }
    const huge = await t.call('POST', EXPRESS, { body: body({ amount: 900_000_000_000 }) });
    expect(huge.body.error.code).toBe('INSUFFICIENT_LIQUIDITY');
  });

  it('lives an intent\'s life, its events and webhooks saying quote_type express', async () => {
    const q = await express();
    const done = await t.call('PUT', `${COMPLETE}/${q.quoteId}`, { body: { destination: { blockChain: { address: ADDRESS } } } });
    expect(done.status).toBe(200);
    expect((await t.call('POST', `${SIM}/${q.quoteId}/pay-in`)).status).toBe(200);
    const seen = await events('quote');
    expect(seen.map((e: { event: string }) => e.event)).toEqual(['quote.pending', 'quote.awaiting_payment', 'quote.completed']);
    expect(seen.every((e: { data: { quote_type: string } }) => e.data.quote_type === 'express')).toBe(true);
    expect((await events('order.successful'))[0].data.quote_type).toBe('express');
    // An intent's quote still says quote.
    const intent = await t.call('POST', '/api/v1/partners/marketplace/intent', { body: body({ amountDirection: 'source' }) });
    const last = (await events('quote.pending')).find((e: { data: { quote_id: string } }) => e.data.quote_id === intent.body.quoteId);
    expect(last.data.quote_type).toBe('quote');
  });
});

describe('GET /api/v1/partners/marketplace/quote/{id}/complete', () => {
  it('answers the quote session as it stands: pending, then completed with its pay-in details', async () => {
    const q = await express();
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}/complete`)).body).toEqual(q);
    await t.call('PUT', `${COMPLETE}/${q.quoteId}`, { body: { destination: { blockChain: { address: ADDRESS } } } });
    await t.call('POST', `${SIM}/${q.quoteId}/pay-in`);
    const res = await t.call('GET', `${QUOTE}/${q.quoteId}/complete`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ quoteId: q.quoteId, status: 'completed', metadata: { bankPayIn: q.metadata.bankPayIn, cryptoPayIn: { status: 'completed' } } });
    const unknown = await t.call('GET', `${QUOTE}/3b241101-e2bb-4255-8caf-4136c566a962/complete`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('POST /api/v1/quotes and GET /api/v1/quotes/payments/{id}', () => {
  it('makes an array of one PENDING payment-specific quote with the live values', async () => {
    const res = await t.call('POST', QUOTES, { body: body({ amount: 123, destinationNetwork: 'BASE' }) });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(1);
    const p = res.body[0];
    expect(p).toMatchObject({
      sourceCurrency: 'NGN',
      destinationCurrency: 'USDT',
      destinationNetwork: 'BASE',
      rate: 1580.5,
      amount: 123,
      receiveAmount: 0.077823,
      totalAmount: 123.5,
      status: 'PENDING',
      createdAt: '2026-01-15T09:00:00.000Z',
      expiresAt: '2026-01-15T09:05:00.000Z',
      fees: [{ name: 'Processing Fee', amount: 0.5, feeType: 'FLAT' }],
      metadata: { cryptoPayIn: { status: 'AWAITING_PAYMENT', addressType: 'EVM', derivationIndex: 0 }, bankPayIn: { bankName: 'Access Bank' } },
    });
    expect(p.HyperRailReference).toMatch(/^HR-REF-\d{6}$/);
    expect((await t.call('GET', `${PAYMENTS}/${p.quoteId}`)).body).toEqual(p);
    // The quote behind it is pending until completed with a destination.
    expect((await t.call('GET', `${QUOTE}/${p.quoteId}`)).body.status).toBe('pending');
  });

  it('is made at the quote\'s instant: created the moment the quote was, expiring its ttl later, however long the request takes', async () => {
    // A clock that moves a millisecond at every reading, as a real one does during a request.
    class Ticking extends ManualClock {
      override now() {
        const ms = super.now();
        this.advance(0.001);
        return ms;
      }
    }
    t = await createTestApp({ clock: new Ticking() });
    const [p] = (await t.call('POST', QUOTES, { body: body() })).body;
    const q = (await t.call('GET', `${QUOTE}/${p.quoteId}`)).body;
    expect(p.createdAt).toBe(q.metadata.cryptoPayIn.createdAt);
    expect(Date.parse(p.expiresAt) - Date.parse(p.createdAt)).toBe(q.ttl * 1000);
    const [pending] = await events('quote.pending');
    expect(pending.data.created_at).toBe(p.createdAt);
  });

  it('announces the quote with the total it answered, in every event of its life', async () => {
    const [p] = (await t.call('POST', QUOTES, { body: body({ amount: 5000 }) })).body;
    expect(p).toMatchObject({ amount: 5000, totalAmount: 5000.5 });
    await advance(t, 300);
    const [pending] = await events('quote.pending');
    const [expired] = await events('quote.expired');
    expect(pending.data).toMatchObject({ quote_id: p.quoteId, amount: 5000, total_amount: 5000.5, status: 'pending' });
    expect(expired.data).toMatchObject({ quote_id: p.quoteId, amount: 5000, total_amount: 5000.5, status: 'expired' });
  });

  it('follows the quote: completion keeps the same payment-specific quote, then COMPLETED on pay-in', async () => {
    const [p] = (await t.call('POST', QUOTES, { body: body() })).body;
    await advance(t, 10);
    const done = await t.call('PUT', `${COMPLETE}/${p.quoteId}`, { body: { destination: { blockChain: { address: ADDRESS } } } });
    expect(done.status).toBe(200);
    expect(done.body).toEqual(p);
    await t.call('POST', `${SIM}/${p.quoteId}/pay-in`);
    const paid = (await t.call('GET', `${PAYMENTS}/${p.quoteId}`)).body;
    expect(paid).toMatchObject({ HyperRailReference: p.HyperRailReference, status: 'COMPLETED', metadata: { cryptoPayIn: { status: 'COMPLETED' } } });
  });

  it('follows an allocation removed before completion: amounts, rate, provider and pay-in of the allocations left', async () => {
    const [p] = (await t.call('POST', QUOTES, { body: body({ sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 100000 }) })).body;
    const q = (await t.call('GET', `${QUOTE}/${p.quoteId}`)).body;
    const [first, second] = q.allocationResult.allocations;
    expect([first.metadata.chain, second.metadata.chain, second.rate]).toEqual(['BASE', 'ETHEREUM', 1571.4]);
    await advance(t, 10);
    const removed = await t.call('PUT', `${QUOTE}/${p.quoteId}/remove/${first.id}`);
    expect(removed.status).toBe(200);
    const expected = {
      ...p,
      rate: 1571.4,
      providerId: second.clientId,
      providerBalanceId: second.poolAccountId,
      amount: second.sourceAmount,
      receiveAmount: second.allocatedAmount,
      totalAmount: 56825.896825,
      metadata: {
        ...p.metadata,
        cryptoPayIn: {
          ...p.metadata.cryptoPayIn,
          chain: 'ETHEREUM',
          expectedAmount: 56825.896825,
          warningMessage: `Send exactly 56825.896825 USDT on ETHEREUM to this address before ${p.expiresAt}; any other token, chain or amount is not credited.`,
        },
      },
    };
    expect(second.sourceAmount).toBe(56825.396825);
    expect((await t.call('GET', `${PAYMENTS}/${p.quoteId}`)).body).toEqual(expected);
    const done = await t.call('PUT', `${COMPLETE}/${p.quoteId}`, { body: { destination: { bank: { accountName: 'John Doe', accountNumber: '0123456789', bankCode: '058' } } } });
    expect(done.body).toEqual(expected);
    const [waiting] = await events('quote.awaiting_payment');
    expect(waiting.data).toMatchObject({ amount: 56825.396825, receive_amount: second.allocatedAmount, total_amount: 56825.896825 });
  });

  it('shows EXPIRED once the ttl ran out, and CANCELLED after a cancellation', async () => {
    const [a] = (await t.call('POST', QUOTES, { body: body() })).body;
    const [b] = (await t.call('POST', QUOTES, { body: body({ sourceCurrency: 'USDC', destinationCurrency: 'GHS', amount: 10 }) })).body;
    expect(b).toMatchObject({ destinationNetwork: 'BANK', totalAmount: 10.5, metadata: { cryptoPayIn: { token: 'USDC', expectedAmount: 10.5 } } });
    await t.call('POST', `${SIM}/${b.quoteId}/cancel`);
    await advance(t, 300);
    expect((await t.call('GET', `${PAYMENTS}/${a.quoteId}`)).body).toMatchObject({ status: 'EXPIRED', metadata: { cryptoPayIn: { status: 'EXPIRED' } } });
    expect((await t.call('GET', `${PAYMENTS}/${b.quoteId}`)).body).toMatchObject({ status: 'CANCELLED', metadata: { cryptoPayIn: { status: 'CANCELLED' } } });
  });

  it('is 404 for an unknown id and for a quote not completed yet, saying how to get one', async () => {
    expect((await t.call('GET', `${PAYMENTS}/3b241101-e2bb-4255-8caf-4136c566a962`)).status).toBe(404);
    const q = await express();
    const res = await t.call('GET', `${PAYMENTS}/${q.quoteId}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toContain(`PUT /api/v1/quotes/complete/${q.quoteId}`);
    await t.call('PUT', `${COMPLETE}/${q.quoteId}`, { body: { destination: { blockChain: { address: ADDRESS } } } });
    expect((await t.call('GET', `${PAYMENTS}/${q.quoteId}`)).body).toMatchObject({ quoteId: q.quoteId, status: 'PENDING' });
    const bad = await t.call('POST', QUOTES, { body: body({ amount: 0 }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('amount');
  });
});

it('keeps each key\'s quotes to itself', async () => {
  const q = await express();
  const [p] = (await t.call('POST', QUOTES, { body: body() })).body;
  for (const path of [`${QUOTE}/${q.quoteId}/complete`, `${PAYMENTS}/${p.quoteId}`, `${QUOTE}/${p.quoteId}/complete`]) {
    const res = await t.call('GET', path, { key: KEY_B });
    expect(res.status, path).toBe(404);
  }
  expect((await t.call('POST', EXPRESS, { body: body(), key: KEY_B })).body[0].metadata.cryptoPayIn.derivationIndex).toBe(0);
  expect(await events('quote', KEY_B)).toHaveLength(1);
});
