// The console in real headless Chromium against a real sandbox process: enter a key, run the guided
// fiat payout, advance the clock, see SUCCESSFUL on the timeline, and keep a screenshot.
// Needs Debian's chromium package (/usr/bin/chromium); CI installs it.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';

const KEY = 'sk_test_c0501e00000000000000000000000001';

let server: RunningServer;
let browser: BrowserContext;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'console-e2e-'));
  server = await startServer(['--seed', '11']);
  // A fresh profile each run (playwright passes it to Chromium as --user-data-dir).
  browser = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 1600 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop('SIGKILL');
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
    await page.waitForSelector('[data-view="balances"] table');

    await page.click('[data-flow="fiat-payout"]');
    await page.waitForSelector('[data-field="flow-outcome"][data-outcome="ok"]', { timeout: 15_000 });
    expect(await page.textContent('[data-field="flow-outcome"]')).toMatch(/^Payout console-payout-\S+ is SUCCESSFUL$/);
    expect(await page.locator('[data-view="flow-log"] .exchange').count()).toBe(5);

    await page.click('[data-action="advance"][data-seconds="3600"]');
    const card = page.locator('[data-view="resources"] .resource[data-kind="payouts"]');
    await expect.poll(() => card.locator('.timeline .status').allTextContents(), { timeout: 10_000 }).toEqual(['PENDING', 'PROCESSING', 'SUCCESSFUL']);
    await expect.poll(() => page.textContent('[data-view="clock"]')).toMatch(/Ahead of real time\s*3[0-9]{3} s/);
    await page.click('summary:has-text("POST")');

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
});
