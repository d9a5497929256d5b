import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY, KEY_B, LIVE_KEY, type TestApp } from '../../support/app.js';
import { ADDRESS, COMPLETE, INTENT, QUOTE, SIM_QUOTES as SIM } from '../../support/quotes.js';

const BANK = { accountName: 'John Doe', accountNumber: '0123456789', bankCode: '058' };
const NGN_USDT_BASE = '7e4ffa35-4c02-497f-b525-28a216edd814';
const NGN_USDT_ETHEREUM = '73bd4452-6eb7-47ed-95cb-f457564a0687';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

async function create(over: Record<string, unknown> = {}, o: { key?: string; headers?: Record<string, string> } = {}) {
  const body = { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source', ...over };
  const res = await t.call('POST', INTENT, { body, ...o });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const toChain = { destination: { blockChain: { address: ADDRESS } } };
const toBank = { destination: { bank: BANK } };
const complete = (id: string, body: unknown = toChain, key = KEY) => t.call('PUT', `${COMPLETE}/${id}`, { body, key });
const status = async (id: string, key = KEY) => (await t.call('GET', `${QUOTE}/${id}`, { key })).body.status;
const events = async (type: string, key = KEY) => (await t.call('GET', `/_sandbox/events?type=${type}`, { key })).body.data;

describe('PUT /api/v1/quotes/complete/{id}', () => {
  it('returns the payment-specific quote for a token destination and moves the quote to awaiting_payment', async () => {
    const q = await create({ rate: 1590 });
    await advance(t, 20);
    const res = await complete(q.quoteId);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['HyperRailReference', 'amount', 'createdAt', 'destinationCurrency', 'destinationNetwork', 'expiresAt', 'fees', 'merchantId', 'metadata', 'providerBalanceId', 'providerId', 'quoteId', 'rate', 'receiveAmount', 'sourceCurrency', 'status', 'totalAmount'],
    );
    expect(res.body).toMatchObject({
      quoteId: q.quoteId,
      merchantId: q.clientId,
      sourceCurrency: 'NGN',
      destinationCurrency: 'USDT',
      destinationNetwork: 'BASE',
      rate: 1580.5,
      providerId: 'f8f63772-ad42-4ba2-af0c-eedd3109c814',
      providerBalanceId: 'ebc3bf5b-3134-476d-a5eb-ef1cf63489cd',
      amount: 50000,
      receiveAmount: 31.635558,
      totalAmount: 50000.5,
      expiresAt: '2026-01-15T09:05:00.000Z',
      createdAt: '2026-01-15T09:00:20.000Z',
      status: 'PENDING',
      fees: [{ name: 'Processing Fee', amount: 0.5, feeType: 'FLAT' }],
    });
    expect(res.body.HyperRailReference).toMatch(/^HR-REF-\d{6}$/);
    expect(res.body.metadata.bankPayIn).toEqual(q.metadata.bankPayIn);
    const { status: _s, ...crypto } = q.metadata.cryptoPayIn;
    expect(res.body.metadata.cryptoPayIn).toEqual({ ...crypto, addressType: 'EVM', status: 'AWAITING_PAYMENT' });
    const after = (await t.call('GET', `${QUOTE}/${q.quoteId}`)).body;
    expect(after.status).toBe('awaiting_payment');
    expect(after.chatMetadata.acceptedAt).toBe('2026-01-15T09:00:20.000Z');
    expect((await events('quote')).map((e: { event: string }) => e.event)).toEqual(['quote.pending', 'quote.awaiting_payment']);
  });

  it('marks the deposit address as awaiting payment when the source is a token, expecting the amount with its fee', async () => {
    const q = await create({ sourceCurrency: 'USDC', destinationCurrency: 'NGN', amount: 250.5 });
    expect(q.metadata.cryptoPayIn).toMatchObject({ expectedAmount: 250.5, status: 'active' });
    const res = await complete(q.quoteId, toBank);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ destinationNetwork: 'BANK', amount: 250.5, totalAmount: 251, receiveAmount: 394337.1, rate: 1574.2 });
    expect(res.body.fees).toEqual([{ name: 'Processing Fee', amount: 0.5, feeType: 'FLAT' }]);
    // The payer sends totalAmount: the amount and the Processing Fee, both in the source token.
    expect(res.body.metadata.cryptoPayIn).toMatchObject({ status: 'AWAITING_PAYMENT', token: 'USDC', expectedAmount: 251, chain: 'BASE' });
    expect(res.body.metadata.cryptoPayIn.warningMessage).toBe(`Send exactly 251 USDC on BASE to this address before ${res.body.expiresAt}; any other token, chain or amount is not credited.`);
    // The marketplace quote's pay-in instructions say the same from then on.
    const read = (await t.call('GET', `${QUOTE}/${q.quoteId}`)).body;
    expect(read.metadata.cryptoPayIn).toMatchObject({ expectedAmount: 251, status: 'active', warningMessage: res.body.metadata.cryptoPayIn.warningMessage });
    expect(read.totalSourceAmount).toBe(250.5);
  });

  it('takes both destination forms and uses the one that fits', async () => {
    const both = { destination: { bank: BANK, blockChain: { address: ADDRESS } } };
    const token = await create();
    expect((await complete(token.quoteId, both)).body.destinationNetwork).toBe('BASE');
    const fiat = await create({ sourceCurrency: 'USDT', destinationCurrency: 'GHS', amount: 20 });
    expect((await complete(fiat.quoteId, both)).body.destinationNetwork).toBe('BANK');
  });

  it.each([
    ['a bank for a token destination', {}, toBank, 'destination.blockChain.address'],
    ['a blockchain address for a fiat destination', { sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 10 }, toChain, 'destination.bank'],
    ['no destination', {}, {}, 'destination'],
    ['an empty destination', {}, { destination: {} }, 'destination.blockChain.address'],
    ['an address that is not EVM', {}, { destination: { blockChain: { address: '0x1234' } } }, 'destination.blockChain.address'],
    ['a bank without bankCode', { sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 10 }, { destination: { bank: { accountName: 'A', accountNumber: '1' } } }, 'destination.bank.bankCode'],
  ])('refuses %s with 400 naming the field, leaving the quote pending', async (_n, over, body, field) => {
    const q = await create(over);
    const res = await complete(q.quoteId, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await status(q.quoteId)).toBe('pending');
  });

  it('checks the bank code against the bank list for a live key', async () => {
    const q = await create({ sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 10 }, { key: LIVE_KEY });
    const bad = await complete(q.quoteId, { destination: { bank: { ...BANK, bankCode: '999' } } }, LIVE_KEY);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_BANK_CODE', details: [{ field: 'destination.bank.bankCode' }] });
    expect((await complete(q.quoteId, { destination: { bank: { ...BANK, accountName: 'Adaeze Okonkwo' } } }, LIVE_KEY)).status).toBe(200);
  });

  it('answers a retry with the same body with the same payment-specific quote, marked replayed', async () => {
    const q = await create();
    const first = await complete(q.quoteId);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    await advance(t, 5);
    const again = await complete(q.quoteId);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    // After the pay-in the replay shows the quote as it stands.
    await t.call('POST', `${SIM}/${q.quoteId}/pay-in`);
    const paid = await complete(q.quoteId);
    expect(paid.headers.get('idempotent-replayed')).toBe('true');
    expect(paid.body).toMatchObject({ HyperRailReference: first.body.HyperRailReference, status: 'COMPLETED', metadata: { cryptoPayIn: { status: 'COMPLETED' } } });
    expect((await events('quote')).map((e: { event: string }) => e.event)).toEqual(['quote.pending', 'quote.awaiting_payment', 'quote.completed']);
  });

  it('replays a retry naming the same destination: the ignored form added, or the address in other letter case', async () => {
    const token = await create();
    const first = await complete(token.quoteId);
    for (const body of [{ destination: { bank: BANK, blockChain: { address: ADDRESS } } }, { destination: { blockChain: { address: ADDRESS.toLowerCase() } } }]) {
      const again = await complete(token.quoteId, body);
      expect(again.status, again.text).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
    }
    const fiat = await create({ sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 20 });
    const paid = await complete(fiat.quoteId, { destination: { bank: BANK, blockChain: { address: ADDRESS } } });
    const retry = await complete(fiat.quoteId, toBank);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body).toEqual(paid.body);
    const elsewhere = await complete(fiat.quoteId, { destination: { bank: { ...BANK, accountNumber: '0123456780' } } });
    expect(elsewhere.status).toBe(409);
    expect((await events('quote')).map((e: { event: string }) => e.event)).toEqual(['quote.pending', 'quote.awaiting_payment', 'quote.pending', 'quote.awaiting_payment']);
  });

  it('answers 404 for an unknown quote and 409 for a quote that is not pending', async () => {
    expect((await complete('3b241101-e2bb-4255-8caf-4136c566a962')).status).toBe(404);
    const q = await create();
    expect((await complete(q.quoteId)).status).toBe(200);
    const other = await complete(q.quoteId, { destination: { blockChain: { address: '0x' + '1'.repeat(40) } } });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('INVALID_STATE_TRANSITION');
    expect(other.body.message).toBe(
      `The marketplace quote '${q.quoteId}' was completed already, with another destination, and is awaiting_payment. ` +
        `Send the first completion body again to read its payment-specific quote (or GET /api/v1/quotes/payments/${q.quoteId}); ` +
        'to pay out to another destination, create a new quote.',
    );
    expect(other.body.error.details).toEqual([{ field: 'destination', issue: 'differs from the destination the quote was completed with' }]);
    const cancelled = await create();
    await t.call('POST', `${SIM}/${cancelled.quoteId}/cancel`);
    expect((await complete(cancelled.quoteId)).status).toBe(409);
  });
});

