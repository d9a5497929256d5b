// The /docs page in headless Chromium against a real sandbox: "Try it out" on a payout and on an FX
// trade sends the documented example as it stands, and the sandbox accepts it with its normal
// behaviour (no scenario header slipped in by an example).
// Needs Debian's chromium package (/usr/bin/chromium); CI installs it.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type Browser } from '../support/chromium.js';
import { startServer, type RunningServer } from '../support/server.js';

const KEY = 'sk_test_d0c5e00000000000000000000000000001';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer(['--seed', '11']);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop('SIGKILL');
});

/** Expands an operation, presses Try it out and Execute, and returns the status and body shown. */
async function tryItOut(page: Page, operationId: string) {
  const op = page.locator(`[id$="-${operationId}"].opblock`);
  await op.locator('.opblock-summary').first().click();
  await op.locator('.try-out__btn').click();
  await op.locator('.execute').click();
  const row = op.locator('.live-responses-table .response');
  await row.waitFor({ timeout: 15_000 });
  const status = Number((await row.locator('.response-col_status').textContent())?.trim());
  const body = (await op.locator('.live-responses-table .response-col_description pre').first().textContent()) ?? '';
  return { status, body };
}

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('/docs in Chromium', () => {
  it('runs a payout to SUCCESSFUL and creates an FX trade (201) from the examples as given', async () => {
    const page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    const sent: Record<string, string>[] = [];
    page.on('request', (r) => r.url().includes('/api/') && sent.push(r.headers()));
    await page.goto(`${server.url}/docs`);
    await page.locator('.btn.authorize').click();
    await page.locator('.auth-container input').first().fill(KEY);
    await page.locator('.auth-btn-wrapper .authorize').click();
    await page.locator('.auth-btn-wrapper .btn-done').click();

    const payout = await tryItOut(page, 'createPayout');
    expect(payout.status, payout.body).toBe(201);
    const reference = JSON.parse(payout.body).data.reference as string;
    expect(await call('POST', '/_sandbox/clock/advance', { seconds: 3600 })).toMatchObject({ status: 200 });
    const after = await call('GET', `/api/v1/partners/payouts/${encodeURIComponent(reference)}`);
    expect(after.body.data.status).toBe('SUCCESSFUL');

    const trade = await tryItOut(page, 'createFxTrade');
    expect(trade.status, trade.body).toBe(201);
    expect(trade.body).toContain('<Sts>NEWT</Sts>');

    expect(sent.length).toBe(2);
    for (const headers of sent) expect(headers['x-sandbox-scenario']).toBeUndefined();
    await page.close();
  }, 60_000);
});
