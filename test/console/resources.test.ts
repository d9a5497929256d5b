// GET /_sandbox/resources, which the console's resource list is drawn from, and the console's
// rendering of bodies (XML pretty-printed) and of histories whose kind the list does not know yet.
import { describe, expect, it } from 'vitest';
import { makeViews } from '../../src/console/client/views.js';
import { advance, createTestApp, KEY_B } from '../support/app.js';
import { newTrade } from '../support/fx.js';

const payout = (reference: string) => ({
  reference,
  amount: 1000,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});

describe('GET /_sandbox/resources', () => {
  it("lists every kind of the caller's resources, newest first, with counts", async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('first') });
    await advance(t, 10);
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('second') });
    await t.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body: payout('other-tenant') });
    const res = await t.call('GET', '/_sandbox/resources');
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({ payouts: 2, 'wallet-payouts': 0, withdrawals: 0, transfers: 0, 'bulk-disbursements': 0, quotes: 0, 'fx-trades': 0 });
    expect(res.body.data.map((r: any) => [r.kind, r.id, r.status, r.eventPrefix])).toEqual([
      ['payouts', 'second', 'PENDING', 'payout'],
      ['payouts', 'first', 'PENDING', 'payout'],
    ]);
    expect(res.body.data[0].resource).not.toHaveProperty('outcome');
    expect(res.body.data[0].resource.transactionReference).toMatch(/^HPR-TRSF-/);
  });

  it('filters by kind, bounds each kind, and shows a bulk file with its transfers by state', async () => {
    const t = await createTestApp();
    await t.call('POST', '/_sandbox/bulk-disbursements/demo');
    const bulk = await t.call('GET', '/_sandbox/resources?kind=bulk-disbursements');
    expect(bulk.body.counts).toEqual({ 'bulk-disbursements': 1 });
    expect(bulk.body.data[0].id).toBe('bulk_demo_salaries');
    expect(bulk.body.data[0].status).toBeNull();
    const statuses = bulk.body.data[0].resource.statuses;
    expect(Object.keys(statuses).sort()).toEqual(['FAILED', 'SUCCESSFUL']);
    const some = await t.call('GET', '/_sandbox/resources?kind=transfers&limit=3');
    expect(some.body.data).toHaveLength(3);
    expect(some.body.counts.transfers).toBe(statuses.FAILED + statuses.SUCCESSFUL);
    expect((await t.call('GET', '/_sandbox/resources?limit=0')).status).toBe(400);
    expect((await t.call('GET', '/_sandbox/resources', { key: null })).status).toBe(401);
  });
});

describe('GET /_sandbox/resources, newest first', () => {
  it('keeps the newest `limit` in the order of a full sort: instant, then the greater id', async () => {
    const t = await createTestApp();
    const refs = ['m-2', 'a-9', 'z-1', 'b_3', 'B-4', 'c-10', 'c-9', 'q-1', 'x-0', 'k-5', 'k-50', 'e-7'];
    for (const [i, ref] of refs.entries()) {
      // Three at each instant.
      if (i > 0 && i % 3 === 0) await advance(t, 7);
      expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout(ref) })).status).toBe(201);
    }
    const all = (await t.call('GET', '/_sandbox/resources?kind=payouts&limit=1000')).body.data.map((r: any) => [r.createdAt, r.id]);
    const sorted = [...all].sort((a, b) => (a[0] === b[0] ? b[1].localeCompare(a[1]) : b[0].localeCompare(a[0])));
    expect(all).toEqual(sorted);
    expect(all.map((r: string[]) => r[1])).toEqual(['k-50', 'k-5', 'e-7', 'x-0', 'q-1', 'c-9', 'c-10', 'B-4', 'b_3', 'z-1', 'm-2', 'a-9']);
    for (const limit of [1, 2, 4, 5, 11]) {
      const some = (await t.call('GET', `/_sandbox/resources?kind=payouts&limit=${limit}`)).body.data.map((r: any) => [r.createdAt, r.id]);
      expect(some).toEqual(all.slice(0, limit));
    }
  });
});

