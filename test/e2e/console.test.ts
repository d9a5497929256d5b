// The console in real headless Chromium against a real sandbox process: enter a key, run the guided
// fiat payout, advance the clock, see SUCCESSFUL on the timeline, and keep a screenshot; then the
// quote and XML FX flows to their final states.
// Needs Debian's chromium package (/usr/bin/chromium); CI installs it.
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { launchChromium, type Browser } from '../support/chromium.js';
import { startServer, type RunningServer } from '../support/server.js';

const KEY = 'sk_test_c0501e00000000000000000000000001';

let server: RunningServer;
let chromium: Browser;
let browser: BrowserContext;
let dir: string;

beforeAll(async () => {
  server = await startServer(['--seed', '11']);
  chromium = await launchChromium();
  browser = chromium.context;
  dir = chromium.dir;
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop('SIGKILL');
});

/** axe-core's findings of any impact on the page as it stands (evaluated over the DevTools
 * protocol: the pages' CSP, script-src 'self', refuses a script tag). */
async function violations(page: import('playwright-core').Page): Promise<string[]> {
  await page.evaluate(await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
}

describe('the landing page in Chromium', () => {
  for (const width of [1440, 390]) {
    it(`says what this is and links onward at ${width} px, with no sideways scroll and no axe-core violation of any impact`, async () => {
      const page = await browser.newPage();
      const urls: string[] = [];
      page.on('request', (r) => urls.push(r.url()));
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/`);
      expect(await page.textContent('h1')).toBe('payments-sandbox');
      expect(await page.locator('ul.links a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['/console', '/docs', '/openapi.json', '/_sandbox/health']);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await violations(page)).toEqual([]);
      expect(urls.every((u) => u.startsWith(server.url))).toBe(true);
      await page.click('a[href="/console"]');
      await page.waitForSelector('#key');
      await page.close();
    });
  }
});

describe('the console in Chromium', () => {
  it('runs the guided fiat payout, advances the clock and shows SUCCESSFUL on the timeline', async () => {
    const page = await browser.newPage();
    const urls: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));

    await page.goto(`${server.url}/console`);
    await page.fill('#key', KEY);
    await page.click('[data-action="sign-in"]');
    await page.waitForSelector('body[data-state="ready"]');
    await page.waitForSelector('[data-view="balances"] table', { state: 'attached' });

    await page.click('[data-flow="fiat-payout"]');
    await page.waitForSelector('[data-field="flow-outcome"][data-outcome="ok"]', { timeout: 15_000 });
    expect(await page.textContent('[data-field="flow-outcome"]')).toMatch(/^Payout console-payout-\S+ is SUCCESSFUL$/);
    expect(await page.locator('[data-view="flow-log"] .exchange').count()).toBe(5);

    await page.click('[data-nav="settings"]');
    await page.click('[data-action="advance"][data-seconds="3600"]');
    const card = page.locator('[data-view="resources"] .resource[data-kind="payouts"]');
    await expect.poll(() => card.locator('.timeline .status').allTextContents(), { timeout: 10_000 }).toEqual(['PENDING', 'PROCESSING', 'SUCCESSFUL']);
    await expect.poll(() => page.textContent('[data-view="clock"]')).toMatch(/Ahead of real time\s*3[0-9]{3}(\.[0-9]+)? s/);
    await page.click('[data-nav="resources"]');
    await page.click('[data-view="journal"] summary:has-text("POST")');

    const shot = path.join(dir, 'console.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`console screenshot: ${shot}`);

    // The key lives in sessionStorage only, and in no URL, page text, journal or server output.
    expect(await page.evaluate(() => sessionStorage.getItem('payments-sandbox.console.key'))).toBe(KEY);
    expect(await page.evaluate(() => localStorage.length + document.cookie.length)).toBe(0);
    expect(await page.content()).not.toContain(KEY);
    expect(urls.length).toBeGreaterThan(10);
    for (const u of urls) expect(u).not.toContain('sk_');
    expect(urls.every((u) => u.startsWith(server.url))).toBe(true);
    const journal = await fetch(`${server.url}/_sandbox/requests?limit=1000`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await journal.text()).not.toContain(KEY);
    expect(server.output()).not.toContain(KEY);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('runs the guided marketplace quote to completed and the FX trade in XML to COMP', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/console`);
    // sessionStorage belongs to one tab: a new page asks for the key again.
    expect(await page.getAttribute('body', 'data-state')).toBe('locked');
    await page.fill('#key', KEY);
    await page.click('[data-action="sign-in"]');
    await page.waitForSelector('body[data-state="ready"]');
    const outcome = '[data-field="flow-outcome"]';
    await page.click('[data-flow="marketplace-quote"]');
    await page.waitForSelector(`${outcome}[data-outcome="ok"]`, { timeout: 15_000 });
    expect(await page.textContent(outcome)).toMatch(/^Quote [0-9a-f-]{36} is completed$/);
    await page.click('[data-flow="fx-trade"]');
    await expect.poll(() => page.textContent(outcome), { timeout: 15_000 }).toMatch(/^Trade [0-9a-f-]{36} is completed \(COMP\)$/);
    const fx = page.locator('[data-view="resources"] .resource[data-kind="fx-trades"]');
    await expect.poll(() => fx.locator('.timeline .status').allTextContents(), { timeout: 10_000 }).toEqual(['new', 'settling', 'completed']);

    // The same in steps, pausing on each call, then a trade made from the form in XML and moved with its buttons.
    await page.check('#step-mode');
    await page.click('[data-flow="payment-quote"]');
    for (let i = 0; i < 2; i++) {
      await page.waitForSelector('[data-action="next-step"]:not([hidden])');
      expect(await page.textContent('[data-field="next-step"]')).toMatch(/^Next: (POST|GET) \/api\/v1\/quotes/);
      await page.click('[data-action="next-step"]');
    }
    await expect.poll(() => page.textContent(outcome), { timeout: 15_000 }).toMatch(/^Payment quote [0-9a-f-]{36} is \w+$/);
    await page.selectOption('#compose-kind', 'fx-trade');
    await page.click('[data-action="compose-fill"]');
    await page.click('[data-action="compose-send"]');
    await expect.poll(() => page.textContent('[data-view="compose"]'), { timeout: 10_000 }).toContain('POST /api/v1/partners/fx/trades → 201');
    expect(await page.textContent('[data-view="compose"]')).toContain('<FXTradInstr>');
    await page.click('[data-nav="resources"]');
    const made = page.locator('[data-view="resources"] .resource[data-kind="fx-trades"]').first();
    await expect.poll(() => made.locator('[data-action="simulate"]').allTextContents(), { timeout: 10_000 }).toEqual(['accept', 'cancel']);
    await made.locator('[data-event="cancel"]').click();
    await expect.poll(() => made.locator('header .status').textContent(), { timeout: 10_000 }).toBe('cancelled');
    // Colour by meaning: a cancelled trade in the failure red, not the success green.
    const colours = await made.locator('header .status').evaluate((e) => getComputedStyle(e).color);
    expect(colours).toBe('rgb(154, 28, 18)');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('asks before a reset in an accessible dialog: focus on Cancel, Escape backs out, confirming clears the panels', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/console`);
    page.setDefaultTimeout(8_000);
    await page.fill('#key', 'sk_test_c0501e00000000000000000000000002');
    await page.click('[data-action="sign-in"]');
    await page.waitForSelector('[data-view="balances"] table', { state: 'attached' });
    await page.click('[data-nav="market"]');
    await page.click('[data-action="market"]');
    await page.waitForSelector('[data-field="pools"]');
    await page.click('[data-nav="settings"]');
    await page.click('[data-action="reset"]');
    await page.waitForSelector('#reset-dialog[open]');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('reset-cancel');
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#reset-dialog', { state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('reset');
    expect(await page.locator('[data-field="pools"]').count()).toBe(1);
    await page.click('[data-action="reset"]');
    await page.click('[data-action="reset-confirm"]');
    await expect.poll(() => page.textContent('[data-field="action-result"]'), { timeout: 10_000 }).toBe("Reset this key's data: done");
    expect(await page.textContent('[data-view="market"]')).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a 390 px screen in one column, moves focus to the console and passes axe-core with no violation of any impact', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/console`);
    // The key screen fits too (its field was 28rem wide: the page scrolled to 468 px).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.fill('#key', KEY);
    await page.press('#key', 'Enter');
    await page.waitForSelector('body[data-state="ready"]');
    await page.waitForSelector('#scenario-pick', { state: 'attached' });
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');

    await page.click('[data-flow="fiat-payout"]');
    // While a flow runs, no other flow can start.
    expect(await page.locator('[data-flow="fx-trade"]').isDisabled()).toBe(true);
    await page.waitForSelector('[data-field="flow-outcome"][data-outcome="ok"]', { timeout: 15_000 });
    expect(await page.locator('[data-flow="fx-trade"]').isDisabled()).toBe(false);
    expect(await page.getAttribute('[data-field="flow-outcome"]', 'aria-live')).toBe('polite');
    expect(await page.textContent('[data-field="legend"]')).toContain('settling (SETT), accepted, awaiting pay-in');
    const amounts = await page.locator('[data-view="balances"] td.num').allTextContents();
    expect(amounts.length).toBeGreaterThan(0);
    for (const a of amounts) expect(a).toMatch(/^-?\d{1,3}(,\d{3})*(\.\d+)?$/);

    // Long ids, paths, rates and amounts on the page too: an FX trade, the market.
    await page.click('[data-flow="fx-trade"]');
    await expect.poll(() => page.textContent('[data-field="flow-outcome"]'), { timeout: 15_000 }).toMatch(/completed \(COMP\)$/);
    await page.click('[data-nav="market"]');
    await page.waitForSelector('[data-field="pools"]');
    await page.click('[data-nav="resources"]');
    await page.click('[data-view="journal"] summary');

    // No sideways scroll, and every section starts at the same left edge (one column), inside the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Numbers, times, states and ids are never broken over two lines; an id cut short carries its full value in its title.
    const broken = await page.evaluate(() =>
      [...document.querySelectorAll('td.num, time, .status, code.id')].flatMap((e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        const cut = (e as HTMLElement).scrollWidth > (e as HTMLElement).clientWidth && e.getAttribute('title') !== e.textContent;
        return lines.size > 1 || cut ? [e.outerHTML.slice(0, 120)] : [];
      }),
    );
    expect(broken).toEqual([]);
    expect(await page.locator('td.num, time, .status, code.id').count()).toBeGreaterThan(50);
    const boxes = await page.locator('main > section:not([hidden])').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [Math.round(r.left), Math.round(r.right)]));
    expect(new Set(boxes.map(([left]) => left)).size).toBe(1);
    for (const [left, right] of boxes) expect(left >= 0 && right <= 390).toBe(true);
    const header = await page.locator('header.top').evaluate((e) => [e.scrollWidth, e.clientWidth]);
    expect(header[0]).toBeLessThanOrEqual(header[1]);

    expect(await violations(page)).toEqual([]);

    // The clock buttons say what happened, and a server that is gone is named as such.
    await page.click('[data-nav="settings"]');
    await page.click('[data-action="advance"][data-seconds="60"]');
    await expect.poll(() => page.textContent('[data-field="action-result"]')).toBe('Advance the clock: done');
    await page.route('**/_sandbox/clock/advance', (route) => route.abort('connectionrefused'));
    await page.click('[data-action="advance"][data-seconds="60"]');
    await expect.poll(() => page.textContent('[data-field="action-result"]')).toMatch(
      /^The sandbox at http:\/\/127\.0\.0\.1:\d+ did not answer POST \/_sandbox\/clock\/advance: it has stopped or cannot be reached/,
    );
    await page.close();
  });
});