describe('expiry', () => {
  it('expires a pending quote when its ttl runs out and sends quote.expired with the live payload', async () => {
    const q = await create();
    await advance(t, 299);
    expect(await status(q.quoteId)).toBe('pending');
    await advance(t, 1);
    expect(await status(q.quoteId)).toBe('expired');
    const [expired] = await events('quote.expired');
    expect(expired.createdAt).toBe('2026-01-15T09:05:00.000Z');
    expect(expired.data).toEqual({
      quote_id: q.quoteId,
      merchant_id: q.clientId,
      source_currency: 'NGN',
      destination_currency: 'USDT',
      chain: 'BASE',
      reference: q.metadata.bankPayIn.reference,
      status: 'expired',
      mode: 'test',
      amount: 50000,
      receive_amount: 31.635558,
      total_amount: 50000,
      created_at: '2026-01-15T09:00:00.000Z',
      expires_at: '2026-01-15T09:05:00.000Z',
      completed_at: null,
      rate: 1580.5,
      quote_type: 'quote',
    });
    const late = await complete(q.quoteId);
    expect(late.status).toBe(409);
    expect(late.body.message).toContain('expired');
    expect((await t.call('POST', `${SIM}/${q.quoteId}/pay-in`)).status).toBe(409);
  });

  it('expires a quote awaiting a pay-in that never arrives (failures scenario), with mode live for a live key', async () => {
    const q = await create({}, { key: LIVE_KEY, headers: { 'x-sandbox-scenario': 'failures' } });
    await complete(q.quoteId, toChain, LIVE_KEY);
    await advance(t, 299, LIVE_KEY);
    expect(await status(q.quoteId, LIVE_KEY)).toBe('awaiting_payment');
    await advance(t, 1, LIVE_KEY);
    expect(await status(q.quoteId, LIVE_KEY)).toBe('expired');
    const [expired] = await events('quote.expired', LIVE_KEY);
    expect(expired.data).toMatchObject({ mode: 'live', status: 'expired', total_amount: 50000.5 });
    expect(await events('order', LIVE_KEY)).toEqual([]);
  });

  it('follows the scenario ttl (short-ttl: 5 seconds), even while awaiting payment', async () => {
    const q = await create({}, { headers: { 'x-sandbox-scenario': 'short-ttl' } });
    expect(q.ttl).toBe(5);
    expect(q.metadata.cryptoPayIn.expiresAt).toBe('2026-01-15T09:00:05.000Z');
    await complete(q.quoteId);
    await advance(t, 5);
    expect(await status(q.quoteId)).toBe('expired');
  });
});

