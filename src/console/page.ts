// The console's page, rendered on the server. It holds no tenant data: the browser script fills
// every view through the API with the key the visitor typed, which stays in sessionStorage.
//
// Written with hono's `html` template rather than hono/jsx: rendering JSX switches on an
// AsyncLocalStorage for the life of the process, which taxes every promise of every API request.
import { html } from 'hono/html';
import type { Flow } from './client/flow.js';

const ADVANCES = [
  { label: '+1 minute', seconds: 60 },
  { label: '+1 hour', seconds: 3600 },
  { label: '+1 day', seconds: 86400 },
];

/** The views of the sidebar, in its order; each section of the page belongs to one. */
export const PAGES = [
  { id: 'flows', title: 'Flows' },
  { id: 'resources', title: 'Resources' },
  { id: 'webhooks', title: 'Webhooks' },
  { id: 'market', title: 'Market' },
  { id: 'readiness', title: 'Readiness' },
  { id: 'settings', title: 'Settings' },
] as const;

const view = (id: string, title: string, opts: { page: string; wide?: boolean; children?: unknown }) =>
  html`<section id="${id}" data-page="${opts.page}" class="needs-key${opts.wide ? ' wide' : ''}"><h2>${title}</h2>${opts.children}<div data-view="${id}"></div></section>`;

