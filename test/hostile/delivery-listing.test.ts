// The webhook delivery log lists up to 500 deliveries with up to 20 attempts each (5 MB): stringified
// in one go in the request's own turn, twenty listings of one key sent at once held every key 450 ms.
// It is now written a slice at a time from a turn of its own; the turns are counted, not timed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, KEY } from '../support/app.js';
import { turnsDuring } from '../support/turns.js';

let receiver: Server;
let url: string;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => {
  receiver.close();
});

describe('the webhook delivery log', () => {
  it('is written a slice at a time, every delivery in it, newest first', async () => {
    const t = await createTestApp();
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url } })).status).toBe(200);
    for (let i = 0; i < 90; i++) expect((await t.call('POST', '/_sandbox/webhooks/test')).status).toBe(202);
    const res = await t.app.request('/_sandbox/webhooks/deliveries?limit=500', { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    const { result: text, turns } = await turnsDuring(() => res.text());
    expect(turns).toBeGreaterThanOrEqual(3);
    const body = JSON.parse(text) as { data: { id: string; event: string; createdAt: string }[]; counts: Record<string, number>; limits: Record<string, unknown> };
    expect(body.data).toHaveLength(90);
    expect(body.data.every((d) => d.event === 'webhook.test')).toBe(true);
    expect(Object.values(body.counts).reduce((a, b) => a + b, 0)).toBe(90);
    expect(body.limits).toMatchObject({ deliveriesKept: 500, pendingMax: 100 });
    // The listing as the document describes it.
    const checked = await t.call('GET', '/_sandbox/webhooks/deliveries?limit=5');
    expect(checked.body.data.map((d: { id: string }) => d.id)).toEqual(body.data.slice(0, 5).map((d) => d.id));
  });
});
