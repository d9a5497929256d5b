// A long JSON listing is written a slice at a time, after its status and headers are out. An item
// that cannot be written as JSON partway (a BigInt, a toJSON that throws) cannot change the status
// any more: the connection is cut, so a client meets an error rather than a body that ends cleanly
// and might be taken for a whole page. Served the way startServer serves the app.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { streamedList } from '../../src/http/json-list.js';
import { afterThisTest } from '../support/cleanup.js';

async function serve(items: unknown[]): Promise<string> {
  const app = new Hono().get('/list', (c) => streamedList(c, 'data', items, { hasMore: false }));
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  afterThisTest(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/list`;
}

const items = () => Array.from({ length: 60 }, (_, n): unknown => ({ n }));

afterEach(() => vi.restoreAllMocks());

describe('a streamed JSON listing over a real connection', () => {
  it('is the whole JSON when every item is written', async () => {
    const res = await fetch(await serve(items()));
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/json']);
    const body = await res.json();
    expect([body.data.length, body.data[59], body.hasMore]).toEqual([60, { n: 59 }, false]);
  });

  it.each([
    ['in its first slice', 3],
    ['past its first slice', 40],
  ])('cuts the connection when an item cannot be written %s', async (_, at) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const list = items();
    list[at] = { n: 1n };
    const res = await fetch(await serve(list));
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow('terminated');
    const throwing = items();
    throwing[at] = { toJSON: () => { throw new Error('no JSON'); } };
    await expect((await fetch(await serve(throwing))).text()).rejects.toThrow('terminated');
  });
});
