// GET /: the landing page a presenter meets first (HTML for a browser), the same links as JSON for
// any other client, and the JSON 404 envelope kept for every other unknown path and method.
import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';

describe('the landing page at /', () => {
  it('tells a browser what this is and links the console, the docs, the OpenAPI document and the health', async () => {
    const t = await createTestApp();
    const res = await t.app.request('/', { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('vary')).toBe('Accept');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).not.toMatch(/https?:\/\//);
    const win = new Window({ url: 'http://127.0.0.1:4010/' });
    win.document.write(page);
    const doc = win.document;
    expect(doc.querySelector('h1')!.textContent).toBe('payments-sandbox');
    expect(doc.querySelector('.lead')!.textContent).toBe('A sandbox of the partner payments, FX and transfers API.');
    const links = [...doc.querySelectorAll('ul.links a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Console', '/console'],
      ['API docs', '/docs'],
      ['OpenAPI document', '/openapi.json'],
      ['Health', '/_sandbox/health'],
    ]);
    // Every link answers.
    for (const [, href] of links) expect((await t.app.request(href!)).status).toBe(200);
    await win.happyDOM.abort();
    win.close();
  });

  it('answers an API client (JSON, */* or no Accept) with the same links as JSON', async () => {
    const t = await createTestApp();
    for (const accept of ['application/json', '*/*', undefined]) {
      const res = await t.app.request('/', { headers: accept ? { accept } : {} });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({
        name: 'payments-sandbox',
        description: 'A sandbox of the partner payments, FX and transfers API.',
        links: { console: '/console', docs: '/docs', openapi: '/openapi.json', health: '/_sandbox/health' },
      });
    }
  });

  it('leaves other paths and other methods on / to the JSON 404 envelope', async () => {
    const t = await createTestApp();
    for (const [method, path] of [['GET', '/nothing'], ['GET', '/index.html'], ['POST', '/'], ['DELETE', '/']] as const) {
      const res = await t.app.request(path, { method, headers: { accept: 'text/html' } });
      expect(res.status, `${method} ${path}`).toBe(404);
      const body = await res.json();
      expect(body.error).toMatchObject({ type: 'not_found_error', code: 'ROUTE_NOT_FOUND' });
    }
  });
});
