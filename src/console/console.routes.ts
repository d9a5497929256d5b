// /console: the page, its script and its stylesheet, all from the sandbox itself (it works offline);
// and / (the landing page, ./landing.ts). No route here takes a key or touches a tenant: the pages
// are the same for every visitor.
import { createRoute, z } from '@hono/zod-openapi';
import { CONTROL_TAG, newRouter, openErrorResponses } from '../http/openapi.js';
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

const Landing = z
  .object({
    name: z.literal('payments-sandbox'),
    description: z.string(),
    links: z.record(z.string(), z.string()).openapi({ description: 'Where to go: console, docs, openapi, health' }),
  })
  .openapi('Landing');

const landingRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getLanding',
  tags: [CONTROL_TAG.name],
  security: [],
  summary: 'What this server is, and links to the console, the docs, the OpenAPI document and the health (no key needed)',
  description: 'A browser (an Accept header naming text/html) gets the same as an HTML page.',
  responses: {
    200: { description: 'What this is and where to go', content: { 'application/json': { schema: Landing }, 'text/html': { schema: z.string() } } },
    ...openErrorResponses(),
  },
});

export function consoleRoutes(opts: { pollMs?: number } = {}) {
  const flows = flowCatalog().map(({ id, title, outline }) => ({ id, title, outline }));
  const page = consolePage(flows);
  // Read on first request: building the app needs no bundle (the API alone runs without one).
  let script: string | undefined;
  const landing = landingPage();
  return (
    newRouter()
      // A browser gets the landing page; any other client the same links as JSON. Either way 200.
      .openapi(landingRoute, (c) =>
        wantsHtml(c) ? c.html(landing, 200, { ...HEADERS, vary: 'Accept' }) : c.json(landingJson(), 200, { 'cache-control': 'no-store', vary: 'Accept' }),
      )
      // A query string is never needed: drop it, so nothing typed into one stays in the address bar.
      .get('/console', (c) => (c.req.url.includes('?') ? c.redirect('/console', 303) : c.html(page, 200, HEADERS)))
      .get('/console/', (c) => c.redirect('/console', 301))
      .get('/console/console.js', (c) => c.body((script ??= consoleScript(opts.pollMs)), 200, { ...HEADERS, 'content-type': 'text/javascript; charset=utf-8' }))
      .get('/console/favicon.svg', (c) => c.body(ICON, 200, { ...HEADERS, 'content-type': 'image/svg+xml' }))
      .get('/console/console.css', (c) => c.body(CONSOLE_CSS, 200, { ...HEADERS, 'content-type': 'text/css; charset=utf-8' }))
  );
}
