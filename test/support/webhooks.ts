// A real webhook receiver on port 0 (node:http) and a test app wired to an explicit outbox, for the
// webhook tests. Every signature is checked with the standardwebhooks package, never our own code.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { Outbox, type OutboxOptions } from '../../src/domains/webhooks/index.js';
import { createTestApp, KEY } from './app.js';
import { afterThisTest } from './cleanup.js';

export interface Received {
  headers: Record<string, string>;
  body: string;
}

export interface Receiver {
  url: string;
  got: Received[];
  /** Statuses to answer with, in order; 200 once they run out; 0 never answers. */
  plan: number[];
  events(): string[];
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}


export async function receiver(): Promise<Receiver> {
  const got: Received[] = [];
  const plan: number[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: flat(req.headers), body });
      for (const w of waiting.filter((w) => got.length >= w.n)) w.resolve();
      const status = plan.shift() ?? 200;
      if (status !== 0) res.writeHead(status, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  afterThisTest(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    got,
    plan,
    events: () => got.map((g) => JSON.parse(g.body).event),
    waitFor: (n) => (got.length >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }))),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function flat(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Verify every request with the standardwebhooks package; returns the parsed bodies. */
export function verifyAll(r: Receiver, secret: string) {
  return r.got.map((g) => new Webhook(secret).verify(g.body, g.headers) as { event: string; data: Record<string, unknown> });
}

export const payout = (reference: string) => ({
  reference,
  amount: 2500,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
});

export async function setup(opts: Partial<OutboxOptions> = {}, app: { advanceWaitMs?: number } = {}) {
  const outbox = new Outbox(opts);
  const t = await createTestApp({ outbox, ...app });
  const r = await receiver();
  const hook = async (body: Record<string, unknown>, key = KEY) => {
    const res = await t.call('PUT', '/_sandbox/webhooks', { key, body: { url: r.url, ...body } });
    expect(res.status).toBe(200);
    return res.body.secret as string;
  };
  const pay = async (reference: string, key = KEY) => expect((await t.call('POST', '/api/v1/partners/payouts', { key, body: payout(reference) })).status).toBe(201);
  const deliveries = async (key = KEY, query = '') => (await t.call('GET', `/_sandbox/webhooks/deliveries${query}`, { key })).body;
  return { t, outbox, r, hook, pay, deliveries };
}
