// short-ttl: quotes and FX trades live 5 seconds.
import { describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY, KEY_B } from '../../support/app.js';
import { acceptAccount, fx, newTrade, rejection } from '../../support/fx.js';
import { COMPLETE, intent, QUOTE, toChain } from '../resources.js';
import { lifecycle } from '../../support/scenarios.js';

describe('scenario short-ttl', () => {
  it('gives quotes and FX trades a 5-second lifetime for the key that chose it', async () => {
    const t = await createTestApp();
    const put = await t.call('PUT', '/_sandbox/scenario', { body: { name: 'short-ttl' } });
    expect(put.body.document).toMatchObject({ quote: { ttl: 5 }, fx_trade: { ttl: 5 } });
    const mine = (await t.tenants.get(KEY, 'sandbox')).behaviour();
    const other = (await t.tenants.get(KEY_B, 'sandbox')).behaviour();
    expect([mine.ttl(lifecycle('quote')), mine.ttl(lifecycle('fx_trade'))]).toEqual([5, 5]);
    expect([other.ttl(lifecycle('quote')), other.ttl(lifecycle('fx_trade'))]).toEqual([300, 300]);
    expect(mine.duration(lifecycle('payout'), 'PENDING')).toBe(30);
  });

  it('expires a quote 5 seconds after creation; it can no longer be completed', async () => {
    const t = await createTestApp({ config: { scenario: 'short-ttl' } });
    const q = (await t.call('POST', '/api/v1/partners/marketplace/intent', { body: intent })).body;
    expect(q).toMatchObject({ status: 'pending', ttl: 5 });
    await advance(t, 4);
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}`)).body.status).toBe('pending');
    await advance(t, 1);
    expect((await t.call('GET', `${QUOTE}/${q.quoteId}`)).body.status).toBe('expired');
    const late = await t.call('PUT', `${COMPLETE}/${q.quoteId}`, { body: toChain });
    expect([late.status, late.body.error.code]).toEqual([409, 'INVALID_STATE_TRANSITION']);
  });

  it('lets an FX trade be accepted within 5 seconds and refuses it after, with a 409 XML reject', async () => {
    const t = await createTestApp({ config: { scenario: 'short-ttl' } });
    const early = await newTrade(t);
    const late = await newTrade(t);
    expect((await fx(t, 'GET', `/trades/${late}`)).xml.TTL).toBe('5');
    await advance(t, 4);
    expect((await fx(t, 'GET', `/trades/${late}`)).xml.TTL).toBe('1');
    const ok = await fx(t, 'POST', `/trades/${early}/accept`, { xml: acceptAccount });
    expect([ok.status, (ok.xml.TradSts as { Sts: string }).Sts]).toEqual([200, 'SETT']);
    await advance(t, 1);
    expect((await fx(t, 'GET', `/trades/${late}`)).xml).toMatchObject({ Sts: 'NEWT', TTL: '0' });
    const refused = rejection(await fx(t, 'POST', `/trades/${late}/accept`, { xml: acceptAccount }));
    expect(refused).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    expect(refused.text).toContain('expired at 2026-01-15T09:00:05.000Z (its TTL was 5 seconds)');
  });
});
