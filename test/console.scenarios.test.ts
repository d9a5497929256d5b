// Every guided flow of the console, run by the console's own script (happy-dom over the real app),
// under every bundled scenario chosen for the key: each runs to its end state (a payout under
// `failures` ends FAILED, as that scenario means), retrying calls the scenario answers 503 or 429.
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { flowCatalog } from '../src/console/script.js';
import { createTestApp, KEY, LIVE_KEY } from './support/app.js';
import { openConsole } from './console.support.js';

const SCENARIOS = readdirSync(new URL('../scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -'.yaml'.length));
const FLOWS = flowCatalog().map((f) => f.id);

const HEADLINES: Record<string, RegExp> = {
  'fiat-payout': /^Payout console-payout-\S+ is (PENDING|PROCESSING|SUCCESSFUL|FAILED)/,
  'failing-payout': /^Payout \S+ is FAILED/,
  'marketplace-quote': /^Quote [0-9a-f-]{36} is completed$/,
  'express-quote': /^Express quote [0-9a-f-]{36} at [0-9.]+ NGN per USDT is completed$/,
  'payment-quote': /^Payment quote [0-9a-f-]{36} is \w+$/,
  'fx-trade': /^Trade [0-9a-f-]{36} is COMP$/,
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('every guided flow under a live key', () => {
  for (const flow of FLOWS) {
    it(`${flow} with sk_live_, under the mode banner`, { timeout: 30_000 }, async () => {
      const t = await createTestApp();
      const c = await openConsole(t);
      close = c.close;
      await c.signIn(LIVE_KEY);
      expect(c.text('[data-field="mode"]')).toMatch(/^Live simulation/);
      await c.click(`[data-flow="${flow}"]`);
      expect(c.text('[data-field="flow-outcome"]')).toMatch(HEADLINES[flow]);
      expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-outcome')).toBe('ok');
    });
  }
});

describe('every guided flow under every bundled scenario', () => {
  it('knows the bundled scenarios and flows', () => {
    expect(SCENARIOS).toEqual(['default', 'failures', 'flaky-network', 'instant', 'rate-limited', 'short-ttl', 'slow-settlement', 'two-factor']);
    expect(FLOWS).toEqual(Object.keys(HEADLINES));
  });

  for (const scenario of SCENARIOS) {
    for (const flow of FLOWS) {
      it(`${flow} under ${scenario}`, { timeout: 30_000 }, async () => {
        const t = await createTestApp();
        expect((await t.call('PUT', '/_sandbox/scenario', { body: { name: scenario } })).status).toBe(200);
        const c = await openConsole(t);
        close = c.close;
        await c.signIn(KEY);
        await c.click(`[data-flow="${flow}"]`);
        const outcome = c.text('[data-field="flow-outcome"]');
        expect(outcome).toMatch(HEADLINES[flow]);
        expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-outcome')).toBe('ok');
      });

      it(`${flow} under ${scenario}, one step at a time`, { timeout: 30_000 }, async () => {
        const t = await createTestApp();
        expect((await t.call('PUT', '/_sandbox/scenario', { body: { name: scenario } })).status).toBe(200);
        const c = await openConsole(t);
        close = c.close;
        await c.signIn(KEY);
        const announced = await c.runStepwise(flow);
        expect(c.text('[data-field="flow-outcome"]')).toMatch(HEADLINES[flow]);
        // Each call was announced before it was made, with its method and path; retries follow unannounced.
        const made = [...c.doc.querySelectorAll('[data-view="flow-log"] .exchange h3')].map((h) => h.textContent!.replace(/^\d+\. /, ''));
        expect(announced.length).toBeGreaterThan(0);
        expect(announced.every((a) => /^Next: (GET|POST|PUT|DELETE) \/\S+ \(.+\)$/.test(a))).toBe(true);
        expect(made.filter((m) => !/\(try \d\)$/.test(m))).toEqual(announced.map((a) => /\((.+)\)$/.exec(a)![1]));
      });
    }
  }
});