describe('GET /_sandbox/resources?id=', () => {
  it("finds one resource by its id however old, only the caller's, in any kind or the one named", async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('oldest') });
    await advance(t, 10);
    for (let i = 0; i < 3; i++) await t.call('POST', '/api/v1/partners/payouts', { body: payout(`newer-${i}`) });
    await t.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body: payout('theirs') });
    const newest = await t.call('GET', '/_sandbox/resources?limit=2');
    expect(newest.body.data.map((r: any) => r.id)).toEqual(['newer-2', 'newer-1']);
    const one = await t.call('GET', '/_sandbox/resources?id=oldest');
    expect(one.status).toBe(200);
    expect(one.body.data.map((r: any) => [r.kind, r.id, r.status, r.eventPrefix])).toEqual([['payouts', 'oldest', 'PENDING', 'payout']]);
    expect(one.body.data[0].resource.reference).toBe('oldest');
    expect(one.body.counts.payouts).toBe(4);
    expect((await t.call('GET', '/_sandbox/resources?kind=payouts&id=oldest')).body.data).toHaveLength(1);
    expect((await t.call('GET', '/_sandbox/resources?kind=transfers&id=oldest')).body.data).toEqual([]);
    expect((await t.call('GET', '/_sandbox/resources?id=theirs')).body.data).toEqual([]);
    expect((await t.call('GET', `/_sandbox/resources?id=${'x'.repeat(257)}`)).status).toBe(400);
  });
});

describe('GET /_sandbox/resources for quotes and FX trades', () => {
  const intent = { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' };

  it('lists a quote as the quote route shows it, in its current state', async () => {
    const t = await createTestApp();
    const q = (await t.call('POST', '/api/v1/partners/marketplace/intent', { body: intent })).body;
    await t.call('POST', '/api/v1/partners/marketplace/intent', { key: KEY_B, body: intent });
    await t.call('PUT', `/api/v1/quotes/complete/${q.quoteId}`, { body: { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } } });
    const res = await t.call('GET', '/_sandbox/resources?kind=quotes');
    expect(res.body.counts).toEqual({ quotes: 1 });
    expect(res.body.data.map((r: any) => [r.kind, r.id, r.status, r.eventPrefix, r.createdAt])).toEqual([['quotes', q.quoteId, 'awaiting_payment', 'quote', '2026-01-15T09:00:00.000Z']]);
    expect(res.body.data[0].resource).toEqual((await t.call('GET', `/api/v1/partners/marketplace/quote/${q.quoteId}`)).body);
    expect(res.body.data[0].resource).not.toHaveProperty('outcome');
  });

  it('lists FX trades newest first as JSON with the TTL left, and follows them to COMP', async () => {
    const t = await createTestApp();
    const txFirst = await newTrade(t, { amount: '10' });
    await advance(t, 60);
    const txSecond = await newTrade(t, { amount: '20' });
    await t.call('POST', `/_sandbox/simulate/fx-trades/${txFirst}/accept`);
    await t.call('POST', `/_sandbox/simulate/fx-trades/${txFirst}/confirm`);
    const res = await t.call('GET', '/_sandbox/resources?kind=fx-trades');
    expect(res.body.counts).toEqual({ 'fx-trades': 2 });
    expect(res.body.data.map((r: any) => [r.id, r.status, r.eventPrefix])).toEqual([
      [txSecond, 'NEWT', 'fx_trade'],
      [txFirst, 'COMP', 'fx_trade'],
    ]);
    const [newt, comp] = res.body.data.map((r: any) => r.resource);
    expect(newt).toMatchObject({ txId: txSecond, status: 'NEWT', baseCcy: 'NGN', quotedCcy: 'USDT', direction: 'BUY', tradingAmount: '20', ttlSeconds: 300 });
    expect(comp).toMatchObject({ txId: txFirst, status: 'COMP', tradingAmount: '10', ttlSeconds: 0 });
    expect(comp.payIn.reference).toMatch(/^FX-[0-9A-F]{16}$/);
    expect((await t.call('GET', '/_sandbox/resources?kind=fx-trades', { key: KEY_B })).body).toEqual({ data: [], counts: { 'fx-trades': 0 } });
  });
});