describe('pay-in and cancellation', () => {
  it('completes on a simulated pay-in, sends order.successful and draws the pools down for the next quote', async () => {
    const q = await create({ amount: 40000, amountDirection: 'destination' });
    await complete(q.quoteId);
    await advance(t, 10);
    const res = await t.call('POST', `${SIM}/${q.quoteId}/pay-in`);
    expect(res.status).toBe(200);
    expect(res.body.state).toMatchObject({ quoteId: q.quoteId, status: 'completed', metadata: { cryptoPayIn: { status: 'completed' } } });
    expect(await status(q.quoteId)).toBe('completed');
    const [order] = await events('order.successful');
    // The order's status as the live service names it; quote.completed carries the quote's.
    expect((await events('quote.completed'))[0].data.status).toBe('completed');
    expect(order.data).toMatchObject({
      quote_id: q.quoteId,
      status: 'successful',
      amount: 63220000,
      receive_amount: 40000,
      total_amount: 63220000.5,
      completed_at: '2026-01-15T09:00:10.000Z',
      mode: 'test',
      quote_type: 'quote',
    });
    expect((await events('quote')).map((e: { event: string }) => e.event)).toEqual(['quote.pending', 'quote.awaiting_payment', 'quote.completed']);

    const next = await create({ amount: 5000, amountDirection: 'destination' });
    expect(next.allocationResult.allocations.map((a: any) => [a.poolId, a.allocatedAmount])).toEqual([
      [NGN_USDT_BASE, 2500],
      [NGN_USDT_ETHEREUM, 2500],
    ]);
    // Another key's pools are untouched.
    const other = await create({ amount: 5000, amountDirection: 'destination' }, { key: KEY_B });
    expect(other.allocationResult.allocations.map((a: any) => a.allocatedAmount)).toEqual([5000]);
  });

  it('waits for a simulated pay-in under the default scenario, and expires an awaiting quote at the end of its ttl', async () => {
    const q = await create();
    await complete(q.quoteId);
    await advance(t, 299);
    expect(await status(q.quoteId)).toBe('awaiting_payment');
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}`)).body.metadata.cryptoPayIn.status).toBe('active');
    await advance(t, 1);
    expect(await status(q.quoteId)).toBe('expired');
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}`)).body.metadata.cryptoPayIn.status).toBe('expired');
    expect((await events('quote.expired')).length).toBe(1);
    expect((await t.call('POST', `${SIM}/${q.quoteId}/pay-in`)).status).toBe(409);
  });

  it('receives the pay-in by itself after the awaiting_payment time when a scenario gives one', async () => {
    await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { quote: { timing: { awaiting_payment: 60 } } } } });
    const q = await create();
    await complete(q.quoteId);
    await advance(t, 59);
    expect(await status(q.quoteId)).toBe('awaiting_payment');
    await advance(t, 1);
    expect(await status(q.quoteId)).toBe('completed');
    await advance(t, 600);
    expect(await status(q.quoteId)).toBe('completed');
    expect((await events('quote.expired')).length).toBe(0);
  });

  it('receives the pay-in at the after of its outcome rule, counted from creation, as the other resources end', async () => {
    const scenario = { quote: { outcomes: [{ when: { amount: { max: 50000 } }, status: 'completed', after: 120 }, { status: 'completed' }] } };
    expect((await t.call('PUT', '/_sandbox/scenario', { body: { scenario } })).status).toBe(200);
    const q = await create();
    const late = await create({ amount: 60000 });
    await advance(t, 30);
    await complete(q.quoteId);
    await complete(late.quoteId);
    await advance(t, 60);
    // The rule's quote waits for its 120 s; the other takes the default 60 s after completion.
    expect([await status(q.quoteId), await status(late.quoteId)]).toEqual(['awaiting_payment', 'completed']);
    await advance(t, 29);
    expect(await status(q.quoteId)).toBe('awaiting_payment');
    await advance(t, 1);
    expect(await status(q.quoteId)).toBe('completed');
    const done = (await events('quote.completed')).find((e: { data: { quote_id: string } }) => e.data.quote_id === q.quoteId);
    expect([done.createdAt, done.data.completed_at]).toEqual(['2026-01-15T09:02:00.000Z', '2026-01-15T09:02:00.000Z']);
    // Completed after its time, the quote is paid in at once.
    const slow = await create();
    await advance(t, 150);
    await complete(slow.quoteId);
    expect(await status(slow.quoteId)).toBe('completed');
  });

  it('receives it by the next request under the instant scenario', async () => {
    const q = await create({}, { headers: { 'x-sandbox-scenario': 'instant' } });
    await complete(q.quoteId);
    expect(await status(q.quoteId)).toBe('completed');
  });

  it('cancels through simulate, and refuses the moves the machine forbids with 409', async () => {
    const q = await create();
    expect((await t.call('POST', `${SIM}/${q.quoteId}/pay-in`)).status).toBe(409);
    const res = await t.call('POST', `${SIM}/${q.quoteId}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.state.status).toBe('cancelled');
    expect((await events('quote.cancelled')).map((e: { data: { quote_id: string } }) => e.data.quote_id)).toEqual([q.quoteId]);
    expect((await t.call('POST', `${SIM}/${q.quoteId}/cancel`)).status).toBe(409);
    await advance(t, 400);
    expect(await status(q.quoteId)).toBe('cancelled');
    expect(await events('quote.expired')).toEqual([]);
    const unknown = await t.call('POST', `${SIM}/3b241101-e2bb-4255-8caf-4136c566a962/cancel`);
    expect(unknown.status).toBe(404);
    const partnerMove = await t.call('POST', `${SIM}/${q.quoteId}/complete`);
    expect(partnerMove.status).toBe(400);
    expect(partnerMove.body.error.details).toEqual([{ field: 'event', issue: 'must be one of: pay-in, cancel, expire' }]);
  });

  it('cancels a quote awaiting payment, so its pay-in no longer arrives', async () => {
    const q = await create();
    await complete(q.quoteId);
    expect((await t.call('POST', `${SIM}/${q.quoteId}/cancel`)).status).toBe(200);
    await advance(t, 120);
    expect(await status(q.quoteId)).toBe('cancelled');
    expect(await events('order')).toEqual([]);
  });
});

describe('published description', () => {
  it('lists every quote route in /openapi.json', async () => {
    const doc = (await t.call('GET', '/openapi.json', { unchecked: true })).body;
    expect(Object.keys(doc.paths['/api/v1/partners/marketplace/intent'])).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/partners/marketplace/quote/{id}'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/v1/partners/marketplace/quote/{id}/remove/{itemId}'])).toEqual(['put']);
    expect(Object.keys(doc.paths['/api/v1/quotes/complete/{id}'])).toEqual(['put']);
    for (const name of ['CreateIntentRequest', 'MarketplaceQuote', 'CompleteQuoteRequest', 'PaymentQuote']) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
  });
});
