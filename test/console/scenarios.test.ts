// Every guided flow of the console, run by the console's own script (happy-dom over the real app),
// under every bundled scenario chosen for the key: each runs to its end state (a payout under
// `failures` ends FAILED, as that scenario means), retrying calls the scenario answers 503 or 429.
// Nothing waits: the scenario's latency goes to a recording sleep (AppDeps.sleep) and the page's retry
// timers run at once; the tests check the delays that were asked for instead.
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { flowCatalog } from '../../src/console/script.js';
import { createTestApp, KEY, LIVE_KEY } from '../support/app.js';
import { openConsole } from './support.js';

const SCENARIOS = readdirSync(new URL('../../scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -'.yaml'.length));
const FLOWS = flowCatalog().map((f) => f.id);

const HEADLINES: Record<string, RegExp> = {
  'fiat-payout': /^Payout console-payout-\S+ is (PENDING|PROCESSING|SUCCESSFUL|FAILED)/,
  'failing-payout': /^Payout \S+ is FAILED/,
  'marketplace-quote': /^Quote [0-9a-f-]{36} is completed$/,
  'express-quote': /^Express quote [0-9a-f-]{36} at 1 USDT = \d{1},\d{3}\.\d{2} NGN is completed$/,
  'payment-quote': /^Payment quote [0-9a-f-]{36} is \w+$/,
  'fx-trade': /^Trade [0-9a-f-]{36} is completed \(COMP\)$/,
};

/** A test app under that scenario whose fault delays are recorded instead of waited. */
async function scenarioApp(scenario: string) {
  const slept: number[] = [];
  const t = await createTestApp({ sleep: async (ms) => void slept.push(ms) });
  expect((await t.call('PUT', '/_sandbox/scenario', { body: { name: scenario } })).status).toBe(200);
  return { t, slept };
}

/** What the run would have waited: flaky-network's 200–800 ms before answering (no other bundled
 * scenario delays a request), and the console's 1, 2, 3 s before each retry it shows as "(try n)". */
function expectWaits(scenario: string, c: Awaited<ReturnType<typeof openConsole>>, slept: number[]) {
  if (scenario === 'flaky-network') {
    expect(slept.length).toBeGreaterThan(0);
    for (const ms of slept) expect(ms).toSatisfy((n: number) => n >= 200 && n <= 800);
  } else {
    expect(slept).toEqual([]);
  }
  const tries = [...c.doc.querySelectorAll('[data-view="flow-log"] .exchange h3')].flatMap((h) => {
    const m = /\(try (\d)\)$/.exec(h.textContent!);
    return m ? [1000 * (Number(m[1]) - 1)] : [];
  });
  expect(c.waited).toEqual(tries);
}

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
        const { t, slept } = await scenarioApp(scenario);
        const c = await openConsole(t, { instantTimers: true });
        close = c.close;
        await c.signIn(KEY);
        await c.click(`[data-flow="${flow}"]`);
        const outcome = c.text('[data-field="flow-outcome"]');
        expect(outcome).toMatch(HEADLINES[flow]);
        expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-outcome')).toBe('ok');
        expectWaits(scenario, c, slept);
      });

      it(`${flow} under ${scenario}, one step at a time`, { timeout: 30_000 }, async () => {
        const { t, slept } = await scenarioApp(scenario);
        const c = await openConsole(t, { instantTimers: true });
        close = c.close;
        await c.signIn(KEY);
        const announced = await c.runStepwise(flow);
        expect(c.text('[data-field="flow-outcome"]')).toMatch(HEADLINES[flow]);
        // Each call was announced before it was made, with its method and path; retries follow unannounced.
        const made = [...c.doc.querySelectorAll('[data-view="flow-log"] .exchange h3')].map((h) => h.textContent!.replace(/^\d+\. /, ''));
        expect(announced.length).toBeGreaterThan(0);
        expect(announced.every((a) => /^Next: (GET|POST|PUT|DELETE) \/\S+ \(.+\)$/.test(a))).toBe(true);
        expect(made.filter((m) => !/\(try \d\)$/.test(m))).toEqual(announced.map((a) => /\((.+)\)$/.exec(a)![1]));
        expectWaits(scenario, c, slept);
      });
    }
  }
});
