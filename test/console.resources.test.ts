// GET /_sandbox/resources, which the console's resource list is drawn from, and the console's
// rendering of bodies (XML pretty-printed) and of histories whose kind the list does not know yet.
import { describe, expect, it } from 'vitest';
import { makeViews } from '../src/console/client/views.js';
import { advance, createTestApp, KEY_B } from './support/app.js';

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
    expect(res.body.counts).toEqual({ payouts: 2, 'wallet-payouts': 0, withdrawals: 0, transfers: 0, 'bulk-disbursements': 0 });
    expect(res.body.data.map((r: any) => [r.kind, r.id, r.status, r.eventPrefix])).toEqual([
      ['payouts', 'second', 'PENDING', 'payout'],
      ['payouts', 'first', 'PENDING', 'payout'],
    ]);
    expect(res.body.data[0].resource).not.toHaveProperty('outcome');
    expect(res.body.data[0].resource.transactionReference).toMatch(/^HPR-TRSF-/);
  });

  it('filters by kind, bounds each kind, and shows a bulk file with its transfers by state', async () => {
    const t = await createTestApp();
    await t.call('GET', '/api/v1/transfers/bulk/bulk_demo_salaries/transfers', { headers: { 'x-service-source': 'payroll' } });
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

  it('draws a timeline from events alone for kinds the resource list does not know', () => {
    const html = views.timelines({
      resources: { data: [], counts: {} },
      events: [
        { id: 'evt_1', event: 'fx_trade.newt', createdAt: '2026-01-15T09:00:00.000Z', data: { tx_id: 'tx-1', status: 'NEWT' } },
        { id: 'evt_2', event: 'fx_trade.sett', createdAt: '2026-01-15T09:01:00.000Z', data: { tx_id: 'tx-1', status: 'SETT' } },
      ],
      journal: [],
      deliveries: null,
      clock: {},
      scenario: {},
      scenarios: [],
      balances: [],
    });
    expect(html).toContain('data-kind="fx_trade" data-id="tx-1"');
    expect(html.match(/class="status status-\w+">(\w+)</g)).toEqual([
      'class="status status-SETT">SETT<',
      'class="status status-NEWT">NEWT<',
      'class="status status-SETT">SETT<',
    ]);
  });
});