describe('console views', () => {
  const views = makeViews();

  it('pretty-prints XML bodies and indents JSON ones', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?><FXTradInstrRspn><UnqTxIdr><TxId>abc</TxId></UnqTxIdr><TTL>300</TTL><Empty/></FXTradInstrRspn>';
    expect(views.pretty(xml)).toBe(
      ['<?xml version="1.0" encoding="UTF-8"?>', '<FXTradInstrRspn>', '  <UnqTxIdr>', '    <TxId>abc</TxId>', '  </UnqTxIdr>', '  <TTL>300</TTL>', '  <Empty/>', '</FXTradInstrRspn>'].join('\n'),
    );
    expect(views.pretty({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(views.esc('<b>"x"</b>')).toBe('&lt;b&gt;&quot;x&quot;&lt;/b&gt;');
  });

  it('writes every rate one way, one unit of the dearer currency in the other, with separators', () => {
    expect(views.rate('NGN', 'usdt', 0.0006308601)).toBe('1 USDT = 1,585.14 NGN');
    expect(views.rate('usdt', 'NGN', 1569.3625)).toBe('1 USDT = 1,569.36 NGN');
    expect(views.rate('USDT', 'NGN', 1580.5)).toBe('1 USDT = 1,580.50 NGN');
    expect(views.rate('GHS', 'usdc', 0.063371356)).toBe('1 USDC = 15.78 GHS');
    expect(views.rate('usdc', 'GHS', 15.26)).toBe('1 USDC = 15.26 GHS');
    expect(views.rate('NGN', 'USDT', 0)).toBe('');
    expect(views.amount('1530250.5', 'usdt')).toBe('1,530,250.5 USDT');
  });

  it('names the FX codes and colours every state by meaning: green only for a final success', () => {
    const tones = (states: string[]) => Object.fromEntries(states.map((s) => [s, views.tone(s)]));
    expect(tones(['SUCCESSFUL', 'COMPLETED', 'COMP', 'completed', 'succeeded', 'order.successful', '201'])).toEqual({
      SUCCESSFUL: 'success', COMPLETED: 'success', COMP: 'success', completed: 'success', succeeded: 'success', 'order.successful': 'success', 201: 'success',
    });
    expect(tones(['FAILED', 'failed', 'CANC', 'cancelled', 'expired', 'dropped', '404', '503'])).toEqual({
      FAILED: 'failure', failed: 'failure', CANC: 'failure', cancelled: 'failure', expired: 'failure', dropped: 'failure', 404: 'failure', 503: 'failure',
    });
    expect(tones(['PENDING', 'PROCESSING', 'NEWT', 'SETT', 'pending', 'awaiting_payment'])).toEqual({
      PENDING: 'neutral', PROCESSING: 'neutral', NEWT: 'neutral', SETT: 'neutral', pending: 'neutral', awaiting_payment: 'neutral',
    });
    expect(['NEWT', 'SETT', 'COMP', 'CANC', 'PENDING'].map(views.stateName)).toEqual(['new', 'settling', 'completed', 'cancelled', 'PENDING']);
  });

  it('keeps ids whole with their full value in a title, and lets a path break only after / ? or &', () => {
    const x = { label: 'Resolve', method: 'GET', path: '/api/v1/partners/banks/resolve?accountNumber=0123456789&bankCode=058', requestHeaders: {}, requestBody: undefined, status: 200, responseBody: '', ms: 3 };
    expect(views.exchange(x, 1)).toContain('<code class="path">/<wbr>api/<wbr>v1/<wbr>partners/<wbr>banks/<wbr>resolve?<wbr>accountNumber=0123456789&amp;<wbr>bankCode=058</code>');
    const html = views.events([{ id: 'evt_00000000000000000001', event: 'payout.pending', createdAt: '2026-01-15T09:00:00.000Z', data: { reference: 'a-very-long-reference-0123456789' } }]);
    expect(html).toContain('<code class="id" title="a-very-long-reference-0123456789">a-very-long-reference-0123456789</code>');
    expect(html).toContain('<table tabindex="0">');
  });

    it('draws a timeline from events alone for kinds the resource list does not know', () => {
    const html = views.timelines({
      resources: { data: [], counts: {} },
      events: [
        { id: 'evt_1', event: 'fx_trade.newt', createdAt: '2026-01-15T09:00:00.000Z', data: { tx_id: 'tx-1', status: 'NEWT' } },
        { id: 'evt_2', event: 'fx_trade.sett', createdAt: '2026-01-15T09:01:00.000Z', data: { tx_id: 'tx-1', status: 'SETT' } },
      ],
      journal: [],
      deliveries: null,
      clock: { now: '2026-01-15T09:01:00.000Z', offsetSeconds: 0, pendingJobs: 0, nextDueAt: null },
      scenario: { name: 'default', source: 'server' },
      scenarios: [],
      balances: [],
      magic: { honoured: true, data: [] },
    });
    expect(html).toContain('data-kind="fx_trade" data-id="tx-1"');
    expect(html.match(/class="status [\w-]+" data-state="\w+" title="\w+">(\w+)</g)).toEqual([
      'class="status tone-neutral" data-state="SETT" title="SETT">settling<',
      'class="status tone-neutral" data-state="NEWT" title="NEWT">new<',
      'class="status tone-neutral" data-state="SETT" title="SETT">settling<',
    ]);
  });
});