export function consolePage(flows: Pick<Flow, 'id' | 'title' | 'outline'>[]): string {
  const flowButtons = flows.map(
    (f) => html`<button type="button" data-action="flow" data-flow="${f.id}">${f.title}<small>${f.outline}</small></button>`,
  );
  const advances = ADVANCES.map(
    (a) => html`<button type="button" data-action="advance" data-seconds="${String(a.seconds)}">${a.label}</button> `,
  );
  const head = html`<head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/><meta name="referrer" content="no-referrer"/><title>payments-sandbox console</title><link rel="icon" href="/console/favicon.svg" type="image/svg+xml"/><link rel="stylesheet" href="/console/console.css"/><script src="/console/console.js" defer=""></script></head>`;
  // The key screen is the main content until a key is entered: it sits in <main>, so the page has its main landmark from the start.
  const gate = html`<div class="gate"><label for="key">API key (sk_test_ for test mode, sk_live_ for live simulation) </label><input id="key" type="password" autocomplete="off" spellcheck="false" placeholder="sk_test_…" size="44"/> <button type="button" class="primary" data-action="sign-in">Open</button> <span data-field="key-error" role="alert"></span><div class="muted">The key stays in this browser tab (sessionStorage) and is sent only in the Authorization header.</div></div>`;
  const signedIn = html`<div class="signed-in"><p class="mode" data-field="mode" role="status"></p>Key <code data-field="key"></code> <button type="button" data-action="forget-key">Forget key</button> <span class="muted" data-field="poll"></span> <span data-field="action-result" role="status" aria-live="polite"></span></div>`;
  // One view at a time (the sidebar, or tabs on a phone); #/view in the address selects it, and
  // #/resources/<eventPrefix>/<id> opens one resource.
  const nav = html`<nav class="views needs-key" aria-label="Views">${PAGES.map((p) => html`<a href="#/${p.id}" data-nav="${p.id}">${p.title}</a>`)}<a href="/docs" class="docs-link">API docs</a></nav>`;
  const flowsView = html`<section id="flows" data-page="flows" class="needs-key wide flows"><h2>Guided flows</h2><p class="muted">Each button makes the real API calls with your key; each call is one line as it completes (open it to see the request and the answer).</p><p><label><input type="checkbox" id="step-mode"/> One step at a time: each call waits for "Next step"</label></p><div class="flow-buttons">${flowButtons}</div><h3 data-field="flow-title"></h3><p data-field="flow-outcome" role="status" aria-live="polite"></p><div class="flow-run"><div data-view="flow-log"></div><p class="next-step"><span data-field="next-step" aria-live="polite"></span> <button type="button" class="primary" data-action="next-step" hidden="">Next step</button> <button type="button" data-action="cancel-flow" hidden="">Cancel</button></p><div data-view="sequence"></div></div></section>`;
  const views = [
    view('compose', 'Make a request', {
      page: 'flows',
      wide: true,
      children: html`<p><label for="compose-kind">Create</label> <select id="compose-kind"><option value="payout">a fiat payout</option><option value="wallet-payout">a wallet payout</option><option value="withdrawal">a bank withdrawal</option><option value="transfer">a transfer</option><option value="intent">a marketplace intent</option><option value="fx-trade">an FX trade (XML)</option></select> <code class="target" data-field="compose-target" aria-live="polite"></code> <button type="button" data-action="compose-fill">Fill in an example</button> <button type="button" class="primary" data-action="compose-send">Send</button> <span data-field="compose-result" role="status" aria-live="polite"></span></p><p><label for="compose-body">Request body (edit it freely; the example succeeds as it is; choosing another kind puts in its example)</label></p><textarea id="compose-body" rows="8" cols="80" spellcheck="false"></textarea>`,
    }),
    view('resource-detail', 'Resource', { page: 'resources', wide: true }),
    view('resources', 'Resources and their timelines', {
      page: 'resources',
      wide: true,
      children: html`<p><label for="filter-resources">Filter by kind, id or status</label> <input id="filter-resources" data-filter="resources" type="search" size="24"/></p><p><button type="button" data-action="demo-bulk">Make the demo bulk file (24 settled transfers)</button> <span class="muted">A settled demo file, bulk_demo_salaries, to try the bulk listing's filters on (POST /_sandbox/bulk-disbursements/demo); nothing else makes it.</span></p><p class="muted" data-field="legend">FX trade states, with the API’s codes: new (NEWT), awaiting acceptance · settling (SETT), accepted, awaiting pay-in · completed (COMP) · cancelled (CANC). Green is a final success, red a failure, cancellation or expiry, grey a state still moving.</p>`,
    }),
    view('journal', 'Request journal', {
      page: 'resources',
      wide: true,
      children: html`<p><label for="filter-journal">Filter by method, path or status</label> <input id="filter-journal" data-filter="journal" type="search" size="24"/></p>`,
    }),
    view('deliveries', 'Webhook deliveries', {
      page: 'webhooks',
      wide: true,
      children: html`<p><label for="webhook-url">Webhook URL</label> <input id="webhook-url" type="url" size="40" placeholder="your receiver's URL"/> <button type="button" data-action="webhook-set">Set webhook</button> <button type="button" data-action="webhook-rotate">Rotate secret</button> <button type="button" data-action="webhook-test">Send a test event</button> <button type="button" data-action="webhook-stop">Stop webhooks</button></p><p class="muted">Secret (shown when set or rotated, and nowhere else): <code data-field="webhook-secret"></code></p>`,
    }),
    view('events', 'Event log', {
      page: 'webhooks',
      wide: true,
      children: html`<p><label for="filter-events">Filter by event or resource</label> <input id="filter-events" data-filter="events" type="search" size="24"/></p>`,
    }),
    view('market', 'Market', {
      page: 'market',
      wide: true,
      children: html`<p><button type="button" data-action="market">Read the market now</button> <span class="muted">The rates and the liquidity pools behind quotes and FX trades, on this key's clock; read again as the clock moves while this view is open.</span></p><figure class="chart"><figcaption>The rates over this key's clock (one point per reading)</figcaption><div data-field="market-chart"></div></figure>`,
    }),
    view('readiness', 'Readiness', {
      page: 'readiness',
      wide: true,
      children: html`<p><button type="button" data-action="readiness">Read the report again</button> <span class="muted">Is this key's integration ready for live: each check, its verdict and the evidence (GET /_sandbox/report).</span></p>`,
    }),
    view('clock', 'Clock', { page: 'settings', children: html`<p>${advances}</p>` }),
    view('scenario', 'Scenario', { page: 'settings' }),
    view('balances', 'Balances', {
      page: 'settings',
      children: html`<p><button type="button" data-action="top-up" data-key="NGN" data-amount="1000000">Top up 1,000,000 NGN</button> <button type="button" data-action="top-up" data-key="usdt:base" data-amount="10000">Top up 10,000 USDT on Base</button></p><p class="danger-zone"><button type="button" class="danger" data-action="reset" aria-haspopup="dialog">Reset this key's data…</button> <span class="muted">Asks first.</span></p>`,
    }),
    view('magic', 'Test values', { page: 'settings', wide: true, children: html`<p class="muted">Send one of these in the field named and the resource ends as shown, with no scenario to write (test keys only).</p>` }),
  ];
  // The reset asks first, in a dialog the page owns (window.confirm would stop the page's polling and cannot be styled or labelled).
  const resetDialog = html`<dialog id="reset-dialog" aria-labelledby="reset-title" aria-describedby="reset-what"><h2 id="reset-title">Reset this key's data?</h2><p id="reset-what">The sandbox forgets this key's resources, balances (back to the starting amounts), timed moves, events, request journal, webhook deliveries and clock offset. The webhook settings and the chosen scenario stay. This cannot be undone.</p><p class="dialog-buttons"><button type="button" data-action="reset-cancel" autofocus="">Cancel</button> <button type="button" class="danger" data-action="reset-confirm">Reset this key's data</button></p></dialog>`;
  const page = html`<!doctype html><html lang="en">${head}<body data-state="locked"><header class="top"><h1>payments-sandbox console</h1>${signedIn}</header><div class="shell">${nav}<main tabindex="-1">${gate}${flowsView}${views}</main></div>${resetDialog}</body></html>`;
  // Every piece is synchronous, so the template is a plain string.
  return String(page);
}
