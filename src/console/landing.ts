// GET /: what this server is, for a person who opens its address, and where to go from here.
// A browser (an Accept that names text/html) gets a plain HTML page; any other client gets the same
// links as JSON, so an API client that calls the root by mistake reads something it can parse.
// Unknown paths, and other methods on /, keep the JSON 404 envelope.
import { html } from 'hono/html';
import type { Context } from 'hono';

export const LANDING_LINKS = [
  { rel: 'console', href: '/console', title: 'Console', text: 'Enter a key and watch its resources, journal, events and webhooks; run guided flows and create resources from examples.' },
  { rel: 'docs', href: '/docs', title: 'API docs', text: 'Every operation of the partner API and the /_sandbox control API, with "Try it out".' },
  { rel: 'openapi', href: '/openapi.json', title: 'OpenAPI document', text: 'The same API as OpenAPI 3.1 JSON, for code generators and API clients.' },
  { rel: 'health', href: '/_sandbox/health', title: 'Health', text: 'Whether this sandbox is up, its version, store and seed (JSON, no key needed).' },
] as const;

const ABOUT = 'A sandbox of the partner payments, FX and transfers API';
const DETAIL =
  'Point an integration at it instead of the live service: every path, field, limit and state of the API document holds, ' +
  'and a control API under /_sandbox moves the clock, scripts failures and shows what happened. ' +
  'Each API key (sk_test_… for test mode, sk_live_… for live simulation) is its own tenant; nothing here reaches a real bank or chain.';

export function landingPage(): string {
  const links = LANDING_LINKS.map(
    (l) => html`<li><a href="${l.href}" data-rel="${l.rel}">${l.title}</a> <code>${l.href}</code><p>${l.text}</p></li>`,
  );
  const page = html`<!doctype html><html lang="en"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/><meta name="referrer" content="no-referrer"/><title>payments-sandbox</title><link rel="icon" href="/console/favicon.svg" type="image/svg+xml"/><link rel="stylesheet" href="/console/console.css"/></head><body class="landing"><main><h1>payments-sandbox</h1><p class="lead">${ABOUT}.</p><p>${DETAIL}</p><h2>Where to go</h2><ul class="links">${links}</ul></main></body></html>`;
  return String(page);
}

/** The root as JSON: what this is and the same links. */
export const landingJson = () => ({
  name: 'payments-sandbox',
  description: `${ABOUT}.`,
  links: Object.fromEntries(LANDING_LINKS.map((l) => [l.rel, l.href])),
});

/** HTML when the Accept header names text/html (browsers do), JSON otherwise. */
export function wantsHtml(c: Context): boolean {
  return /\btext\/html\b/i.test(c.req.header('accept') ?? '');
}
