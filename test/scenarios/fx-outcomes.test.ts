// Outcome rules of FX trades: an accepted trade a rule picks ends by itself after some seconds in
// SETT (cancelled with a reason, or confirmed); any other trade waits for the partner.
import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, type TestApp } from '../support/app.js';
import { fx, newTrade } from '../support/fx.js';
import { useScenario } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  expect((await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } })).status).toBe(200);
});

const accept = async (id: string) => expect((await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/accept`, { body: {} })).status).toBe(200);
const statusOf = async (id: string) => (await fx(t, 'GET', `/trades/${id}`)).xml.Sts;

describe('FX trade outcome rules', () => {
  it('cancel an accepted trade 120 s into settlement with the rule\'s reason, in the status message and the events', async () => {
    await useScenario(t, { scenario: { fx_trade: { outcomes: [{ when: { currency: 'USDT' }, status: 'CANC', reason: 'The liquidity provider withdrew', after: 120 }] } } });
    const id = await newTrade(t);
    await advance(t, 30);
    await accept(id);
    await advance(t, 119);
    expect(await statusOf(id)).toBe('SETT');
    await advance(t, 1);
    expect(await statusOf(id)).toBe('CANC');
    const events = (await t.call('GET', '/_sandbox/events?type=fx_trade')).body.data as { event: string; data: Record<string, unknown> }[];
    expect(events.map((e) => e.event)).toEqual(['fx_trade.newt', 'fx_trade.sett', 'fx_trade.canc']);
    expect(events[2].data).toMatchObject({ status: 'CANC', cancellation_reason: 'The liquidity provider withdrew', updated_at: '2026-01-15T09:02:30.000Z' });
    expect(events[2].data).not.toHaveProperty('outcome');
  });

  it('confirm an accepted trade after 60 s when the rule says COMP without after; a trade no rule picks waits for the partner', async () => {
    await useScenario(t, { scenario: { fx_trade: { outcomes: [{ when: { fields: { direction: '^BUY$' } }, status: 'COMP' }] } } });
    const id = await newTrade(t);
    await accept(id);
    await advance(t, 60);
    expect(await statusOf(id)).toBe('COMP');
    await useScenario(t, { scenario: { fx_trade: { outcomes: [{ when: { currency: 'GHS' }, status: 'CANC' }] } } });
    const waiting = await newTrade(t);
    await accept(waiting);
    await advance(t, 86_400);
    expect(await statusOf(waiting)).toBe('SETT');
  });

  it('stop the timer when the partner confirms first', async () => {
    await useScenario(t, { scenario: { fx_trade: { outcomes: [{ status: 'CANC', after: 300 }] } } });
    const id = await newTrade(t);
    await accept(id);
    expect((await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/confirm`)).status).toBe(200);
    await advance(t, 600);
    expect(await statusOf(id)).toBe('COMP');
  });
});
