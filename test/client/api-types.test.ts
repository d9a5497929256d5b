// payments-sandbox/api: the generated types are what openapi-typescript makes of the document the
// sandbox serves (regenerated and compared), the named aliases point at the document's schemas, and
// the event payload types say what the events carry.
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { apiTypes, GENERATED } from '../../scripts/api-types.mjs';
import { createApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { systemClock } from '../../src/kernel/clock.js';
import { MemoryStore } from '../../src/store/memory.store.js';
import type { EventData, EventType, Payout, QuoteOrder, WebhookPayloads, components, paths } from '../../src/client/partner-api.js';
import { advance, createTestApp, payoutRequest } from '../support/app.js';

describe('the partner API types', () => {
  it('are what openapi-typescript generates from the served document (node scripts/api-types.mjs rewrites them)', async () => {
    // As `payments-sandbox openapi` builds it.
    const { app } = createApp({ config: defaultConfig(), store: new MemoryStore(), clock: systemClock });
    const doc = await (await app.request('/openapi.json')).json();
    const fresh = await apiTypes(doc);
    expect(readFileSync(GENERATED, 'utf8') === fresh, 'src/client/partner-api.generated.ts is stale: run npm run build && node scripts/api-types.mjs').toBe(true);
  }, 60_000);

  it('name the common bodies and type the paths as openapi-fetch reads them', () => {
    expectTypeOf<Payout>().toEqualTypeOf<components['schemas']['Payout']>();
    type CreatePayout = paths['/api/v1/partners/payouts']['post'];
    expectTypeOf<CreatePayout['requestBody']>().toEqualTypeOf<{ content: { 'application/json': components['schemas']['CreatePayoutRequest'] } }>();
    expectTypeOf<EventType>().toExtend<string>();
    expectTypeOf<'payout.failed'>().toExtend<EventType>();
    expectTypeOf<'fx_trade.comp'>().toExtend<EventType>();
    expectTypeOf<WebhookPayloads['payout.failed']['data']['failure_reason']>().toEqualTypeOf<string | null>();
    expectTypeOf<EventData<'payout.failed'>['destination']['account_number']>().toEqualTypeOf<string>();
  });

  it('say what a payout’s events and a quote’s events carry', async () => {
    const t = await createTestApp();
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('types-1') })).status).toBe(201);
    await advance(t, 300);
    const intent = await t.call('POST', '/api/v1/partners/marketplace/intent', {
      body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' },
    });
    expect(intent.status, intent.text).toBeLessThan(300);
    const events: { event: string; data: Record<string, unknown> }[] = (await t.call('GET', '/_sandbox/events?limit=100')).body.data;

    const doc = await (await t.app.request('/openapi.json')).json();
    const snake = (k: string) => k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
    const payoutKeys = Object.keys(doc.components.schemas.Payout.properties).map(snake);
    const payoutRequired = (doc.components.schemas.Payout.required as string[]).map(snake);
    const payouts = events.filter((e) => e.event.startsWith('payout.'));
    expect(payouts.map((e) => e.event)).toEqual(['payout.pending', 'payout.processing', 'payout.successful']);
    for (const e of payouts) {
      expect(Object.keys(e.data).filter((k) => !payoutKeys.includes(k)), e.event).toEqual([]);
      expect(payoutRequired.filter((k) => !(k in e.data)), e.event).toEqual([]);
    }

    const QUOTE_ORDER = [
      'quoteId', 'merchantId', 'sourceCurrency', 'destinationCurrency', 'chain', 'reference', 'status', 'mode', 'amount',
      'receiveAmount', 'totalAmount', 'createdAt', 'expiresAt', 'completedAt', 'rate', 'quoteType',
    ] as const satisfies readonly (keyof QuoteOrder)[];
    expectTypeOf<(typeof QUOTE_ORDER)[number]>().toEqualTypeOf<keyof QuoteOrder>();
    const quote = events.find((e) => e.event === 'quote.pending');
    expect(quote, events.map((e) => e.event).join()).toBeDefined();
    const optional = ['completed_at'];
    expect(Object.keys(quote!.data).sort()).toEqual(QUOTE_ORDER.map(snake).filter((k) => k in quote!.data || !optional.includes(k)).sort());
  });
});
