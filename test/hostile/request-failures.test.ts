// No single request stops the server. An exception escaping a request's own work outside its await
// chain (a timer it started, a stream's callback, a parser's event) is that request's 500
// INTERNAL_ERROR, or its connection cut once the answer has begun; other keys go on being answered.
// The bulk CSV upload whose parser error used to end the process is the case that was met.
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { OpenAPIHono } from '@hono/zod-openapi';
import { createAdaptorServer } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { domains } from '../../src/domains/index.js';
import type { DomainModule } from '../../src/domains/module.js';
import { scopeOf } from '../../src/http/scope-middleware.js';
import type { AppEnv } from '../../src/http/types.js';
import { createTestApp, KEY, KEY_B, payoutRequest } from '../support/app.js';

const UPLOAD = '/_sandbox/bulk-disbursements';
const HEADER = 'reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,destination.bankCode,category';
const csv = (name: string) => `${HEADER}\n3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f,2500,NGN,BANK,1000200030,0123456789,${name},058,SALARY\n`;

describe('a bulk CSV the parser refuses', () => {
  it('is a 400 naming the line and the column, and the sandbox goes on answering', async () => {
    const t = await createTestApp();
    const res = await t.call('POST', UPLOAD, { raw: csv('O"Brien'), headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BULK_FILE');
    expect(res.body.message).toContain('line 2, column 7 (destination.accountName)');
    expect(res.body.message).toContain('"O""Brien"');
    expect(res.body.error.details).toEqual([
      { field: 'row 2', issue: 'is not valid CSV at line 2, column 7 (destination.accountName): a double quote inside a cell must be doubled and the cell quoted' },
    ]);
    // The same name, quoted as CSV quotes it, is a row like any other.
    const ok = await t.call('POST', UPLOAD, { raw: csv('"O""Brien"'), headers: { 'content-type': 'text/csv' } });
    expect(ok.status, ok.text).toBe(201);
    expect((await t.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body: payoutRequest('after-csv') })).status).toBe(201);
  });

  it('names the opening quote of a short file, as the report had it', async () => {
    const t = await createTestApp();
    const res = await t.call('POST', UPLOAD, { raw: 'reference,amount\nab"c,1', headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ field: 'row 2' });
    expect(res.body.message).toContain('line 2, column 1 (reference)');
  });

  it('is refused the same way past the first chunk the parser is given', async () => {
    const t = await createTestApp();
    const rows = Array.from({ length: 400 }, (_, i) => `3f1c2a9e-8b7d-4c6e-9f10-${String(i).padStart(12, '0')},2500,NGN,BANK,1000200030,0123456789,Ada Obi,058,SALARY`);
    rows.push('row-x,2500,NGN,BANK,1000200030,0123456789,Ada "Q" Obi,058,SALARY');
    const res = await t.call('POST', UPLOAD, { raw: `${HEADER}\n${rows.join('\n')}\n`, headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('line 402, column 7 (destination.accountName)');
  });
});

/** Routes whose callbacks throw, each registered the way a route registers work outside its await chain. */
function throwingRoutes(): DomainModule {
  const routes = new OpenAPIHono<AppEnv>();
  // A timer the request started, whose callback throws before the answer is made.
  routes.get('/api/v1/test/timer', (c) => {
    const scope = scopeOf(c);
    return new Promise<Response>((resolve) => {
      setTimeout(
        scope.guard(() => {
          throw new Error('a timer of the request failed');
        }),
        5,
      );
      setTimeout(() => resolve(c.json({ never: true })), 60_000).unref();
    });
  });
  // An async callback whose promise rejects.
  routes.get('/api/v1/test/async-timer', (c) => {
    const scope = scopeOf(c);
    return new Promise<Response>(() => {
      setTimeout(
        scope.guard(async () => {
          await Promise.resolve();
          throw new Error('an async callback of the request failed');
        }),
        5,
      );
    });
  });
  // A parser's event: the handler of a stream's data event throws.
  routes.get('/api/v1/test/parser-event', (c) => {
    const scope = scopeOf(c);
    return new Promise<Response>((resolve) => {
      const input = Readable.from(['a', 'b']);
      input.on(
        'data',
        scope.guard(() => {
          throw new Error('a parser event failed');
        }),
      );
      input.on('end', () => resolve(c.json({ read: true })));
    });
  });
  // An event stream whose timer throws once its headers and first event are out.
  routes.get('/api/v1/test/stream', (c) => {
    const scope = scopeOf(c);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('event: hello\ndata: {}\n\n'));
        setTimeout(
          scope.guard(() => {
            throw new Error('a stream callback failed');
          }),
          20,
        );
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  return { routes };
}

describe('an exception in a callback a request registered', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  async function listening() {
    const logged: string[] = [];
    const original = console.error;
    console.error = (msg: unknown) => void logged.push(String(msg));
    const t = await createTestApp({ domains: [...domains, throwingRoutes()] });
    const server = createAdaptorServer({ fetch: t.app.fetch }) as import('node:http').Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => {
      console.error = original;
      server.closeAllConnections();
      server.close();
    };
    return { url, logged };
  }

  const get = (url: string, key = KEY) => fetch(url, { headers: { authorization: `Bearer ${key}` } });

  async function othersAnswered(url: string, reference: string) {
    expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);
    const res = await fetch(`${url}/api/v1/partners/payouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY_B}`, 'content-type': 'application/json' },
      body: JSON.stringify(payoutRequest(reference)),
    });
    expect(res.status).toBe(201);
  }

  for (const [path, what] of [
    ['/api/v1/test/timer', 'a timer'],
    ['/api/v1/test/async-timer', 'an async callback'],
    ['/api/v1/test/parser-event', 'a parser event'],
  ] as const) {
    it(`is that request's 500 INTERNAL_ERROR, with its id logged, when ${what} throws`, async () => {
      const { url, logged } = await listening();
      const res = await get(url + path);
      expect(res.status).toBe(500);
      const body = (await res.json()) as { message: string; error: { code: string } };
      expect(body.error.code).toBe('INTERNAL_ERROR');
      const id = /request id (r[0-9a-z]+)/.exec(body.message)?.[1];
      expect(id).toBeDefined();
      expect(logged.some((l) => l.includes(`request ${id} failed`))).toBe(true);
      await othersAnswered(url, `after-${path.split('/').pop()}`);
      // The failure is journaled like any answer.
      const journal = (await (await get(`${url}/_sandbox/requests`)).json()) as { data: { path: string; status: number }[] };
      expect(journal.data.find((e) => e.path === path)?.status).toBe(500);
    });
  }

  it('cuts the connection of an answer already begun, and the server goes on', async () => {
    const { url } = await listening();
    const res = await get(`${url}/api/v1/test/stream`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: hello');
    await expect(reader.read()).rejects.toThrow();
    await othersAnswered(url, 'after-stream');
  });
});
