// The console's views in real headless Chromium: each view of the sidebar at 1440 px and at 390 px
// (no sideways scroll, no axe-core finding of any impact, the key screen included), the page's
// height at 1440×900 after the key and after the fiat payout, a deep link to a resource, the sequence
// diagram, step mode with Cancel, and no error in the browser console; the states beyond each view's
// first look (a refused key, a refused request, opened steps, entries and deliveries) under axe-core
// at 390 px, keyboard-only use, and how refusals and a sandbox that does not answer are shown.
// Needs Debian's chromium package (/usr/bin/chromium); CI installs it.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type Browser } from '../support/chromium.js';
import { startServer, type RunningServer } from '../support/server.js';
import { receiver } from '../support/webhooks.js';

const VIEWS = ['flows', 'resources', 'webhooks', 'market', 'readiness', 'settings'];
let server: RunningServer;
let chromium: Browser;
let browser: BrowserContext;
let axe: string;
let keys = 0;

beforeAll(async () => {
  server = await startServer(['--seed', '13']);
  chromium = await launchChromium();
  browser = chromium.context;
  axe = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
});

afterAll(async () => {
  await chromium?.close();
  await server?.stop('SIGKILL');
});

/** A page at this size, recording every script error, console error and request it makes. Chromium
 * logs each answer of 400 or more as "Failed to load resource": the network's report, not the page's
 * error, so it is left out (a test that provokes refusals still sees every other error). */
async function open(width: number, height = 900): Promise<{ page: Page; problems: string[]; urls: string[] }> {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  const problems: string[] = [];
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(m.text()));
  return { page, problems, urls };
}

async function signIn(page: Page): Promise<string> {
  const key = `sk_test_views${String(++keys).padStart(8, '0')}`;
  await page.goto(`${server.url}/console`);
  await page.fill('#key', key);
  await page.press('#key', 'Enter');
  await page.waitForSelector('body[data-state="ready"]');
  return key;
}

