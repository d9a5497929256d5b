// The console's screenshots in docs/console/: each view at 1440 px and at 390 px, after the guided
// fiat payout, with a webhook receiver, a market read twice over the key's clock and a resource
// opened, so every view shows something. Refresh them after changing the console:
//
//   npm run build && node scripts/screenshots.mjs
//
// Needs Chromium at /usr/bin/chromium (Debian's chromium package), as the browser tests do.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'docs/console');
const KEY = 'sk_test_screenshots0000000000000001';
export const SHOTS = ['key', 'flows', 'resources', 'resource', 'webhooks', 'market', 'readiness', 'settings'];
const WIDTHS = [1440, 390];

function startSandbox() {
  const proc = spawn(process.execPath, ['dist/main.js', '--port', '0', '--seed', '7'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], stop: () => proc.kill('SIGTERM') });
    });
    proc.on('exit', () => reject(new Error(`the sandbox exited:\n${out}`)));
  });
}

/** A webhook receiver that answers 200, so the Webhooks view has deliveries. */
function startReceiver() {
  const server = createServer((req, res) => req.resume().on('end', () => res.end('thanks')));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/hooks`, stop: () => server.close() })));
}

async function call(sandbox, method, p, body) {
  const res = await fetch(`${sandbox.url}${p}`, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

mkdirSync(OUT, { recursive: true });
const sandbox = await startSandbox();
const receiver = await startReceiver();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  await call(sandbox, 'PUT', '/_sandbox/webhooks', { url: receiver.url });
  for (const width of WIDTHS) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const shoot = (name) => page.screenshot({ path: path.join(OUT, `${name}-${width}.png`) });
    /** Open a view from the sidebar, wait for what shows it is drawn, and take it. */
    const view = async (nav, drawn, name = nav) => {
      await page.click(`[data-nav="${nav}"]`);
      await page.waitForSelector(drawn);
      await shoot(name);
    };
    await page.goto(`${sandbox.url}/console`);
    await page.fill('#key', KEY);
    await shoot('key');
    await page.press('#key', 'Enter');
    await page.waitForSelector('body[data-state="ready"]');
    await page.click('[data-flow="fiat-payout"]');
    await page.waitForSelector('[data-field="flow-outcome"][data-outcome="ok"]', { timeout: 20_000 });
    await page.locator('[data-view="flow-log"] details.exchange').nth(2).locator('summary').click();
    await shoot('flows');
    const ref = (await page.textContent('[data-field="flow-outcome"]')).split(' ')[1];
    await view('resources', '[data-view="resources"] .resource');
    await page.goto(`${sandbox.url}/console#/resources/payout/${ref}`);
    await page.waitForSelector('[data-view="resource-detail"] article.detail');
    await shoot('resource');
    await view('webhooks', '[data-view="deliveries"] details.delivery');
    await page.click('[data-nav="market"]');
    await page.waitForSelector('[data-field="pools"]');
    await call(sandbox, 'POST', '/_sandbox/clock/advance', { seconds: 3600 });
    await page.click('[data-action="market"]');
    await page.waitForSelector('.uplot');
    await shoot('market');
    await view('readiness', '[data-field="ready"]');
    await view('settings', '[data-view="balances"] table');
    await page.close();
  }
  console.log(`${SHOTS.length * WIDTHS.length} screenshots in ${path.relative(ROOT, OUT)}/`);
} finally {
  await browser.close();
  receiver.stop();
  sandbox.stop();
}
