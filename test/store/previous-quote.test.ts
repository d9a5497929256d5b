// A marketplace quote stored as the version before stored it (its whole view beside the lifecycle's
// fields, as --data files and database rows written by it hold it) is served as one stored in this
// version's compact form: reads, allocation removal, completion, pay-in, events and the resource list
// answer the same bytes.
import { describe, expect, it } from 'vitest';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
import { createTestApp, KEY, type TestApp } from '../support/app.js';

const INTENT = '/api/v1/partners/marketplace/intent';
const QUOTE = '/api/v1/partners/marketplace/quote';
const DESTINATION = { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } };

/** The fields the version before kept beside the view. */
const LIFECYCLE = ['amountDirection', 'createdAt', 'expiresAt', 'updatedAt', 'completedAt', 'orderReference', 'outcome', 'scenario', 'payment', 'payoutTo', 'completion', 'quoteType'];

/** Rewrite a stored quote in the previous version's form, as read back from JSON. */
async function asPrevious(t: TestApp, quoteId: string) {
  const quotes = (await t.store.tenant(tenantIdOf(KEY))).collection<Record<string, unknown>>('quotes');
  const record = quotes.get(quoteId)!;
  expect(record).not.toHaveProperty('view');
  const view = (await t.call('GET', `${QUOTE}/${quoteId}`)).body;
  const previous: Record<string, unknown> = { view };
  for (const f of LIFECYCLE) if (record[f] !== undefined) previous[f] = record[f];
  quotes.put(quoteId, JSON.parse(JSON.stringify(previous)));
}

async function script(previous: boolean): Promise<string[]> {
  const t = await createTestApp();
  const texts: string[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await t.call(method, path, { body });
    texts.push(`${method} ${path} ${res.status} ${res.text}`);
    return res.body;
  };
  const chat = await call('POST', INTENT, { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'destination', rate: 1582.25 });
  const two = await call('POST', INTENT, { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'destination' });
  const token = await call('POST', INTENT, { sourceCurrency: 'USDT', destinationCurrency: 'NGN', amount: 100, amountDirection: 'source' });
  expect(two.allocationResult.allocations.length).toBeGreaterThan(1);
  if (previous) for (const q of [chat, two, token]) await asPrevious(t, q.quoteId);
  for (const q of [chat, two, token]) await call('GET', `${QUOTE}/${q.quoteId}`);
  await call('PUT', `${QUOTE}/${two.quoteId}/remove/${two.allocationResult.allocations[0].id}`);
  await call('GET', `${QUOTE}/${two.quoteId}`);
  t.clock.advance(5);
  await call('PUT', `/api/v1/quotes/complete/${chat.quoteId}`, DESTINATION);
  await call('PUT', `/api/v1/quotes/complete/${chat.quoteId}`, DESTINATION);
  await call('GET', `/api/v1/quotes/payments/${chat.quoteId}`);
  await call('POST', `/_sandbox/simulate/quotes/${chat.quoteId}/pay-in`);
  await call('POST', `/_sandbox/simulate/quotes/${token.quoteId}/cancel`);
  for (const q of [chat, two, token]) await call('GET', `${QUOTE}/${q.quoteId}`);
  await call('POST', '/_sandbox/clock/advance', { seconds: 600 });
  await call('GET', `${QUOTE}/${two.quoteId}`);
  await call('GET', '/_sandbox/events?limit=100');
  await call('GET', '/_sandbox/resources');
  return texts;
}

describe('a quote stored by the previous version', () => {
  it('is read, moved and listed with the same bytes as one stored in this form', async () => {
    const now = await script(false);
    const before = await script(true);
    // Every step answered as it should: 201 for the intents, 200 for the rest.
    expect(now.map((l) => l.split(' ')[2])).toEqual(['201', '201', '201', ...Array(17).fill('200')]);
    expect(before).toEqual(now);
    // The completed quote's pay-in moved it to completed in both.
    expect(now.some((l) => l.includes('"status":"completed"'))).toBe(true);
  });
});
