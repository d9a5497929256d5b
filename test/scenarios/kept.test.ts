// A resource created under X-Sandbox-Scenario keeps that scenario for its whole lifecycle, whatever
// the key's scenario becomes: checked for every resource with a lifecycle, over HTTP.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp } from '../support/app.js';
import { acceptAccount, fx, instruction, newTrade, rejection } from '../support/fx.js';
import { COMPLETE, INTENT, intent, resources, toChain } from './resources.js';
import { useScenario } from './support.js';

const slow = { 'X-Sandbox-Scenario': 'slow-settlement' };

describe('a resource keeps the scenario of the request that created it', () => {
  it('payouts, wallet payouts, withdrawals, transfers and quotes keep slow-settlement after the key moves to instant', async () => {
    const t = await createTestApp();
    const r = resources(t);
    const { made } = await r.createAll('k', slow);
    // A second quote, created under the header but completed after the key's change.
    const late = (await t.call('POST', INTENT, { body: intent, headers: slow })).body;
    await useScenario(t, { name: 'instant' });
    expect((await t.call('PUT', `${COMPLETE}/${late.quoteId}`, { body: toChain })).status).toBe(200);
    const quote = async () => (await t.call('GET', `/api/v1/partners/marketplace/quote/${late.quoteId}`)).body.status;

    await advance(t, 1800);
    // Under instant, PROCESSING would last 0 s and these would be done by now.
    expect(await r.statuses(made)).toMatchObject({ payout: 'PROCESSING', transfer: 'PROCESSING', wallet_payout: 'PENDING', withdrawal: 'PROCESSING', quote: 'awaiting_payment' });
    expect(await quote()).toBe('awaiting_payment');
    await advance(t, 1800);
    expect(await r.statuses(made)).toMatchObject({ payout: 'PROCESSING', wallet_payout: 'PROCESSING', quote: 'completed' });
    expect(await quote()).toBe('completed');
    await advance(t, 3 * 3600 - 1);
    expect(await r.statuses(made)).toMatchObject({ payout: 'SUCCESSFUL', wallet_payout: 'COMPLETED', withdrawal: 'PROCESSING', transfer: 'PROCESSING' });
    await advance(t, 1);
    expect(await r.statuses(made)).toMatchObject({ withdrawal: 'SUCCESSFUL', transfer: 'SUCCESSFUL' });
  });

  it('a failures resource still fails and its quote gets no pay-in after the key moves to instant', async () => {
    const t = await createTestApp();
    const r = resources(t);
    const { made } = await r.createAll('kf', { 'X-Sandbox-Scenario': 'failures' });
    await useScenario(t, { name: 'instant' });
    await advance(t, 300);
    expect(await r.statuses(made)).toEqual({
      payout: 'FAILED',
      wallet_payout: 'FAILED',
      withdrawal: 'FAILED',
      transfer: 'FAILED',
      quote: 'expired',
      fx_trade: 'NEWT',
    });
  });

  it('an FX trade keeps the TTL of the scenario it was created under, both ways', async () => {
    const t = await createTestApp();
    const short = await newTrade(t);
    const shortByHeader = (await fx(t, 'POST', '/trades', { xml: instruction(), headers: { 'X-Sandbox-Scenario': 'short-ttl' } })).xml;
    const id = (shortByHeader.UnqTxIdr as { TxId: string }).TxId;
    expect(shortByHeader.TTL).toBe('5');
    await useScenario(t, { name: 'short-ttl' });
    const longByHeader = (await fx(t, 'POST', '/trades', { xml: instruction(), headers: { 'X-Sandbox-Scenario': 'default' } })).xml;
    expect(longByHeader.TTL).toBe('300');
    await advance(t, 6);
    expect(rejection(await fx(t, 'POST', `/trades/${id}/accept`, { xml: acceptAccount }))).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    // Created before the key chose short-ttl, and under default by header after it: both still open.
    expect((await fx(t, 'POST', `/trades/${short}/accept`, { xml: acceptAccount })).status).toBe(200);
    const longId = (longByHeader.UnqTxIdr as { TxId: string }).TxId;
    expect((await fx(t, 'POST', `/trades/${longId}/accept`, { xml: acceptAccount })).status).toBe(200);
  });
});
