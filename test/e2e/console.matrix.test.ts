// The console in real headless Chromium: every guided flow once, under one bundled scenario bound
// to the key (the scenarios taken in turn), all at once or one step at a time by turns; every create
// form; and the webhook panel with a real receiver, from setting the URL to a delivery shown with its
// headers. The full flow x scenario x mode matrix runs in happy-dom over the same script
// (test/console/scenarios.test.ts), which keeps Chromium's share of the test time small.
// Needs Debian's chromium package (/usr/bin/chromium); CI installs it.
import { readdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowCatalog } from '../../src/console/script.js';
import { launchChromium, type Browser } from '../support/chromium.js';
import { startServer, type RunningServer } from '../support/server.js';
import { receiver } from '../support/webhooks.js';

const SCENARIOS = readdirSync(new URL('../../scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -'.yaml'.length));
const FLOWS = flowCatalog().map((f) => f.id);

let server: RunningServer;
let chromium: Browser;
let browser: BrowserContext;

beforeAll(async () => {
  server = await startServer(['--seed', '12']);
  chromium = await launchChromium();
  browser = chromium.context;
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop('SIGKILL');
});

let keys = 0;
async function signedIn(): Promise<{ page: Page; key: string; problems: string[] }> {
  const key = `sk_test_matrix${String(++keys).padStart(8, '0')}`;
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}/console`);
  await page.fill('#key', key);
  await page.click('[data-action="sign-in"]');
  await page.waitForSelector('body[data-state="ready"]');
  return { page, key, problems };
}

const outcome = '[data-field="flow-outcome"]';

async function runFlow(page: Page, flow: string, stepwise: boolean): Promise<string> {
  await page.setChecked('#step-mode', stepwise);
  await page.click(`[data-flow="${flow}"]`);
  for (const until = Date.now() + 40_000; Date.now() < until; ) {
    const state = await page.getAttribute(outcome, 'data-outcome');
    if (state && state !== 'running') break;
    if (stepwise && (await page.isVisible('[data-action="next-step"]'))) await page.click('[data-action="next-step"]');
    else await page.waitForTimeout(20);
  }
  expect(await page.getAttribute(outcome, 'data-outcome'), await page.textContent(outcome) ?? '').toBe('ok');
  return (await page.textContent(outcome)) ?? '';
}

/** Each flow once, with a scenario (taken in turn) and a mode (by turns). */
const PAIRS = FLOWS.map((flow, i) => ({ flow, scenario: SCENARIOS[i % SCENARIOS.length], stepwise: i % 2 === 1 }));

describe('the console in Chromium, each flow under a bundled scenario', () => {
  it('runs every flow, in both modes among them', () => {
    expect(new Set(PAIRS.map((p) => p.flow))).toEqual(new Set(FLOWS));
    expect(new Set(PAIRS.map((p) => p.stepwise))).toEqual(new Set([false, true]));
  });

  for (const { scenario, flow, stepwise: mode } of PAIRS) {
    it(`runs ${flow} ${mode ? 'one step at a time' : 'all at once'} under ${scenario}`, { timeout: 120_000 }, async () => {
      const { page, key, problems } = await signedIn();
      const bound = await fetch(`${server.url}/_sandbox/scenario`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: scenario }),
      });
      expect(bound.status).toBe(200);
      expect(await runFlow(page, flow, mode)).not.toBe('');
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});

describe('the console in Chromium: forms and webhooks', () => {
  it('creates each resource from its form', { timeout: 60_000 }, async () => {
    const { page, problems } = await signedIn();
    const paths: Record<string, string> = {
      payout: '/api/v1/partners/payouts',
      'wallet-payout': '/api/v1/partners/wallets/payouts',
      withdrawal: '/api/v1/partners/withdrawal',
      transfer: '/api/v1/transfers',
      intent: '/api/v1/partners/marketplace/intent',
      'fx-trade': '/api/v1/partners/fx/trades',
    };
    for (const [kind, path] of Object.entries(paths)) {
      await page.selectOption('#compose-kind', kind);
      await page.click('[data-action="compose-fill"]');
      await page.click('[data-action="compose-send"]');
      await expect.poll(() => page.textContent('[data-view="compose"]'), { timeout: 10_000 }).toContain(`POST ${path} → 201`);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('takes every action of the page: simulate moves, top-up, market, reset', { timeout: 60_000 }, async () => {
    const { page, key, problems } = await signedIn();
    const api = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await api('/api/v1/partners/payouts', { reference: 'matrix-1', amount: 100, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } })).status).toBe(201);
    await page.click('[data-nav="resources"]');
    const card = page.locator('[data-view="resources"] .resource[data-id="matrix-1"]');
    await expect.poll(() => card.locator('[data-action="simulate"]').allTextContents(), { timeout: 10_000 }).toEqual(['process']);
    await card.locator('[data-event="process"]').click();
    await expect.poll(() => card.locator('[data-action="simulate"]').allTextContents(), { timeout: 10_000 }).toEqual(['complete', 'fail']);
    await card.locator('[data-event="complete"]').click();
    await expect.poll(() => card.locator('header .status').textContent(), { timeout: 10_000 }).toBe('SUCCESSFUL');
    await page.click('[data-nav="settings"]');
    await page.click('[data-action="top-up"][data-key="usdt:base"]');
    await expect.poll(() => page.textContent('[data-field="action-result"]'), { timeout: 10_000 }).toBe('Top up usdt:base: done');
    await page.click('[data-nav="market"]');
    await page.click('[data-action="market"]');
    await expect.poll(() => page.locator('[data-field="pools"] tbody tr').count(), { timeout: 10_000 }).toBe(40);
    await page.click('[data-nav="settings"]');
    await page.click('[data-action="reset"]');
    await page.click('#reset-dialog [data-action="reset-confirm"]');
    await expect.poll(() => page.textContent('[data-view="resources"]'), { timeout: 10_000 }).toContain('No resources yet');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sets the webhook, shows a delivery with its headers and the receiver\'s answer, and sends a test event', { timeout: 60_000 }, async () => {
    const r = await receiver();
    const { page, problems } = await signedIn();
    await page.click('[data-nav="webhooks"]');
    await page.fill('#webhook-url', r.url);
    await page.click('[data-action="webhook-set"]');
    await expect.poll(() => page.textContent('[data-field="webhook-secret"]'), { timeout: 10_000 }).toMatch(/^whsec_/);
    await page.click('[data-action="webhook-test"]');
    await r.waitFor(1);
    await page.click('[data-nav="settings"]');
    await page.click('[data-action="advance"][data-seconds="60"]');
    await page.click('[data-nav="webhooks"]');
    // The receiver has it; the sender records the attempt just after, and the page shows it on its next poll.
    await expect.poll(() => page.textContent('[data-view="deliveries"]'), { timeout: 10_000 }).toContain('webhook.test succeeded');
    await page.click('[data-view="deliveries"] summary');
    expect(await page.textContent('[data-view="deliveries"]')).toContain(`webhook-id: ${r.got[0].headers['webhook-id']}`);
    expect(await page.textContent('[data-view="deliveries"]')).toContain('thanks');
    const secret = await page.textContent('[data-field="webhook-secret"]');
    await page.click('[data-action="redeliver"]');
    await r.waitFor(2);
    expect(r.got[1].headers['webhook-id']).toBe(r.got[0].headers['webhook-id']);
    await page.click('[data-action="webhook-rotate"]');
    await expect.poll(() => page.textContent('[data-field="webhook-secret"]'), { timeout: 10_000 }).not.toBe(secret);
    await page.click('[data-action="webhook-stop"]');
    await expect.poll(() => page.textContent('[data-field="action-result"]'), { timeout: 10_000 }).toBe('Stop webhooks: done');
    expect(problems).toEqual([]);
    await page.close();
  });
});
