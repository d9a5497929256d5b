// The console's guided marketplace quote and XML FX trade, in happy-dom over the real app: each
// runs the real routes to its final state and draws that state's history on the resource timeline.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, KEY, type TestApp } from '../support/app.js';
import { openConsole } from './support.js';

let open: Awaited<ReturnType<typeof openConsole>>[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

async function consoleFor(t: TestApp) {
  const c = await openConsole(t);
  open.push(c);
  return c;
}

describe('guided quote and FX flows', () => {
  it('runs the guided marketplace quote to completed, with the order on the quote timeline', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    await c.click('[data-flow="marketplace-quote"]');
    expect([...c.doc.querySelectorAll('[data-view="flow-log"] .exchange h3')].map((h) => h.textContent)).toEqual([
      '1. Create an intent: 50,000 NGN to USDT',
      '2. Complete the quote with a blockchain destination',
      '3. Read the quote: is it waiting for its pay-in?',
      '4. Simulate the pay-in',
      '5. Read the quote back',
    ]);
    expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-outcome')).toBe('ok');
    const outcome = c.text('[data-field="flow-outcome"]');
    expect(outcome).toMatch(/^Quote [0-9a-f-]{36} is completed$/);
    const quoteId = outcome.split(' ')[1];
    const log = [...c.doc.querySelectorAll('[data-view="flow-log"] .exchange .call')].map((p) => p.textContent!.replace(/\s+\d+ ms$/, ''));
    expect(log).toEqual([
      'POST /api/v1/partners/marketplace/intent → 201',
      `PUT /api/v1/quotes/complete/${quoteId} → 200`,
      `GET /api/v1/partners/marketplace/quote/${quoteId} → 200`,
      `POST /_sandbox/simulate/quotes/${quoteId}/pay-in → 200`,
      `GET /api/v1/partners/marketplace/quote/${quoteId} → 200`,
    ]);
    const card = c.doc.querySelector(`.resource[data-kind="quotes"][data-id="${quoteId}"]`)!;
    expect(card.querySelector('header .status')!.textContent).toBe('completed');
    expect([...card.querySelectorAll('.timeline .status')].map((s) => s.textContent)).toEqual(['pending', 'awaiting_payment', 'completed', 'order.successful']);
    expect(c.doc.querySelectorAll('.resource').length).toBe(1);
    expect((await t.call('GET', `/api/v1/partners/marketplace/quote/${quoteId}`)).body.status).toBe('completed');
  });

  it('runs the guided FX trade in XML to COMP and draws it as new → settling → completed, the codes kept in data-state', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    await c.click('[data-flow="fx-trade"]');
    expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-outcome')).toBe('ok');
    const outcome = c.text('[data-field="flow-outcome"]');
    expect(outcome).toMatch(/^Trade [0-9a-f-]{36} is completed \(COMP\)$/);
    expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-tone')).toBe('success');
    const txId = outcome.split(' ')[1];
    const log = c.text('[data-view="flow-log"]');
    expect(log).toContain('content-type: application/xml');
    expect(log).toContain(`<TxId>${txId}</TxId>`);
    expect(log).toContain('<Sts>SETT</Sts>');
    expect(log).toContain('<CntrValCcyAmt>158050</CntrValCcyAmt>');
    const card = c.doc.querySelector(`.resource[data-kind="fx-trades"][data-id="${txId}"]`)!;
    expect(card.querySelector('header .status')!.textContent).toBe('completed');
    expect([...card.querySelectorAll('.timeline .status')].map((s) => s.textContent)).toEqual(['new', 'settling', 'completed']);
    expect([...card.querySelectorAll('.timeline .status')].map((s) => [s.getAttribute('data-state'), s.getAttribute('title'), s.className])).toEqual([
      ['NEWT', 'NEWT', 'status tone-neutral'],
      ['SETT', 'SETT', 'status tone-neutral'],
      ['COMP', 'COMP', 'status tone-success'],
    ]);
    // The journal shows the XML bodies pretty-printed.
    expect(c.text('[data-view="journal"]')).toContain('<FXTradConfStsAdvc>\n  <TxId>');
  });
});