/** Every axe-core finding on the page as it stands, whatever its impact (a missing main landmark and
 * a skipped heading level are "moderate", an empty heading "minor": each is a fault a person meets). */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axe);
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => `${v.impact} ${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
}

/** A key the sandbox refuses (its answer to the key check made a 401): the key screen says so. */
async function refusedKey(page: Page): Promise<void> {
  await page.route('**/_sandbox/clock', (route) =>
    route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ status: 'error', message: 'The API key is not valid.' }) }),
  );
  await page.fill('#key', 'sk_test_refused');
  await page.press('#key', 'Enter');
  await expect.poll(() => page.textContent('[data-field="key-error"]')).toBe('The API key is not valid.');
}

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const height = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);
const visibleSections = (page: Page) => page.locator('main > section:not([hidden])').evaluateAll((s) => s.map((e) => e.id));

async function runFiatPayout(page: Page): Promise<string> {
  await page.click('[data-nav="flows"]');
  await page.click('[data-flow="fiat-payout"]');
  await page.waitForSelector('[data-field="flow-outcome"][data-outcome="ok"]', { timeout: 15_000 });
  return (await page.textContent('[data-field="flow-outcome"]'))!.split(' ')[1];
}

describe('the console views in Chromium', () => {
  for (const width of [1440, 390]) {
    it(`shows each view at ${width} px with no sideways scroll and no axe-core violation of any impact, the key screen included`, { timeout: 60_000 }, async () => {
      const { page, problems, urls } = await open(width);
      await page.goto(`${server.url}/console`);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
      expect(await violations(page), 'key screen').toEqual([]);
      await signIn(page);
      await runFiatPayout(page);
      for (const view of VIEWS) {
        await page.click(`[data-nav="${view}"]`);
        // The view changes on the hashchange that follows the click.
        await page.waitForSelector(`main > section[data-page="${view}"]:not([hidden])`);
        expect(page.url()).toMatch(new RegExp(`#/${view}$`));
        await expect.poll(() => page.getAttribute(`[data-nav="${view}"]`, 'aria-current')).toBe('page');
        const shown = await visibleSections(page);
        expect(shown.length, view).toBeGreaterThan(0);
        expect(await page.locator(`main > section[data-page="${view}"]:not([hidden])`).count()).toBe(shown.length);
        // The market is read on opening, and its reading is the chart's first point (uPlot draws on a canvas).
        if (view === 'market') await page.waitForSelector('[data-field="pools"]');
        if (view === 'market') await page.waitForSelector('[data-field="market-chart"] .uplot canvas');
        if (view === 'readiness') await page.waitForSelector('[data-field="ready"]');
        expect(await scrollWidth(page), view).toBeLessThanOrEqual(width);
        expect(await violations(page), view).toEqual([]);
      }
      // Every request the page made went to the sandbox itself (it works offline).
      expect(urls.length).toBeGreaterThan(20);
      expect(urls.filter((u) => !u.startsWith(`${server.url}/`))).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('fits the market chart to its box as the window narrows and widens', { timeout: 30_000 }, async () => {
    const { page, problems } = await open(1440);
    await signIn(page);
    await page.click('[data-nav="market"]');
    await page.waitForSelector('[data-field="market-chart"] .uplot canvas');
    const sizes = () =>
      page.evaluate(() => {
        const box = document.querySelector('[data-field="market-chart"]') as HTMLElement;
        return { box: box.clientWidth, chart: (box.querySelector('.uplot') as HTMLElement).getBoundingClientRect().width };
      });
    const wide = await sizes();
    expect(wide.chart).toBeLessThanOrEqual(wide.box);
    await page.setViewportSize({ width: 800, height: 900 });
    await expect.poll(async () => (await sizes()).chart).toBeLessThan(wide.chart);
    const narrow = await sizes();
    expect(narrow.chart).toBeLessThanOrEqual(narrow.box);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(800);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(async () => (await sizes()).chart).toBe(wide.chart);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is at most two screens tall at 1440×900 after the key, three after the fiat payout; the header stays on screen', { timeout: 30_000 }, async () => {
    const { page, problems } = await open(1440);
    await signIn(page);
    expect(await visibleSections(page)).toEqual(['flows', 'compose']);
    expect(await height(page)).toBeLessThanOrEqual(2 * 900);
    await runFiatPayout(page);
    expect(await page.locator('[data-view="flow-log"] details.exchange').count()).toBe(5);
    expect(await height(page)).toBeLessThanOrEqual(3 * 900);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const header = await page.locator('header.top').boundingBox();
    expect(header!.y).toBe(0);
    expect(await page.isVisible('[data-field="mode"]')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws the sequence diagram of the flow, and opens a resource from a deep link', { timeout: 30_000 }, async () => {
    const { page, problems } = await open(1440);
    await signIn(page);
    const reference = await runFiatPayout(page);
    const svg = page.locator('[data-view="sequence"] svg');
    expect(await svg.locator('.lane text').allTextContents()).toEqual(['Partner (this console)', 'Payments API (sandbox)', 'Partner webhook receiver']);
    expect(await svg.locator('g.call').count()).toBe(5);
    expect(await svg.locator('g.event text').allTextContents()).toEqual(['webhook payout.pending', 'webhook payout.processing', 'webhook payout.successful']);
    const box = await svg.boundingBox();
    expect(box!.width).toBeGreaterThan(600);
    // Arrows run from lane to lane: the first call starts at the partner's lane and ends at the API's.
    const lanes = await svg.locator('.lane line').evaluateAll((ls) => ls.map((l) => Number(l.getAttribute('x1'))));
    const first = await svg.locator('g.call line').first().evaluate((l) => [Number(l.getAttribute('x1')), Number(l.getAttribute('x2'))]);
    expect(first).toEqual([lanes[0], lanes[1]]);

    // A link straight to the resource, opened in a new visit of the same tab.
    await page.goto(`${server.url}/console#/resources/payout/${reference}`);
    await page.waitForSelector('[data-view="resource-detail"] article.detail');
    expect(await page.isVisible('#resource-detail')).toBe(true);
    expect(await page.getAttribute('[data-view="resource-detail"] article.detail', 'data-id')).toBe(reference);
    expect(await page.locator('[data-view="resource-detail"] ol.states .status').allTextContents()).toEqual(['PENDING', 'PROCESSING', 'SUCCESSFUL']);
    expect(await page.textContent('[data-view="resource-detail"] dl.fields')).toContain('5,000 NGN');
    // A card's link leads to the same view.
    await page.click('[data-nav="resources"]');
    await page.click(`.resource[data-id="${reference}"] a.detail-link`);
    expect(page.url()).toBe(`${server.url}/console#/resources/payout/${reference}`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('in step mode shows Next beside the newest step, on screen, and Cancel stops the flow', { timeout: 30_000 }, async () => {
    const { page, problems } = await open(1440);
    await signIn(page);
    await page.check('#step-mode');
    await page.click('[data-flow="fiat-payout"]');
    for (let i = 0; i < 3; i++) {
      await page.waitForSelector('[data-action="next-step"]:not([hidden])');
      const next = await page.locator('[data-action="next-step"]').boundingBox();
      expect(next!.y + next!.height).toBeLessThanOrEqual(900);
      expect(await page.isVisible('[data-action="cancel-flow"]')).toBe(true);
      await page.click('[data-action="next-step"]');
      await expect.poll(() => page.locator('[data-view="flow-log"] details.exchange').count()).toBe(i + 1);
    }
    await page.waitForSelector('[data-action="next-step"]:not([hidden])');
    expect(await page.textContent('[data-field="next-step"]')).toMatch(/^Next: POST \/_sandbox\/clock\/advance/);
    await page.click('[data-action="cancel-flow"]');
    await page.waitForSelector('[data-field="flow-outcome"][data-outcome="cancelled"]');
    expect(await page.textContent('[data-field="flow-outcome"]')).toBe('Fiat payout cancelled after 3 calls');
    expect(await page.isVisible('[data-action="next-step"]')).toBe(false);
    expect(await page.isVisible('[data-action="cancel-flow"]')).toBe(false);
    expect(await page.locator('[data-view="flow-log"] details.exchange').count()).toBe(3);
    expect(await page.locator('[data-flow="fiat-payout"]').isDisabled()).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('passes axe-core with no finding in every state at 390 px, with no sideways scroll: refused key, refused request, opened steps, entries and deliveries, step mode, a resource', { timeout: 60_000 }, async () => {
    const { page, problems, urls } = await open(390, 844);
    const r = await receiver();
    const check = async (state: string) => {
      expect(await scrollWidth(page), state).toBeLessThanOrEqual(390);
      expect(await violations(page), state).toEqual([]);
    };
    await page.goto(`${server.url}/console`);
    // A key the sandbox refuses: the key screen says so.
    await refusedKey(page);
    await check('refused key');
    await page.unroute('**/_sandbox/clock');
    await signIn(page);
    await check('flows before any run');
    // A refused request, its fields listed.
    await page.fill('#compose-body', '{"amount": "x"}');
    await page.click('[data-action="compose-send"]');
    await page.waitForSelector('[data-field="compose-result"][data-outcome="failed"]');
    await page.click('[data-view="compose"] details.exchange summary');
    await check('refused request');
    await runFiatPayout(page);
    for (const summary of await page.locator('[data-view="flow-log"] details.exchange summary').all()) await summary.click();
    await check('flow steps opened');
    await page.click('[data-nav="resources"]');
    await page.click('[data-view="journal"] details.entry summary');
    await page.click('[data-view="resources"] .resource details summary');
    await check('journal entry and resource opened');
    await page.click('[data-view="resources"] a.detail-link');
    await page.waitForSelector('[data-view="resource-detail"] article.detail');
    await page.click('[data-view="resource-detail"] details summary');
    await check('a resource');
    await page.click('[data-nav="webhooks"]');
    await page.fill('#webhook-url', r.url);
    await page.click('[data-action="webhook-set"]');
    await expect.poll(() => page.textContent('[data-field="webhook-secret"]')).toMatch(/^whsec_/);
    await page.click('[data-action="webhook-test"]');
    await page.waitForSelector('[data-view="deliveries"] details.delivery .attempts li', { state: 'attached' });
    await page.click('[data-view="deliveries"] details.delivery summary');
    await check('a delivery opened');
    await page.click('[data-nav="flows"]');
    await page.check('#step-mode');
    await page.click('[data-flow="fiat-payout"]');
    await page.waitForSelector('[data-action="next-step"]:not([hidden])');
    await check('step mode');
    await page.click('[data-action="cancel-flow"]');
    expect(urls.filter((u) => !u.startsWith(`${server.url}/`))).toEqual([]);
    expect(problems).toEqual([]);
    await r.close();
    await page.close();
  });

  it('works from the keyboard: Tab from the console reaches the flows and the form, and a control drawn again keeps the focus', { timeout: 60_000 }, async () => {
    const { page, problems } = await open(1440);
    const key = await signIn(page);
    const focused = () => page.evaluate(() => {
      const a = document.activeElement as HTMLElement;
      return a.id ? `#${a.id}` : `${a.tagName.toLowerCase()}[${a.getAttribute('data-action') ?? ''}${a.getAttribute('data-flow') ? ` ${a.getAttribute('data-flow')}` : ''}]`;
    });
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      order.push(await focused());
    }
    expect(order).toEqual(['#step-mode', 'button[flow fiat-payout]', 'button[flow failing-payout]', 'button[flow marketplace-quote]']);
    // The focused control is drawn with a visible outline.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');

    // Enter on "Use for this key", Space on "Back to the default": the scenario changes and the focus stays on the button pressed.
    await page.goto(`${server.url}/console#/settings`);
    await page.waitForSelector('#scenario-pick', { state: 'attached' });
    await page.selectOption('#scenario-pick', 'failures');
    await page.focus('[data-action="scenario"]');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('[data-field="scenario"]')).toBe('failures');
    expect(await focused()).toBe('button[scenario]');
    await page.focus('[data-action="scenario-default"]');
    await page.keyboard.press(' ');
    await expect.poll(() => page.textContent('[data-field="scenario"]')).toBe('default');
    expect(await focused()).toBe('button[scenario-default]');

    // A move pressed from the keyboard: the resource is drawn in its new state and the focus stays with it (its next move).
    await page.goto(`${server.url}/console#/flows`);
    await page.selectOption('#compose-kind', 'fx-trade');
    await page.click('[data-action="compose-send"]');
    await page.goto(`${server.url}/console#/resources`);
    const accept = page.locator('[data-view="resources"] [data-action="simulate"][data-event="accept"]');
    await accept.focus();
    const id = await accept.getAttribute('data-id');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator(`[data-view="resources"] .resource[data-id="${id}"] header .status`).textContent()).toBe('settling');
    expect(await page.evaluate(() => document.activeElement?.closest('.resource')?.getAttribute('data-id') ?? document.activeElement?.tagName)).toBe(id);

    // "Show more" that shows the last entries is gone: the focus goes to the list's count, not the page's top.
    for (let i = 0; i < 30; i++) await fetch(`${server.url}/api/v1/partners/payouts/more-${i}`, { headers: { authorization: `Bearer ${key}` } });
    await page.goto(`${server.url}/console#/flows`);
    await page.goto(`${server.url}/console#/resources`);
    const more = page.locator('[data-view="journal"] [data-action="more"]');
    await more.focus();
    // Each press shows 25 more and keeps the focus on the button while some are left.
    while ((await more.count()) > 0) {
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('more');
      const before = await page.textContent('[data-field="journal-count"]');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.textContent('[data-field="journal-count"]')).not.toBe(before);
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-field'))).toBe('journal-count');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('runs a flow from the keyboard without losing the focus: Cancel while it runs, Next in steps, the flow button after, the key field after Forget key', { timeout: 60_000 }, async () => {
    const { page, problems } = await open(1440);
    await signIn(page);
    const focused = () => page.evaluate(() => {
      const a = document.activeElement as HTMLElement;
      return a.id ? `#${a.id}` : `${a.tagName.toLowerCase()}[${a.getAttribute('data-action') ?? ''}]`;
    });
    await page.focus('[data-flow="fiat-payout"]');
    await page.keyboard.press('Enter');
    // The pressed button is disabled while the flow runs: the focus is on Cancel, not on the page.
    await expect.poll(focused).toBe('button[cancel-flow]');
    await page.waitForSelector('[data-field="flow-outcome"][data-outcome="ok"]', { timeout: 15_000 });
    expect(await focused()).toBe('button[flow]');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-flow'))).toBe('fiat-payout');

    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('#step-mode');
    await page.keyboard.press(' ');
    expect(await page.isChecked('#step-mode')).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    // In steps the focus is on Next each time it shows, and Enter makes the call.
    for (let i = 1; i <= 2; i++) {
      await page.waitForSelector('[data-action="next-step"]:not([hidden])');
      await expect.poll(focused).toBe('button[next-step]');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('[data-view="flow-log"] details.exchange').count()).toBe(i);
    }
    await page.waitForSelector('[data-action="next-step"]:not([hidden])');
    await expect.poll(focused).toBe('button[next-step]');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('button[cancel-flow]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-field="flow-outcome"][data-outcome="cancelled"]');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-flow'))).toBe('fiat-payout');

    await page.focus('[data-action="forget-key"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('body[data-state="locked"]');
    expect(await focused()).toBe('#key');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the clock and the scenario as the API has them: a frozen clock, a scenario sent as a document', { timeout: 30_000 }, async () => {
    const { page, problems } = await open(1440);
    const key = await signIn(page);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    await page.goto(`${server.url}/console#/settings`);
    await expect.poll(() => page.textContent('[data-view="clock"]')).toContain('Runs with real time');
    expect((await fetch(`${server.url}/_sandbox/clock`, { method: 'PUT', headers, body: JSON.stringify({ frozen: true }) })).status).toBe(200);
    const sent = await fetch(`${server.url}/_sandbox/scenario`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/yaml' }, body: 'description: every payout at once\npayout:\n  timing: { "*": 0 }\n' });
    expect(((await sent.json()) as { name: string }).name).toBe('inline');
    // The console reads the key's state every 1.5 s.
    await expect.poll(() => page.textContent('[data-view="clock"]'), { timeout: 5_000 }).toContain('Frozen: it moves only when advanced');
    await expect.poll(() => page.textContent('[data-field="scenario"]'), { timeout: 5_000 }).toBe('inline');
    // The list does not claim another scenario is in force, and "Use for this key" asks for one from it.
    expect(await page.locator('#scenario-pick option:checked').textContent()).toBe("inline (this key's own document)");
    await page.click('[data-action="scenario"]');
    await expect.poll(() => page.textContent('[data-field="action-result"]')).toBe("Choose a bundled scenario from the list first: the one in force is this key's own document.");
    expect(await page.textContent('[data-field="scenario"]')).toBe('inline');
    await page.selectOption('#scenario-pick', 'instant');
    await page.click('[data-action="scenario"]');
    await expect.poll(() => page.textContent('[data-field="scenario"]')).toBe('instant');
    expect(await page.locator('#scenario-pick option').count()).toBe(8);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows what the sandbox refused and why: every field a 400 names, the XML reject too, a body that is not JSON, a sandbox that does not answer', { timeout: 60_000 }, async () => {
    const { page, problems } = await open(1440);
    const fields = () => page.locator('[data-view="compose"] [data-field="problems"] li').allTextContents();
    await page.goto(`${server.url}/console`);
    // A sandbox that does not answer when the key is entered: the key screen says so (not an earlier try's message).
    await refusedKey(page);
    await page.unroute('**/_sandbox/clock');
    await page.route('**/_sandbox/clock', (route) => route.abort('connectionrefused'));
    await page.fill('#key', 'sk_test_unanswered');
    await page.press('#key', 'Enter');
    await expect.poll(() => page.textContent('[data-field="key-error"]')).toMatch(/^The sandbox at http:\/\/127\.0\.0\.1:\d+ did not answer GET \/_sandbox\/clock: it has stopped or cannot be reached/);
    expect(await page.getAttribute('body', 'data-state')).toBe('locked');
    await page.unroute('**/_sandbox/clock');
    await signIn(page);

    // A 400 names four fields; the message says one, and the form lists all four.
    await page.fill('#compose-body', '{"amount": "x"}');
    await page.click('[data-action="compose-send"]');
    await expect.poll(fields).toEqual([
      'reference is required: send a string',
      'amount must be a number, not a string',
      'currency is required: send one of: NGN, GHS, USD',
      'destination is required: send an object',
    ]);
    expect(await page.textContent('[data-field="compose-result"]')).toBe('→ 400: Invalid request body: reference is required: send a string (and 3 more problems, listed in error.details).');
    // The FX interface refuses in XML: its ErrLctn and AddtlData, one field a line.
    await page.selectOption('#compose-kind', 'fx-trade');
    await page.fill('#compose-body', '<FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy></CcyPair></FXTradInstr>');
    await page.click('[data-action="compose-send"]');
    await expect.poll(fields).toEqual([
      'CcyPair/QtdCcy is required: CcyPair ends without it; CcyPair holds BaseCcy and QtdCcy, in this order',
      'TradAmts is required: FXTradInstr ends without it; FXTradInstr holds CcyPair, TradAmts, AgrdRate (optional) and AmtDrctn, in this order',
    ]);
    // A body that is not JSON is not sent: the result beside Send says so, and the last exchange goes.
    await page.selectOption('#compose-kind', 'payout');
    await page.fill('#compose-body', '{not json');
    await page.click('[data-action="compose-send"]');
    await expect.poll(() => page.textContent('[data-field="compose-result"]')).toMatch(/^Not sent: the body is not JSON: /);
    expect(await page.textContent('[data-view="compose"]')).toBe('');
    // A send the sandbox does not answer is said, not dropped.
    await page.click('[data-action="compose-fill"]');
    await page.route('**/api/v1/partners/payouts', (route) => route.abort('connectionrefused'));
    await page.click('[data-action="compose-send"]');
    await expect.poll(() => page.textContent('[data-field="action-result"]')).toMatch(/did not answer POST \/api\/v1\/partners\/payouts: it has stopped or cannot be reached/);
    // A report that cannot be read says so in its view, which is not left blank.
    await page.route('**/_sandbox/report', (route) => route.abort('connectionrefused'));
    await page.click('[data-nav="readiness"]');
    await expect.poll(() => page.textContent('[data-view="readiness"]')).toMatch(/^Could not read the readiness report: The sandbox at .* did not answer GET \/_sandbox\/report/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
