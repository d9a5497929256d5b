import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, KEY, KEY_B, LIVE_KEY, type TestApp } from '../../support/app.js';
import { INTENT, QUOTE } from '../../support/quotes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EVM = /^0x[0-9a-f]{40}$/;
const ORDER_REF = /^HPR-[0-9a-f]{32}$/;

// Fixture pools NGN→USDT, best first: BASE 1580.5 (42500 USDT), ETHEREUM 1582.25 (185000), POLYGON 1586, ARBITRUM 1591.8.
const NGN_USDT_BASE = '7e4ffa35-4c02-497f-b525-28a216edd814';
const NGN_USDT_ETHEREUM = '73bd4452-6eb7-47ed-95cb-f457564a0687';

const intent = (over: Record<string, unknown> = {}) => ({
  sourceCurrency: 'NGN',
  destinationCurrency: 'USDT',
  amount: 50000,
  amountDirection: 'source',
  ...over,
});

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const create = async (over: Record<string, unknown> = {}, key = KEY) => {
  const res = await t.call('POST', INTENT, { body: intent(over), key });
  expect(res.status, res.text).toBe(201);
  return res.body;
};

describe('POST /api/v1/partners/marketplace/intent', () => {
  it('fills 50000 NGN from the best NGN→USDT pool and returns the documented quote', async () => {
    const res = await t.call('POST', INTENT, { body: intent() });
    expect(res.status).toBe(201);
    const q = res.body;
    expect(Object.keys(q).sort()).toEqual(
      ['allocationResult', 'amount', 'chain', 'chatMetadata', 'clientId', 'destination', 'metadata', 'mode', 'quoteId', 'source', 'status', 'totalDestinationAmount', 'totalSourceAmount', 'ttl'],
    );
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
    });
    expect(q.quoteId).toMatch(UUID);
    expect(q.clientId).toMatch(UUID);
    expect(q.allocationResult).toMatchObject({ totalSourceAmount: 50000, totalDestinationAmount: 31.635558, weightedAverageRate: 1580.5 });
    expect(q.allocationResult.allocations).toEqual([
      {
        id: expect.stringMatching(UUID),
        clientId: 'f8f63772-ad42-4ba2-af0c-eedd3109c814',
        poolId: NGN_USDT_BASE,
        poolAccountId: 'ebc3bf5b-3134-476d-a5eb-ef1cf63489cd',
        allocatedAmount: 31.635558,
        sourceAmount: 50000,
        rate: 1580.5,
        reference: `${q.metadata.bankPayIn.reference}-1`,
        metadata: { poolName: 'Lagos Liquidity Partners', chain: 'BASE' },
      },
    ]);
    expect(q.metadata.bankPayIn).toEqual({
      accountName: 'Payments Sandbox Ltd',
      accountNumber: expect.stringMatching(/^\d{10}$/),
      bankName: 'Access Bank',
      reference: expect.stringMatching(ORDER_REF),
    });
    expect(q.metadata.cryptoPayIn).toMatchObject({
      address: expect.stringMatching(EVM),
      chain: 'BASE',
      token: 'USDT',
      addressType: 'deposit',
      expectedAmount: 0,
      externalReference: q.quoteId,
      status: 'active',
      createdAt: '2026-01-15T09:00:00.000Z',
      expiresAt: '2026-01-15T09:05:00.000Z',
      derivationIndex: 0,
    });
    expect(q.metadata.cryptoPayIn.warningMessage).toContain('bank transfer');
    // No negotiation: the object is there, with no field (never null).
    expect(q.chatMetadata).toEqual({});
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}`)).body).toEqual(q);
  });

  it('fixes the destination amount and spills into the next pool when the best one runs dry', async () => {
    const q = await create({ amount: 50000, amountDirection: 'destination' });
    expect(q.allocationResult.allocations.map((a: any) => [a.poolId, a.rate, a.allocatedAmount, a.sourceAmount])).toEqual([
      [NGN_USDT_BASE, 1580.5, 42500, 67171250],
      [NGN_USDT_ETHEREUM, 1582.25, 7500, 11866875],
    ]);
    expect(q).toMatchObject({ amount: 50000, totalSourceAmount: 79038125, totalDestinationAmount: 50000, chain: 'BASE' });
    expect(q.allocationResult.weightedAverageRate).toBe(1580.7625);
  });

  it('quotes a token source with a live deposit address, counting the derivation index up per key', async () => {
    const first = await create({ sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 100 });
    expect(first).toMatchObject({ source: 'USDT', destination: 'NGN', chain: 'BASE', totalSourceAmount: 100, totalDestinationAmount: 157500 });
    expect(first.metadata.cryptoPayIn).toMatchObject({ token: 'USDT', chain: 'BASE', expectedAmount: 100, status: 'active', derivationIndex: 0 });
    expect(first.metadata.cryptoPayIn.warningMessage).toContain('Send exactly 100 USDT on BASE');
    const second = await create({ sourceCurrency: 'USDC', destinationCurrency: 'GHS', amount: 10.5 });
    expect(second).toMatchObject({ chain: 'BASE', totalDestinationAmount: 161.59 });
    expect(second.metadata.cryptoPayIn).toMatchObject({ token: 'USDC', expectedAmount: 10.5, derivationIndex: 1 });
    expect(second.metadata.cryptoPayIn.address).not.toBe(first.metadata.cryptoPayIn.address);
    expect(second.metadata.bankPayIn.reference).not.toBe(first.metadata.bankPayIn.reference);
    expect(second.metadata.bankPayIn.accountNumber).toBe(first.metadata.bankPayIn.accountNumber);
    expect(second.clientId).toBe(first.clientId);
    const other = await create({}, KEY_B);
    expect(other.metadata.cryptoPayIn.derivationIndex).toBe(0);
    expect(other.clientId).not.toBe(first.clientId);
  });

  it('gives the same addresses and references again under the same seed', async () => {
    const a = await create();
    t = await createTestApp();
    const b = await create();
    expect(b.quoteId).toBe(a.quoteId);
    expect(b.metadata).toEqual(a.metadata);
  });

  it('leaves out pools worse than a proposed rate and fills chatMetadata', async () => {
    const q = await create({ amount: 50000, amountDirection: 'destination', rate: 1582.25 });
    expect(q.allocationResult.allocations.map((a: any) => a.poolId)).toEqual([NGN_USDT_BASE, NGN_USDT_ETHEREUM]);
    expect(q.chatMetadata).toEqual({
      conversationId: expect.stringMatching(UUID),
      chatQuoteId: expect.stringMatching(UUID),
      listingId: NGN_USDT_BASE,
      initialListingRate: '1580.5',
      negotiationStartedAt: '2026-01-15T09:00:00.000Z',
      quoteSentAt: '2026-01-15T09:00:00.000Z',
    });
    const strict = await t.call('POST', INTENT, { body: intent({ amount: 50000, amountDirection: 'destination', rate: 1580.5 }) });
    expect(strict.status).toBe(400);
    expect(strict.body.error.code).toBe('INSUFFICIENT_LIQUIDITY');
    expect(strict.body.message).toContain('at most 42500.000000 USDT');
    expect(strict.body.error.details).toEqual([
      { field: 'amount', issue: 'exceeds the available liquidity of 42500.000000 USDT' },
      { field: 'rate', issue: 'leaves out every pool with a worse rate' },
    ]);
    const none = await t.call('POST', INTENT, { body: intent({ amount: 100, rate: 1000 }) });
    expect(none.status).toBe(400);
    expect(none.body.error.details.map((d: { field: string }) => d.field)).toEqual(['amount', 'rate']);
  });

  it('answers live mode to a live key', async () => {
    const q = await create({}, LIVE_KEY);
    expect(q.mode).toBe('live');
  });

  it('refuses more than the pools hold with INSUFFICIENT_LIQUIDITY', async () => {
    const res = await t.call('POST', INTENT, { body: intent({ sourceCurrency: 'USD', destinationCurrency: 'USDC', amount: 400000, amountDirection: 'destination' }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'INSUFFICIENT_LIQUIDITY', details: [{ field: 'amount' }] });
  });

  it('says how to write an amount with more decimals than its currency takes', async () => {
    const ngn = await t.call('POST', INTENT, { body: intent({ amount: 100.005 }) });
    expect(ngn.status).toBe(400);
    expect(ngn.body.message).toBe('The amount is in NGN, which takes at most 2 decimal places; got 100.005. Send it with at most 2 decimal places, e.g. 100.01.');
    const usdt = await t.call('POST', INTENT, { body: intent({ amount: 0.0000001, amountDirection: 'destination' }) });
    expect(usdt.body.message).toBe('The amount is in USDT, which takes at most 6 decimal places; got 0.0000001. Send it with at most 6 decimal places, e.g. 0.000001.');
    expect(usdt.body.error.details).toEqual([{ field: 'amount', issue: 'must have at most 6 decimal places for USDT' }]);
  });

  it.each([
    ['sourceCurrency missing', { sourceCurrency: undefined }, 'VALIDATION_ERROR', 'sourceCurrency'],
    ['an unknown destination', { destinationCurrency: 'EUR' }, 'VALIDATION_ERROR', 'destinationCurrency'],
    ['amount missing', { amount: undefined }, 'VALIDATION_ERROR', 'amount'],
    ['amount as text', { amount: '500' }, 'VALIDATION_ERROR', 'amount'],
    ['a zero amount', { amount: 0 }, 'VALIDATION_ERROR', 'amount'],
    ['three decimals of NGN', { amount: 100.005 }, 'VALIDATION_ERROR', 'amount'],
    ['seven decimals of USDT', { amount: 1.0000001, amountDirection: 'destination' }, 'VALIDATION_ERROR', 'amount'],
    ['amountDirection missing', { amountDirection: undefined }, 'VALIDATION_ERROR', 'amountDirection'],
    ['amountDirection both', { amountDirection: 'both' }, 'VALIDATION_ERROR', 'amountDirection'],
    ['a negative rate', { rate: -1 }, 'VALIDATION_ERROR', 'rate'],
    ['one fiat on both sides', { destinationCurrency: 'NGN' }, 'VALIDATION_ERROR', 'destinationCurrency'],
    ['token to token', { sourceCurrency: 'USDC' }, 'UNSUPPORTED_CURRENCY', 'destinationCurrency'],
  ])('refuses %s with 400 naming the field', async (_n, over, code, field) => {
    const res = await t.call('POST', INTENT, { body: intent(over) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });
});

describe('PUT /api/v1/partners/marketplace/quote/{id}/remove/{itemId}', () => {
  const twoPools = () => create({ amount: 50000, amountDirection: 'destination' });

  it('drops the allocation and recomputes the totals without re-allocating the freed amount', async () => {
    const q = await twoPools();
    const [, second] = q.allocationResult.allocations;
    const res = await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/${second.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ quoteId: q.quoteId, status: 'pending', amount: 50000, totalSourceAmount: 67171250, totalDestinationAmount: 42500, chain: 'BASE' });
    expect(res.body.allocationResult).toEqual({
      totalSourceAmount: 67171250,
      totalDestinationAmount: 42500,
      weightedAverageRate: 1580.5,
      allocations: [q.allocationResult.allocations[0]],
    });
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}`)).body).toEqual(res.body);
  });

  it('takes the chain of the best allocation left, and moves the deposit amount on a token source', async () => {
    const big = await create({ sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 100000000, amountDirection: 'destination' });
    const [first, second] = big.allocationResult.allocations;
    expect([big.chain, first.metadata.chain, second.metadata.chain]).toEqual(['BASE', 'BASE', 'ETHEREUM']);
    const res = await t.call('PUT', `${QUOTE}/${big.quoteId}/remove/${first.id}`);
    expect(res.body.chain).toBe('ETHEREUM');
    expect(res.body.totalSourceAmount).toBe(second.sourceAmount);
    expect(res.body.metadata.cryptoPayIn).toMatchObject({ chain: 'ETHEREUM', expectedAmount: second.sourceAmount, status: 'active' });
    expect(res.body.metadata.cryptoPayIn.warningMessage).toContain(`Send exactly ${second.sourceAmount} USDT on ETHEREUM`);
  });

  it('answers 404 for an unknown quote or item and 409 for the last allocation', async () => {
    const q = await twoPools();
    const [first, second] = q.allocationResult.allocations;
    const unknownQuote = await t.call('PUT', `${QUOTE}/3b241101-e2bb-4255-8caf-4136c566a962/remove/${first.id}`);
    expect(unknownQuote.status).toBe(404);
    expect(unknownQuote.body.error.code).toBe('RESOURCE_NOT_FOUND');
    const unknownItem = await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/9c5b94b1-35ad-49bb-b118-8e8fc24abf80`);
    expect(unknownItem.status).toBe(404);
    expect(unknownItem.body.error.details).toEqual([{ field: 'itemId', issue: 'is not an allocation of this quote' }]);
    // An item id that is no UUID at all is malformed, as other malformed ids are.
    const malformed = await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/item-1`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details).toEqual([{ field: 'itemId', issue: 'must be a UUID (8-4-4-4-12 hexadecimal digits), e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' }]);
    expect((await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/${second.id}`)).status).toBe(200);
    const last = await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/${first.id}`);
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('answers a retried removal with the quote as it stands, marked replayed, in any state', async () => {
    const q = await twoPools();
    const [first, second] = q.allocationResult.allocations;
    const removed = await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/${second.id}`);
    expect(removed.headers.get('idempotent-replayed')).toBeNull();
    const again = await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/${second.id.toUpperCase()}`);
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(removed.body);
    expect(again.body.allocationResult.allocations).toEqual([first]);
    await t.call('PUT', `/api/v1/quotes/complete/${q.quoteId}`, { body: { destination: { blockChain: { address: `0x${'b'.repeat(40)}` } } } });
    const late = await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/${second.id}`);
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ status: 'awaiting_payment', totalSourceAmount: 67171250, totalDestinationAmount: 42500 });
    // An allocation never removed is still refused on a quote that is no longer pending.
    expect((await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/${first.id}`)).status).toBe(409);
  });

  it('removes from the one quote when its id is sent in upper case, as every later read sees', async () => {
    const q = await twoPools();
    const [first, second] = q.allocationResult.allocations;
    const res = await t.call('PUT', `${QUOTE}/${q.quoteId.toUpperCase()}/remove/${second.id.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.allocationResult.allocations).toEqual([first]);
    for (const id of [q.quoteId, q.quoteId.toUpperCase()]) {
      expect((await t.call('GET', `${QUOTE}/${id}`)).body).toEqual(res.body);
    }
    const done = await t.call('PUT', `/api/v1/quotes/complete/${q.quoteId}`, { body: { destination: { blockChain: { address: `0x${'b'.repeat(40)}` } } } });
    expect(done.body).toMatchObject({ amount: 67171250, receiveAmount: 42500 });
    const read = await t.call('GET', `/api/v1/quotes/payments/${q.quoteId.toUpperCase()}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(done.body);
  });

  it('answers 400 naming id for a quote id that is no UUID, on every route that takes one', async () => {
    const q = await twoPools();
    const item = q.allocationResult.allocations[1].id;
    const calls: [string, string, unknown?][] = [
      ['PUT', `${QUOTE}/quote-1/remove/${item}`],
      ['GET', `${QUOTE}/quote-1`],
      ['GET', `${QUOTE}/quote-1/complete`],
      ['PUT', '/api/v1/quotes/complete/quote-1', { destination: { blockChain: { address: `0x${'b'.repeat(40)}` } } }],
      ['GET', '/api/v1/quotes/payments/quote-1'],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'id', issue: 'must be a UUID (8-4-4-4-12 hexadecimal digits), e.g. 3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' }],
      });
    }
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}`)).body.allocationResult.allocations).toHaveLength(2);
  });

  it('answers 409 once the quote is no longer pending', async () => {
    const waiting = await twoPools();
    await t.call('PUT', `/api/v1/quotes/complete/${waiting.quoteId}`, { body: { destination: { blockChain: { address: `0x${'b'.repeat(40)}` } } } });
    const late = await t.call('PUT', `${QUOTE}/${waiting.quoteId}/remove/${waiting.allocationResult.allocations[1].id}`);
    expect(late.status).toBe(409);
    expect(late.body.message).toContain('awaiting_payment');
    const q = await twoPools();
    await t.call('POST', `/_sandbox/simulate/quotes/${q.quoteId}/cancel`);
    const res = await t.call('PUT', `${QUOTE}/${q.quoteId}/remove/${q.allocationResult.allocations[1].id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('cancelled');
  });
});

describe('tenant isolation', () => {
  it('hides one key\'s quotes from another on every route', async () => {
    const q = await create({ amount: 50000, amountDirection: 'destination' });
    const item = q.allocationResult.allocations[1].id;
    const calls: [string, string, unknown?][] = [
      ['GET', `${QUOTE}/${q.quoteId}`],
      ['PUT', `${QUOTE}/${q.quoteId}/remove/${item}`],
      ['PUT', `/api/v1/quotes/complete/${q.quoteId}`, { destination: { blockChain: { address: `0x${'a'.repeat(40)}` } } }],
      ['POST', `/_sandbox/simulate/quotes/${q.quoteId}/cancel`],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.call(method, path, { key: KEY_B, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}`)).body).toEqual(q);
    expect((await t.call('GET', '/_sandbox/events?type=quote', { key: KEY_B })).body.data).toEqual([]);
  });
});
