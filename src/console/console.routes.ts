// /console: the page, its script and its stylesheet, all from the sandbox itself (it works offline);
// and / (the landing page, ./landing.ts). No route here takes a key or touches a tenant: the pages
// are the same for every visitor.
import { Hono } from 'hono';
import type { AppEnv } from '../http/types.js';
import { landingJson, landingPage, wantsHtml } from './landing.js';
import { consolePage } from './page.js';
import { consoleScript, flowCatalog } from './script.js';
import { CONSOLE_CSS } from './styles.js';

/** Same-origin only, no inline script, never a CDN, nothing leaks in a Referer. */
const HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2b59c3"/></svg>';

export function consoleRoutes(opts: { pollMs?: number } = {}) {
  const flows = flowCatalog().map(({ id, title, outline }) => ({ id, title, outline }));
  const page = consolePage(flows);
  const script = consoleScript(opts.pollMs);
  const landing = landingPage();
  return (
    new Hono<AppEnv>()
      // A browser gets the landing page; any other client the same links as JSON. Either way 200.
      .get('/', (c) =>
        wantsHtml(c) ? c.html(landing, 200, { ...HEADERS, vary: 'Accept' }) : c.json(landingJson(), 200, { 'cache-control': 'no-store', vary: 'Accept' }),
      )
      // A query string is never needed: drop it, so nothing typed into one stays in the address bar.
      .get('/console', (c) => (c.req.url.includes('?') ? c.redirect('/console', 303) : c.html(page, 200, HEADERS)))
      .get('/console/', (c) => c.redirect('/console', 301))
      .get('/console/console.js', (c) => c.body(script, 200, { ...HEADERS, 'content-type': 'text/javascript; charset=utf-8' }))
      .get('/console/favicon.svg', (c) => c.body(ICON, 200, { ...HEADERS, 'content-type': 'image/svg+xml' }))
      .get('/console/console.css', (c) => c.body(CONSOLE_CSS, 200, { ...HEADERS, 'content-type': 'text/css; charset=utf-8' }))
  );
}
