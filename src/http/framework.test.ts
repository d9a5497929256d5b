// One test per assumption framework.ts makes about Hono and @hono/node-server, named after it: an
// upgrade that breaks an assumption fails the test of that name.
import { serve } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  asOwnBodyLimit,
  bodyTextRead,
  KeptStaticRouter,
  nodeRequest,
  nodeResponse,
  replaceResponse,
  routeHasOwnBodyLimit,
  setBodyText,
  setRequestHeader,
} from './framework.js';
import type { AppEnv } from './types.js';
import { budgetedJson } from './json-body.js';

function router() {
  const r = new KeptStaticRouter<string>();
  r.add('ALL', '/api/*', 'api-middleware');
  r.add('POST', '/api/v1/transfers', 'create-transfer');
  r.add('GET', '/api/v1/transfers/:reference', 'read-transfer');
  r.add('GET', '/api/v1/transfers/bulk/:id/transfers', 'bulk-page');
  return r;
}

const handlers = (result: ReturnType<KeptStaticRouter<string>['match']>) =>
  (result[0] as [string, Record<string, string>][]).map(([h, params]) => [h, { ...params }]);

describe('router result: KeptStaticRouter', () => {
  it('answers a path without parameters with the same match each time', () => {
    const r = router();
    const first = r.match('POST', '/api/v1/transfers');
    expect(handlers(first)).toEqual([
      ['api-middleware', {}],
      ['create-transfer', {}],
    ]);
    expect(r.match('POST', '/api/v1/transfers')).toBe(first);
  });

  it('matches paths with parameters afresh, so each request gets its own values', () => {
    const r = router();
    expect(handlers(r.match('GET', '/api/v1/transfers/ref-1'))).toEqual([
      ['api-middleware', {}],
      ['read-transfer', { reference: 'ref-1' }],
    ]);
    expect(handlers(r.match('GET', '/api/v1/transfers/ref-2'))).toEqual([
      ['api-middleware', {}],
      ['read-transfer', { reference: 'ref-2' }],
    ]);
    expect(handlers(r.match('GET', '/api/v1/transfers/bulk/b-9/transfers'))).toEqual([
      ['api-middleware', {}],
      ['bulk-page', { id: 'b-9' }],
    ]);
  });

  it('keeps a bounded number of paths and still matches every other one correctly', () => {
    const r = router();
    for (let i = 0; i < 600; i++) r.match('DELETE', `/api/unknown-${i}`);
    const late = r.match('DELETE', '/api/unknown-599');
    expect(handlers(late)).toEqual([['api-middleware', {}]]);
    expect(r.match('DELETE', '/api/unknown-599')).not.toBe(late);
    expect(r.match('DELETE', '/api/unknown-0')).toBe(r.match('DELETE', '/api/unknown-0'));
  });

  it('keeps the answers of the most recent paths with parameters, values included, and matches older ones afresh', () => {
    const r = router();
    const first = r.match('GET', '/api/v1/transfers/ref-1');
    expect(r.match('GET', '/api/v1/transfers/ref-1')).toBe(first);
    expect(handlers(first)).toEqual([
      ['api-middleware', {}],
      ['read-transfer', { reference: 'ref-1' }],
    ]);
    for (let i = 0; i < 1100; i++) expect(handlers(r.match('GET', `/api/v1/transfers/r-${i}`))[1]).toEqual(['read-transfer', { reference: `r-${i}` }]);
    const again = r.match('GET', '/api/v1/transfers/ref-1');
    expect(again).not.toBe(first);
    expect(handlers(again)).toEqual(handlers(first));
    expect(r.match('GET', '/api/v1/transfers/r-1099')).toBe(r.match('GET', '/api/v1/transfers/r-1099'));
  });

  it('drops the oldest kept path when full, not every one, and keeps no path longer than 256 characters', () => {
    const r = router();
    for (let i = 0; i < 1024; i++) r.match('GET', `/api/v1/transfers/r-${i}`);
    const newest = r.match('GET', '/api/v1/transfers/r-1023');
    r.match('GET', '/api/v1/transfers/one-more');
    // The newest ones stay kept; the oldest was matched afresh.
    expect(r.match('GET', '/api/v1/transfers/r-1023')).toBe(newest);
    const oldest = r.match('GET', '/api/v1/transfers/r-0');
    expect(r.match('GET', '/api/v1/transfers/r-0')).toBe(oldest);
    const long = `/api/v1/transfers/${'x'.repeat(300)}`;
    expect(r.match('GET', long)).not.toBe(r.match('GET', long));
    expect(handlers(r.match('GET', long))[1]).toEqual(['read-transfer', { reference: 'x'.repeat(300) }]);
  });

  it('forgets what it kept when a route is added', () => {
    const r = router();
    r.match('PUT', '/api/v1/transfers');
    r.match('PUT', '/api/v1/transfers/ref-1');
    r.add('PUT', '/api/v1/transfers', 'put-transfer');
    r.add('PUT', '/api/v1/transfers/:reference', 'put-one');
    expect(handlers(r.match('PUT', '/api/v1/transfers'))).toEqual([
      ['api-middleware', {}],
      ['put-transfer', {}],
    ]);
    expect(handlers(r.match('PUT', '/api/v1/transfers/ref-1'))).toEqual([
      ['api-middleware', {}],
      ['put-one', { reference: 'ref-1' }],
    ]);
  });
});

