// The console's page and actions, in happy-dom over the real app: signing in with a key, the guided
// flows, the clock and scenario buttons, polling, and that a key never leaves the browser session
// except in the Authorization header.
import { AsyncLocalStorage } from 'node:async_hooks';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleScript } from '../../src/console/script.js';
import { createTestApp, KEY, KEY_B, LIVE_KEY, type TestApp } from '../support/app.js';
import { openConsole } from './support.js';
import { receiver } from '../support/webhooks.js';

let open: Awaited<ReturnType<typeof openConsole>>[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

async function consoleFor(t: TestApp, opts: Parameters<typeof openConsole>[1] = {}) {
  const c = await openConsole(t, opts);
  open.push(c);
  return c;
}

const payout = (reference: string) => ({
  reference,
  amount: 1000,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});

describe('the console page', () => {
  it('is rendered without turning on AsyncLocalStorage, which would slow every API request', async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    try {
      const t = await createTestApp();
      expect((await t.app.request('/console')).status).toBe(200);
      expect((await t.call('POST', '/api/v1/partners/payouts', { body: payout('als-1') })).status).toBe(201);
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
    }
  });

  it('is served from the sandbox with its script and stylesheet, uncached, same-origin only', async () => {
    const t = await createTestApp();
    const page = await t.app.request('/console');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<script src="/console/console.js" defer=""></script>');
    expect(html).not.toMatch(/https?:\/\//);
    for (const flow of ['fiat-payout', 'failing-payout', 'marketplace-quote', 'fx-trade']) expect(html).toContain(`data-flow="${flow}"`);
    const js = await t.app.request('/console/console.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe(consoleScript(1500));
    expect((await t.app.request('/console/console.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('serves one bundled script (real modules, built by scripts/build.mjs) under 100 KB compressed', async () => {
    const t = await createTestApp();
    const js = await (await t.app.request('/console/console.js')).text();
    expect(js.startsWith('window.sandboxConsolePollMs = 1500;\n')).toBe(true);
    // One bundle: nothing is imported at run time, and the page loads no other script.
    expect(js).not.toMatch(/\bimport\s*\(|^import\s/m);
    expect(gzipSync(js).length).toBeLessThan(100 * 1024);
  });

    it('drops any query string, so a key typed into one does not stay in the address bar', async () => {
    const t = await createTestApp();
    const res = await t.app.request(`/console?key=${KEY}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console');
  });

  it('asks for a key, refuses a malformed or rejected one, and keeps a good one in sessionStorage only', async () => {
    const t = await createTestApp({ allowedKeys: new Set([KEY]) });
    const c = await consoleFor(t);
    expect(c.doc.body.getAttribute('data-state')).toBe('locked');
    await c.signIn('pk_test_nope');
    expect(c.text('[data-field="key-error"]')).toBe('A key looks like sk_test_ (test mode) or sk_live_ (live simulation) followed by letters and digits.');
    await c.signIn(KEY_B);
    expect(c.text('[data-field="key-error"]')).toBe('This API key is not one this sandbox accepts. Use a key from its keys file.');
    expect(c.win.sessionStorage.length).toBe(0);
    await c.signIn(KEY);
    expect(c.doc.body.getAttribute('data-state')).toBe('ready');
    expect(c.win.sessionStorage.getItem('payments-sandbox.console.key')).toBe(KEY);
    expect(c.win.localStorage.length).toBe(0);
    expect((c.doc.querySelector('#key') as unknown as HTMLInputElement).value).toBe('');
    expect(c.text('[data-field="key"]')).toBe('sk_test_…0001');
    expect(c.text('[data-view="balances"]')).toContain('NGN');
    expect(c.text('[data-field="scenario"]')).toBe('default');
    await c.click('[data-action="forget-key"]');
    expect(c.win.sessionStorage.length).toBe(0);
    expect(c.doc.body.getAttribute('data-state')).toBe('locked');
  });

  it('runs the guided fiat payout step by step and draws PENDING → PROCESSING → SUCCESSFUL on the timeline', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    await c.click('[data-flow="fiat-payout"]');
    const steps = [...c.doc.querySelectorAll('[data-view="flow-log"] .exchange h3')].map((h) => h.textContent);
    expect(steps).toEqual([
      '1. Get All Banks for NGN',
      '2. Resolve account 0123456789 at Guaranty Trust Bank',
      '3. Create the payout',
      '4. Advance the clock 300 s, to the estimated completion',
      '5. Read the payout back',
    ]);
    expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-outcome')).toBe('ok');
    expect(c.text('[data-field="flow-outcome"]')).toMatch(/^Payout console-payout-\S+ is SUCCESSFUL$/);
    const card = c.doc.querySelector('[data-view="resources"] .resource[data-kind="payouts"]')!;
    expect([...card.querySelectorAll('.timeline .status')].map((s) => s.textContent)).toEqual(['PENDING', 'PROCESSING', 'SUCCESSFUL']);
    expect(card.querySelector('header .status')!.textContent).toBe('SUCCESSFUL');
    // The journal shows each API request and response, the key masked.
    const journal = c.text('[data-view="journal"]');
    expect(journal).toContain('POST /api/v1/partners/payouts');
    expect(journal).toContain('authorization: Bearer [redacted]…0001');
    expect(c.text('[data-view="events"]')).toContain('payout.successful');
    expect(c.text('[data-view="clock"]')).toContain('300 s');
  });

  it('runs the failing payout under the failures scenario and shows the reason and the refund', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    const before = (await t.call('GET', '/_sandbox/balances')).body.data.find((b: any) => b.key === 'NGN').available;
    await c.api.runFlow('failing-payout');
    expect(c.text('[data-field="flow-outcome"]')).toMatch(/is FAILED: Beneficiary bank declined the transfer$/);
    // The flow worked (data-outcome ok), and what it reached is a failure: red, not green.
    expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-outcome')).toBe('ok');
    expect(c.doc.querySelector('[data-field="flow-outcome"]')!.getAttribute('data-tone')).toBe('failure');
    expect(c.doc.querySelector('.resource[data-kind="payouts"] header .status')!.className).toBe('status tone-failure');
    const card = c.doc.querySelector('.resource[data-kind="payouts"]')!;
    expect(card.querySelector('.timeline')!.textContent).toContain('Beneficiary bank declined the transfer');
    expect(c.text('[data-view="balances"]')).toContain(Number(before).toLocaleString('en-US', { minimumFractionDigits: 2 }));
    const sentScenario = c.sent.find((s) => s.url === '/api/v1/partners/payouts')!.headers['x-sandbox-scenario'];
    expect(sentScenario).toBe('failures');
  });

  it('advances the clock with its buttons and binds a scenario with the picker', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    await c.click('[data-action="advance"][data-seconds="60"]');
    await c.click('[data-action="advance"][data-seconds="3600"]');
    await c.click('[data-action="advance"][data-seconds="86400"]');
    expect((await t.call('GET', '/_sandbox/clock')).body.offsetSeconds).toBe(60 + 3600 + 86400);
    expect(c.text('[data-view="clock"]')).toContain('90060 s');
    (c.doc.querySelector('#scenario-pick') as unknown as HTMLSelectElement).value = 'failures';
    await c.click('[data-action="scenario"]');
    expect((await t.call('GET', '/_sandbox/scenario')).body.name).toBe('failures');
    expect(c.text('[data-field="scenario"]')).toBe('failures');
    await c.click('[data-action="scenario-default"]');
    expect(c.text('[data-field="scenario"]')).toBe('default');
  });

  it('shows the test values, and says when the key\'s scenario turns them off', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    expect(c.text('[data-field="mode"]')).toBe('Test mode: every account resolves, test values work');
    expect(c.text('[data-view="magic"]')).toContain('0000000052');
    expect(c.text('[data-view="magic"]')).toContain('FAILED: The beneficiary account is closed');
    expect(c.doc.querySelector('[data-field="magic-off"]')).toBeNull();
    await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { magicValues: false } } });
    await c.click('[data-action="advance"][data-seconds="60"]');
    expect(c.text('[data-field="magic-off"]')).toContain('Not honoured for this key now');
  });

  it('reads the market on demand in one rate convention (1 USDT = 1,585.14 NGN), amounts with their units', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    await c.click('[data-action="market"]');
    const rate = (await t.call('GET', '/api/v1/partners/rates?from=NGN&to=USDT')).body.rate as number;
    expect(rate).toBeLessThan(1);
    const market = c.text('[data-view="market"]');
    expect(market).toContain('NGN → USDT');
    const perUsdt = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(1 / rate);
    expect(perUsdt).toMatch(/^1,\d{3}\.\d{2}$/);
    const first = c.doc.querySelector('[data-view="market"] tbody tr')!;
    expect(first.querySelector('td.num')!.textContent).toBe(`1 USDT = ${perUsdt} NGN`);
    // The API's multiplier stays one hover away, never in the text.
    expect(first.querySelector('td.num')!.getAttribute('title')).toContain(String(rate));
    expect(market).not.toContain(String(rate));
    expect(market).not.toMatch(/per USDT/);
    expect(c.doc.querySelectorAll('[data-field="pools"] tbody tr')).toHaveLength(40);
    expect(c.text('[data-view="market"]')).toContain('Liquidity pools (40)');
    const pool = [...c.doc.querySelectorAll('[data-field="pools"] tbody tr')[0].querySelectorAll('td')].map((td) => td.textContent);
    expect(pool).toEqual(['Lagos Liquidity Partners', 'NGN → USDT', '1 USDT = 1,580.50 NGN', '42,500 USDT']);
    // A pool the other way (stablecoin to fiat) reads the same way round: one stablecoin in the fiat.
    const reverse = [...c.doc.querySelector('[data-field="pools"] tr[data-pool-direction="USDT-NGN"]')!.querySelectorAll('td')].map((td) => td.textContent);
    expect(reverse[2]).toMatch(/^1 USDT = 1,5\d\d\.\d\d NGN$/);
    expect(reverse[3]).toMatch(/ NGN$/);
    for (const cell of c.doc.querySelectorAll('[data-view="market"] td.num')) expect(cell.textContent).toMatch(/^1 [A-Z]+ = \d{1,3}(,\d{3})*\.\d{2,4} [A-Z]+$|^\d{1,3}(,\d{3})*(\.\d+)? [A-Z]+$/);
  });

  it('moves a resource with the simulate buttons its state allows, tops up a balance and resets the key', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('console-moves') });
    await c.signIn(KEY);
    const buttons = () => [...c.doc.querySelectorAll('.resource[data-id="console-moves"] [data-action="simulate"]')].map((b) => b.getAttribute('data-event'));
    expect(buttons()).toEqual(['process']);
    await c.click('.resource[data-id="console-moves"] [data-event="process"]');
    expect((await t.call('GET', '/api/v1/partners/payouts/console-moves')).body.data.status).toBe('PROCESSING');
    expect(buttons()).toEqual(['complete', 'fail']);
    await c.click('.resource[data-id="console-moves"] [data-event="fail"]');
    expect((await t.call('GET', '/api/v1/partners/payouts/console-moves')).body.data.status).toBe('FAILED');
    expect(buttons()).toEqual([]);

    const ngn = async () => (await t.call('GET', '/_sandbox/balances')).body.data.find((b: { key: string }) => b.key === 'NGN').available as string;
    const before = Number(await ngn());
    await c.click('[data-action="top-up"][data-key="NGN"]');
    expect(Number(await ngn())).toBe(before + 1_000_000);
  });

  it('asks before a reset, in a dialog of its own, and clears every panel after', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('before-reset') });
    await c.signIn(KEY);
    await c.click('[data-flow="fiat-payout"]');
    await c.click('[data-action="market"]');
    (c.doc.querySelector('#compose-kind') as unknown as HTMLSelectElement).value = 'intent';
    await c.click('[data-action="compose-fill"]');
    await c.click('[data-action="compose-send"]');
    const filter = c.doc.querySelector('#filter-journal') as unknown as HTMLInputElement;
    filter.value = 'POST';
    filter.dispatchEvent(new c.win.Event('input', { bubbles: true }) as unknown as Event);
    for (const view of ['flow-log', 'compose', 'market', 'resources', 'journal', 'events']) expect(c.text(`[data-view="${view}"]`), view).not.toBe('');

    // Reset sits apart from the top-ups and only opens the dialog.
    const reset = c.doc.querySelector('[data-action="reset"]')!;
    expect(reset.closest('p')!.querySelector('[data-action="top-up"]')).toBeNull();
    expect(reset.getAttribute('aria-haspopup')).toBe('dialog');
    const dialog = c.doc.querySelector('#reset-dialog') as unknown as HTMLDialogElement;
    expect(dialog.open).toBe(false);
    await c.click('[data-action="reset"]');
    expect(dialog.open).toBe(true);
    expect(dialog.getAttribute('aria-labelledby')).toBe('reset-title');
    expect(c.text('#reset-title')).toBe("Reset this key's data?");
    await c.click('[data-action="reset-cancel"]');
    expect(dialog.open).toBe(false);
    expect((await t.call('GET', '/api/v1/partners/payouts/before-reset')).status).toBe(200);

    await c.click('[data-action="reset"]');
    await c.click('[data-action="reset-confirm"]');
    expect(dialog.open).toBe(false);
    expect((await t.call('GET', '/api/v1/partners/payouts/before-reset')).status).toBe(404);
    expect(c.text('[data-field="action-result"]')).toBe("Reset this key's data: done");
    // Nothing of before stays: the flow's log and headline, the form's exchange, the market, the filters.
    for (const view of ['flow-log', 'compose', 'market']) expect(c.text(`[data-view="${view}"]`), view).toBe('');
    for (const field of ['flow-title', 'flow-outcome']) expect(c.text(`[data-field="${field}"]`), field).toBe('');
    expect(filter.value).toBe('');
    expect(c.text('[data-view="resources"]')).toContain('No resources yet');
    expect(c.text('[data-view="journal"]')).toContain('No API requests yet');
    expect(c.text('[data-view="events"]')).toContain('No events yet');
    expect(c.text('[data-view="clock"]')).toMatch(/Ahead of real time\s*0 s/);
    // The form is ready again, with a fresh example.
    expect(c.text('[data-field="compose-target"]')).toBe('POST /api/v1/partners/marketplace/intent');
  });

  it('sets the webhook, shows the secret and each attempt\'s headers and answer, redelivers and rotates the secret', async () => {
    const t = await createTestApp();
    const r = await receiver();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    (c.doc.querySelector('#webhook-url') as unknown as HTMLInputElement).value = r.url;
    await c.click('[data-action="webhook-set"]');
    const secret = c.text('[data-field="webhook-secret"]');
    expect(secret).toMatch(/^whsec_/);
    expect((await t.call('GET', '/_sandbox/webhooks')).body.url).toBe(r.url);
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('hooked-1') });
    await r.waitFor(1);
    await expect.poll(async () => (await c.api.refresh(), c.text('[data-view="deliveries"]')), { timeout: 5000 }).toContain("Receiver's answer");
    const shown = c.text('[data-view="deliveries"]');
    expect(shown).toContain(`webhook-id: ${r.got[0].headers['webhook-id']}`);
    expect(shown).toContain('thanks');
    await c.click('[data-action="webhook-test"]');
    await r.waitFor(2);
    expect(JSON.parse(r.got[1].body).event).toBe('webhook.test');
    await c.click('[data-action="redeliver"]');
    await r.waitFor(3);
    expect(r.got[2].headers['webhook-id']).toBe(r.got[1].headers['webhook-id']);
    await c.click('[data-action="webhook-rotate"]');
    expect(c.text('[data-field="webhook-secret"]')).toMatch(/^whsec_/);
    expect(c.text('[data-field="webhook-secret"]')).not.toBe(secret);
  });

  it('pages and filters a tenant of hundreds of resources, requests and events', async () => {
    const t = await createTestApp();
    for (let i = 0; i < 150; i++) await t.call('POST', '/api/v1/partners/payouts', { body: payout(`many-${i}`) });
    const c = await consoleFor(t);
    await c.signIn(KEY);
    const cards = () => c.doc.querySelectorAll('[data-view="resources"] .resource').length;
    expect(cards()).toBe(25);
    expect(c.text('[data-field="resources-count"]')).toMatch(/^Showing 25 of \d+$/);
    await c.click('[data-action="more"][data-list="resources"]');
    expect(cards()).toBe(50);
    const filter = c.doc.querySelector('#filter-resources') as unknown as HTMLInputElement;
    filter.value = 'many-14';
    filter.dispatchEvent(new c.win.Event('input', { bubbles: true }) as unknown as Event);
    // many-14 and many-140 … many-149
    expect(cards()).toBe(11);
    expect(c.text('[data-field="resources-count"]')).toMatch(/^Showing 11 of 11 matching "many-14" \(\d+ in all\)$/);
    expect(c.doc.querySelectorAll('[data-view="journal"] details.entry').length).toBe(25);
    expect(c.doc.querySelectorAll('[data-view="events"] tbody tr').length).toBe(50);
    const journalFilter = c.doc.querySelector('#filter-journal') as unknown as HTMLInputElement;
    journalFilter.value = 'many-149';
    journalFilter.dispatchEvent(new c.win.Event('input', { bubbles: true }) as unknown as Event);
    expect(c.doc.querySelectorAll('[data-view="journal"] details.entry').length).toBe(0);
    journalFilter.value = 'POST';
    journalFilter.dispatchEvent(new c.win.Event('input', { bubbles: true }) as unknown as Event);
    expect(c.text('[data-field="journal-count"]')).toMatch(/^Showing 25 of \d+ matching "post"/);
  });

  it.each([
    ['payout', '/api/v1/partners/payouts', KEY],
    ['wallet-payout', '/api/v1/partners/wallets/payouts', KEY],
    ['withdrawal', '/api/v1/partners/withdrawal', KEY],
    ['transfer', '/api/v1/transfers', KEY],
    ['intent', '/api/v1/partners/marketplace/intent', KEY],
    ['fx-trade', '/api/v1/partners/fx/trades', KEY],
    ['payout', '/api/v1/partners/payouts', LIVE_KEY],
    ['withdrawal', '/api/v1/partners/withdrawal', LIVE_KEY],
  ])('creates a %s from the form\'s example (%s, key %s)', async (kind, path, key) => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(key);
    (c.doc.querySelector('#compose-kind') as unknown as HTMLSelectElement).value = kind;
    await c.click('[data-action="compose-fill"]');
    expect((c.doc.querySelector('#compose-body') as unknown as HTMLTextAreaElement).value).not.toBe('');
    await c.click('[data-action="compose-send"]');
    const shown = c.text('[data-view="compose"]');
    expect(shown).toContain(`POST ${path} → 201`);
    if (kind === 'fx-trade') expect(shown).toContain('<FXTradInstr>');
    expect(c.doc.querySelector('[data-field="action-result"]')!.getAttribute('data-outcome')).toBe('ok');
    const res = (await t.call('GET', '/_sandbox/resources', { key })).body.data as { kind: string }[];
    expect(res.length).toBeGreaterThan(0);
  });

  it('shows METHOD /path beside the kind and puts in the chosen kind\'s example when the kind changes', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    const kind = c.doc.querySelector('#compose-kind') as unknown as HTMLSelectElement;
    const body = () => JSON.parse((c.doc.querySelector('#compose-body') as unknown as HTMLTextAreaElement).value);
    const choose = async (value: string) => {
      kind.value = value;
      kind.dispatchEvent(new c.win.Event('change', { bubbles: true }) as unknown as Event);
      await c.api.idle();
    };
    // Ready at sign-in: the payout example, and where it goes.
    expect(c.text('[data-field="compose-target"]')).toBe('POST /api/v1/partners/payouts');
    expect(body()).toMatchObject({ currency: 'NGN', destination: { bankCode: '058' } });
    await choose('withdrawal');
    expect(c.text('[data-field="compose-target"]')).toBe('POST /api/v1/partners/withdrawal');
    expect(Object.keys(body())).toEqual(['accountId', 'accountName', 'accountNumber', 'amount', 'bankCode', 'authCode']);
    await c.click('[data-action="compose-send"]');
    expect(c.text('[data-view="compose"]')).toContain('POST /api/v1/partners/withdrawal → 201');
    await choose('fx-trade');
    expect(c.text('[data-field="compose-target"]')).toBe('POST /api/v1/partners/fx/trades');
    expect((c.doc.querySelector('#compose-body') as unknown as HTMLTextAreaElement).value).toContain('<FXTradInstr>');
  });

  it('creates one transfer as one transfer; the demo bulk file is made only by its labelled button', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    const kind = c.doc.querySelector('#compose-kind') as unknown as HTMLSelectElement;
    kind.value = 'transfer';
    kind.dispatchEvent(new c.win.Event('change', { bubbles: true }) as unknown as Event);
    await c.click('[data-action="compose-send"]');
    expect(c.text('[data-view="compose"]')).toContain('POST /api/v1/transfers → 201');
    const cards = () => [...c.doc.querySelectorAll('[data-view="resources"] .resource')].map((r) => r.getAttribute('data-kind'));
    expect(cards()).toEqual(['transfers']);
    expect((await t.call('GET', '/_sandbox/resources?limit=1')).body.counts).toMatchObject({ transfers: 1 });
    const button = c.doc.querySelector('[data-action="demo-bulk"]')!;
    expect(button.textContent).toBe('Make the demo bulk file (24 settled transfers)');
    await c.click('[data-action="demo-bulk"]');
    expect(c.text('[data-field="action-result"]')).toBe('Demo bulk file bulk_demo_salaries: made, 24 settled transfers');
    expect(c.sent.some((s) => s.url === '/_sandbox/bulk-disbursements/demo')).toBe(true);
    expect(c.text('[data-field="resources-count"]')).toBe('Showing 25 of 26');
    await c.click('[data-action="more"][data-list="resources"]');
    expect(c.doc.querySelector('[data-view="resources"] .resource[data-kind="bulk-disbursements"][data-id="bulk_demo_salaries"]')).not.toBeNull();
    await c.click('[data-action="demo-bulk"]');
    expect(c.text('[data-field="action-result"]')).toBe('Demo bulk file bulk_demo_salaries: already here, 24 settled transfers');
  });

  it('shows the server\'s refusal when the edited body is wrong', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t);
    await c.signIn(KEY);
    (c.doc.querySelector('#compose-body') as unknown as HTMLTextAreaElement).value = JSON.stringify({ reference: 'bad-1', amount: -5, currency: 'NGN' });
    await c.click('[data-action="compose-send"]');
    expect(c.text('[data-view="compose"]')).toContain('→ 400');
    expect(c.text('[data-field="action-result"]')).toMatch(/^Create a fiat payout: 400: /);
  });

  it('updates by itself when the tenant changes elsewhere', async () => {
    const t = await createTestApp();
    const c = await consoleFor(t, { pollMs: 20 });
    await c.signIn(KEY);
    expect(c.text('[data-view="resources"]')).toContain('No resources yet');
    await t.call('POST', '/api/v1/partners/payouts', { body: payout('made-by-curl') });
    await expect.poll(() => c.doc.querySelector('.resource[data-id="made-by-curl"] header .status')?.textContent, { timeout: 2000 }).toBe('PENDING');
    await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 30 } });
    await expect.poll(() => c.doc.querySelector('.resource[data-id="made-by-curl"] header .status')?.textContent, { timeout: 2000 }).toBe('PROCESSING');
  });
});

describe('live keys in the console', () => {
  it('marks simulate moves and the flows\' /_sandbox calls as sandbox only under a live key, and not under a test key', async () => {
    const t = await createTestApp();
    const live = await consoleFor(t);
    await live.signIn(LIVE_KEY);
    expect(live.text('[data-field="mode"]')).toContain('marked "sandbox only" do not exist on the live service');
    await live.click('[data-action="compose-send"]');
    expect(live.text('[data-view="compose"]')).toContain('POST /api/v1/partners/payouts → 201');
    const moves = live.doc.querySelector('[data-view="resources"] .resource[data-kind="payouts"] .moves')!;
    expect(moves.textContent).toMatch(/^Simulate sandbox only: process$/);
    expect(moves.querySelector('.sandbox-only')!.getAttribute('title')).toContain('The live service has no such call');
    await live.click('[data-flow="marketplace-quote"]');
    const marked = [...live.doc.querySelectorAll('[data-view="flow-log"] .exchange')].map((x) => [x.querySelector('code.path')!.textContent!.split('/')[1], x.querySelector('h3 .sandbox-only') !== null]);
    expect(marked).toContainEqual(['_sandbox', true]);
    for (const [root, isMarked] of marked) expect(isMarked).toBe(root === '_sandbox');

    const test = await consoleFor(t);
    await test.signIn(KEY);
    await test.click('[data-action="compose-send"]');
    expect(test.text('[data-view="resources"] .resource[data-kind="payouts"] .moves')).toMatch(/^Simulate: process$/);
    await test.click('[data-flow="marketplace-quote"]');
    expect(test.doc.querySelectorAll('.sandbox-only')).toHaveLength(0);
  });
});

describe('keys and tenants in the console', () => {
  it('shows only the signed-in tenant, and the key appears in no URL, journal, event or page text', async () => {
    const t = await createTestApp();
    await t.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body: payout('tenant-b-secret-payout') });
    const c = await consoleFor(t);
    await c.signIn(KEY);
    await c.api.runFlow('fiat-payout');
    await c.api.runFlow('failing-payout');
    await c.api.runFlow('marketplace-quote');
    await c.api.runFlow('fx-trade');
    expect(c.text('[data-field="flow-outcome"]')).toMatch(/ is completed \(COMP\)$/);
    const html = c.doc.documentElement.outerHTML;
    expect(html).not.toContain('tenant-b-secret-payout');
    expect(html).not.toContain(KEY);
    // The address names the view shown, never the key.
    expect(c.win.location.href).toBe('http://127.0.0.1:4010/console#/flows');
    expect(c.sent.length).toBeGreaterThan(20);
    for (const s of c.sent) {
      expect(s.url).not.toContain('sk_');
      expect(s.headers.authorization).toMatch(/^Bearer sk_test_/);
    }
    const everything = JSON.stringify([
      (await t.call('GET', '/_sandbox/requests?limit=1000')).body,
      (await t.call('GET', '/_sandbox/events?limit=1000')).body,
      (await t.call('GET', '/_sandbox/resources')).body,
    ]);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('tenant-b-secret-payout');
    // Page and asset loads are not API requests: nothing about them is journaled.
    expect(everything).not.toContain('"path":"/console');
  });
});
