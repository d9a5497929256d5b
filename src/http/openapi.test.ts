// The router's validation: body, query and path schemas are parsed synchronously (zod's compiled
// check), and a schema with an asynchronous check still gets zod's asynchronous parse.
import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { onError } from './error-responses.js';
import { jsonBody, jsonResponse, newRouter } from './openapi.js';

const Body = z.object({ reference: z.string().min(3), amount: z.number().positive() });
const Checked = z.object({ reference: z.string().refine(async (v) => v !== 'taken', 'is taken: send another reference') });

const ECHO = { 200: jsonResponse(z.any(), 'what the route was given') };

function app() {
  const r = newRouter();
  r.openapi(createRoute({ method: 'post', path: '/plain/{id}', request: { params: z.object({ id: z.string().regex(/^\d+$/) }), body: jsonBody(Body) }, responses: ECHO }), (c) =>
    c.json({ id: c.req.valid('param').id, body: c.req.valid('json') }, 200),
  );
  r.openapi(createRoute({ method: 'post', path: '/checked', request: { body: jsonBody(Checked) }, responses: ECHO }), (c) => c.json(c.req.valid('json'), 200));
  r.onError(onError);
  return r;
}

const post = (path: string, body: unknown) =>
  app().request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the router validation', () => {
  it('hands the handler the parsed body and path, unknown fields dropped', async () => {
    const res = await post('/plain/42', { reference: 'abc', amount: 5, extra: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: '42', body: { reference: 'abc', amount: 5 } });
  });

  it('refuses a bad body field and a bad path parameter in the error envelope, naming each', async () => {
    const body = await post('/plain/42', { reference: 'ab', amount: -1 });
    expect(body.status).toBe(400);
    const fields = ((await body.json()) as { error: { details: { field: string }[] } }).error.details.map((d) => d.field);
    expect(fields).toEqual(['reference', 'amount']);
    const param = await post('/plain/x', { reference: 'abc', amount: 5 });
    expect(param.status).toBe(400);
    expect(((await param.json()) as { error: { details: { field: string }[] } }).error.details[0]?.field).toBe('id');
  });

  it('runs a schema with an asynchronous check asynchronously', async () => {
    const ok = await post('/checked', { reference: 'free' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ reference: 'free' });
    const taken = await post('/checked', { reference: 'taken' });
    expect(taken.status).toBe(400);
    const details = ((await taken.json()) as { error: { details: { field: string; issue: string }[] } }).error.details;
    expect(details).toEqual([{ field: 'reference', issue: expect.stringContaining('is taken') }]);
  });
});