describe('router result: Hono', () => {
  it('asks the router on every request and uses a kept result unchanged', async () => {
    const app = new Hono({ router: new KeptStaticRouter() });
    let calls = 0;
    app.use('/api/*', async (_c, next) => {
      calls++;
      await next();
    });
    app.get('/api/items', (c) => c.text('list'));
    app.get('/api/items/:id', (c) => c.text(`item ${c.req.param('id')}`));
    expect(await (await app.request('/api/items')).text()).toBe('list');
    expect(await (await app.request('/api/items')).text()).toBe('list');
    expect(await (await app.request('/api/items/a')).text()).toBe('item a');
    expect(await (await app.request('/api/items/b')).text()).toBe('item b');
    expect(await (await app.request('/api/items/a')).text()).toBe('item a');
    expect(calls).toBe(5);
  });
});

describe('body cache', () => {
  it('makes text put in bodyCache.text what c.req.json() and the route validators read', async () => {
    const app = new OpenAPIHono<AppEnv>();
    app.use('*', async (c, next) => {
      setBodyText(c, Promise.resolve('{"n": 2}'));
      await next();
    });
    app.post('/read', async (c) => c.json(await c.req.json()));
    const valid = createRoute({
      method: 'post',
      path: '/valid',
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ n: z.number() }) } } } },
      responses: { 200: { description: 'The body as validated' } },
    });
    app.openapi(valid, (c) => c.json(c.req.valid('json')));
    const send = (path: string) => app.request(path, { method: 'POST', body: '{"n": 1}', headers: { 'content-type': 'application/json' } });
    expect(await (await send('/read')).json()).toEqual({ n: 2 });
    expect(await (await send('/valid')).json()).toEqual({ n: 2 });
  });

  it('parses the text once per request under budgetedJson: every c.req.json() and the validator share one value', async () => {
    const app = new OpenAPIHono<AppEnv>();
    app.use('*', budgetedJson(), async (c, next) => {
      setBodyText(c, Promise.resolve('{"n": 3}'));
      await next();
    });
    const valid = createRoute({
      method: 'post',
      path: '/twice',
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ n: z.number() }) } } } },
      responses: { 200: { description: 'Whether two reads gave one value' } },
    });
    app.openapi(valid, async (c) => c.json({ same: (await c.req.json()) === (await c.req.json()), n: c.req.valid('json').n }));
    const res = await app.request('/twice', { method: 'POST', body: '{"n": 1}', headers: { 'content-type': 'application/json' } });
    expect(await res.json()).toEqual({ same: true, n: 3 });
  });

  it('keeps the text a route read in bodyCache.text', async () => {
    const app = new Hono<AppEnv>();
    let seen: Promise<string> | undefined;
    app.use('*', async (c, next) => {
      expect(bodyTextRead(c)).toBeUndefined();
      await next();
      seen = bodyTextRead(c);
    });
    app.post('/read', async (c) => c.json(await c.req.json()));
    await app.request('/read', { method: 'POST', body: '{"a": 1}', headers: { 'content-type': 'application/json' } });
    expect(await seen).toBe('{"a": 1}');
  });
});

describe('node request', () => {
  it("hands app.fetch Node's request as env.incoming, with its parsed headers and socket, and its response as env.outgoing", async () => {
    const app = new Hono<AppEnv>();
    app.get('/', (c) => {
      const incoming = nodeRequest(c);
      const outgoing = nodeResponse(c);
      return c.json({
        header: incoming?.headers['x-probe'],
        socket: typeof incoming?.socket?.destroy,
        sameSocket: outgoing?.socket === incoming?.socket,
        unsent: typeof outgoing?.writableLength,
      });
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'x-probe': 'yes' } });
      expect(await res.json()).toEqual({ header: 'yes', socket: 'function', sameSocket: true, unsent: 'number' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const inProcess = new Hono<AppEnv>().get('/', (c) => c.text(`${nodeRequest(c)} ${nodeResponse(c)}`));
    expect(await (await inProcess.request('/')).text()).toBe('undefined undefined');
  });
});

describe('request headers', () => {
  it("lets a middleware set a header that c.req.header and @hono/zod-openapi's media-type check then read, in process and over Node", async () => {
    const app = new OpenAPIHono<AppEnv>();
    app.use('*', (c, next) => {
      setRequestHeader(c, 'content-type', 'application/json');
      return next();
    });
    const route = createRoute({
      method: 'post',
      path: '/valid',
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ n: z.number() }) } } } },
      responses: { 200: { description: 'The body as validated, and the type the route saw' } },
    });
    app.openapi(route, (c) => c.json({ body: c.req.valid('json'), type: c.req.header('content-type') }));
    // Without the middleware the library's check refuses this spelling with 415.
    const init = { method: 'POST', body: '{"n": 1}', headers: { 'content-type': 'application/json ; charset=utf-8' } };
    expect(await (await app.request('/valid', init)).json()).toEqual({ body: { n: 1 }, type: 'application/json' });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/valid`, init);
      expect(await res.json()).toEqual({ body: { n: 1 }, type: 'application/json' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('response replace', () => {
  it('gives the new response alone, without the headers of the one it replaces', async () => {
    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      await next();
      replaceResponse(c, new Response('replaced', { status: 503 }));
    });
    app.get('/', (c) => c.text('first', 200, { 'x-first': 'yes' }));
    const res = await app.request('/');
    expect([res.status, await res.text(), res.headers.get('x-first')]).toEqual([503, 'replaced', null]);
  });
});

describe('plain middleware', () => {
  it('awaits the next() promise a middleware that is not async returns, and sends what it throws to onError', async () => {
    const app = new Hono<AppEnv>();
    app.onError((err, c) => c.text(`caught ${err.message}`, 418));
    const plain: MiddlewareHandler<AppEnv> = (c, next) => {
      if (c.req.query('fail')) throw new Error('at once');
      return next();
    };
    app.use('*', plain);
    app.get('/', async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return c.text('handled');
    });
    const ok = await app.request('/');
    expect([ok.status, await ok.text()]).toEqual([200, 'handled']);
    const failed = await app.request('/?fail=1');
    expect([failed.status, await failed.text()]).toEqual([418, 'caught at once']);
  });
});

describe('matched routes', () => {
  it("lets an app-level middleware see a mounted route's own middleware before the handler runs", async () => {
    const app = new Hono<AppEnv>();
    const seen: boolean[] = [];
    app.use('*', async (c, next) => {
      seen.push(routeHasOwnBodyLimit(c));
      await next();
    });
    const own = asOwnBodyLimit<MiddlewareHandler<AppEnv>>((_c, next) => next());
    const routes = new Hono<AppEnv>().post('/upload', own, (c) => c.text('up')).post('/other', (c) => c.text('other'));
    app.route('/', routes);
    expect(await (await app.request('/upload', { method: 'POST' })).text()).toBe('up');
    expect(await (await app.request('/other', { method: 'POST' })).text()).toBe('other');
    expect(seen).toEqual([true, false]);
  });
});
