// POST /_sandbox/webhooks/probe against real receivers on port 0: one that verifies with the
// standardwebhooks package (it passes), one that accepts everything and one that refuses everything
// (both fail), one that is down and one the target policy refuses. The probes' deliveries are
// marked in the log and never retried; the key's last result outlives a reset.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { lastProbe, ordinaryDeliveries } from '../../../src/domains/webhooks/index.js';
import { advance, KEY } from '../../support/app.js';
import { afterThisTest } from '../../support/cleanup.js';
import { receiver, setup, type Received } from '../../support/webhooks.js';

const FORGED = ['bad-signature', 'wrong-secret', 'stale-timestamp', 'future-timestamp', 'tampered-body', 'missing-signature'];

/** A receiver as a partner should write it: verify with a Standard Webhooks library, 204 or 401. */
async function verifyingReceiver() {
  const state = { secret: '', got: [] as (Received & { verified: boolean })[] };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verified = true;
      try {
        new Webhook(state.secret).verify(body, headers);
      } catch {
        verified = false;
      }
      state.got.push({ headers, body, verified });
      res.writeHead(verified ? 204 : 401).end();
    });
  });
  afterThisTest(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

describe('POST /_sandbox/webhooks/probe', () => {
  it('passes a receiver that verifies with a Standard Webhooks library, and logs each probe, never retried', async () => {
    const { t, outbox, deliveries } = await setup();
    const v = await verifyingReceiver();
    const put = await t.call('PUT', '/_sandbox/webhooks', { body: { url: v.url, events: ['payout.failed'] } });
    v.state.secret = put.body.secret;

    const res = await t.call('POST', '/_sandbox/webhooks/probe');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      passed: true,
      probes: [{ form: 'genuine', status: 204, rejected: false }, ...FORGED.map((form) => ({ form, status: 401, rejected: true }))],
    });

    // Seven requests, each its own webhook-id, one body about a payout that does not exist; only the genuine one verifies.
    const got = v.state.got;
    expect(got).toHaveLength(7);
    expect(got.filter((g) => g.verified)).toHaveLength(1);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(7);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    const msg = JSON.parse(got[0].body);
    expect(msg.event).toBe('payout.successful');
    expect(msg.data).toMatchObject({ status: 'SUCCESSFUL', amount: 2500, currency: 'NGN', created_at: '2026-01-15T09:00:00.000Z' });
    expect(msg.data.reference).toMatch(/^probe-[0-9a-f]{16}$/);
    expect((await t.call('GET', `/api/v1/partners/payouts/${msg.data.reference}`)).status).toBe(404);
    const byId = new Map(got.map((g) => [g.headers['webhook-id'], g]));

    // Each form, as it reached the receiver.
    const log = await deliveries();
    expect(log.data).toHaveLength(7);
    const form = (f: string) => log.data.find((d: { forged?: string; probe?: boolean }) => (f === 'genuine' ? !d.forged : d.forged === f));
    const headersOf = (f: string) => byId.get(form(f).id)!.headers;
    const now = Number(headersOf('genuine')['webhook-timestamp']);
    expect(Math.abs(now - Date.now() / 1000)).toBeLessThan(60);
    expect(Number(headersOf('stale-timestamp')['webhook-timestamp'])).toBeCloseTo(now - 600, -1);
    expect(Number(headersOf('future-timestamp')['webhook-timestamp'])).toBeCloseTo(now + 600, -1);
    expect(headersOf('missing-signature')['webhook-signature']).toBeUndefined();
    for (const f of ['bad-signature', 'wrong-secret', 'tampered-body']) expect(headersOf(f)['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // stale and future are signed correctly: with the timestamp check alone, they verify
    for (const f of ['stale-timestamp', 'future-timestamp']) {
      const h = headersOf(f);
      const sig = new Webhook(v.state.secret).sign(h['webhook-id'], new Date(Number(h['webhook-timestamp']) * 1000), byId.get(form(f).id)!.body);
      expect(h['webhook-signature']).toBe(sig);
    }

    expect(log.data.every((d: { probe?: boolean }) => d.probe === true)).toBe(true);
    expect(form('genuine')).toMatchObject({ event: 'payout.successful', status: 'succeeded', tries: 1, nextAttemptAt: null, failureReason: null });
    expect(form('genuine').forged).toBeUndefined();
    expect(form('tampered-body')).toMatchObject({
      status: 'failed',
      tries: 1,
      nextAttemptAt: null,
      failureReason: 'Refused, as a forgery (tampered-body) should be: HTTP 401. Forgeries are never retried.',
    });
    expect(form('tampered-body').attempts).toEqual([expect.objectContaining({ at: '2026-01-15T09:00:00.000Z', trigger: 'initial', url: v.url, statusCode: 401 })]);

    // never retried, whatever the clock does
    await advance(t, 7200);
    await outbox.idle();
    expect(v.state.got).toHaveLength(7);
    expect((await deliveries()).counts).toEqual({ pending: 0, succeeded: 1, failed: 6 });
  });

  it('fails a receiver that accepts everything, and one that refuses everything', async () => {
    const { t, r, hook } = await setup();
    await hook({});
    const open = await t.call('POST', '/_sandbox/webhooks/probe');
    expect(open.body).toEqual({
      passed: false,
      probes: [{ form: 'genuine', status: 200, rejected: false }, ...FORGED.map((form) => ({ form, status: 200, rejected: false }))],
    });
    expect(r.got).toHaveLength(7);

    r.plan.push(403, 403, 403, 403, 403, 403, 403);
    const closed = await t.call('POST', '/_sandbox/webhooks/probe');
    expect(closed.body).toEqual({
      passed: false,
      probes: [{ form: 'genuine', status: 403, rejected: true }, ...FORGED.map((form) => ({ form, status: 403, rejected: true }))],
    });
  });

  it('answers null statuses when the receiver is down', async () => {
    const { t, hook, deliveries } = await setup();
    const dead = await receiver();
    await dead.close();
    await hook({ url: dead.url });
    const res = await t.call('POST', '/_sandbox/webhooks/probe');
    expect(res.body).toEqual({ passed: false, probes: ['genuine', ...FORGED].map((form) => ({ form, status: null, rejected: true })) });
    const genuine = (await deliveries()).data.find((d: { forged?: string }) => !d.forged);
    expect(genuine.failureReason).toBe("No 2xx answer to a probe's genuine delivery: Connection refused (ECONNREFUSED). Probes are never retried.");
  });

  it('is 409 without a webhook, and 429 while a probe of the key is under way', async () => {
    const { t, r, hook } = await setup({ timeoutMs: 1000 });
    const none = await t.call('POST', '/_sandbox/webhooks/probe');
    expect([none.status, none.body.error.code]).toEqual([409, 'INVALID_STATE_TRANSITION']);
    expect(none.body.message).toBe('No webhook is set for this API key, so there is no receiver to probe. Set one with PUT /_sandbox/webhooks first.');

    await hook({});
    r.plan.push(0, 0, 0, 0, 0, 0, 0);
    const first = t.call('POST', '/_sandbox/webhooks/probe');
    await r.waitFor(7);
    const second = await t.call('POST', '/_sandbox/webhooks/probe');
    expect([second.status, second.body.error.code, second.headers.get('retry-after')]).toEqual([429, 'RATE_LIMITED', '1']);
    const done = await first;
    expect(done.body).toEqual({ passed: false, probes: ['genuine', ...FORGED].map((form) => ({ form, status: null, rejected: true })) });
    // once it has answered, the key may probe again
    expect((await t.call('POST', '/_sandbox/webhooks/probe')).status).toBe(200);
  });

  it('runs at most 8 probes at once for all keys: a ninth key is 503 with Retry-After until one answers', async () => {
    const { t, r, hook } = await setup({ timeoutMs: 1000 });
    const keys = Array.from({ length: 9 }, (_, i) => `sk_test_probe_cap_${i}`);
    for (const key of keys) await hook({}, key);
    r.plan.push(...Array(56).fill(0));
    const first = keys.slice(0, 8).map((key) => t.call('POST', '/_sandbox/webhooks/probe', { key }));
    await r.waitFor(56);
    const ninth = await t.call('POST', '/_sandbox/webhooks/probe', { key: keys[8] });
    expect([ninth.status, ninth.body.error.code, ninth.headers.get('retry-after')]).toEqual([503, 'SERVICE_UNAVAILABLE', '1']);
    expect((await Promise.all(first)).map((res) => res.status)).toEqual(Array(8).fill(200));
    expect((await t.call('POST', '/_sandbox/webhooks/probe', { key: keys[8] })).status).toBe(200);
  });

  it('obeys --webhook-targets public: a name resolving to loopback is refused without connecting', async () => {
    const { t, r, deliveries } = await setup({ targets: 'public' });
    const url = r.url.replace('127.0.0.1', 'localhost');
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url } })).status).toBe(200);
    const res = await t.call('POST', '/_sandbox/webhooks/probe');
    expect(res.body).toEqual({ passed: false, probes: ['genuine', ...FORGED].map((form) => ({ form, status: null, rejected: true })) });
    expect(r.got).toHaveLength(0);
    for (const d of (await deliveries()).data) expect(d.attempts[0].error).toMatch(/^Refused: localhost resolves to /);
  });

  it('keeps the last result across a reset, for lastProbe(); ordinaryDeliveries() leaves probes out', async () => {
    const { t, outbox, r, hook, pay } = await setup();
    await hook({ events: ['payout.pending'] });
    await pay('ord-1');
    await outbox.idle();
    const tenant = () => [...t.tenants.loaded()][0];
    expect(lastProbe(tenant())).toBeUndefined();
    await advance(t, 90);
    const res = await t.call('POST', '/_sandbox/webhooks/probe');
    expect(res.status).toBe(200);
    expect(lastProbe(tenant())).toEqual({ at: '2026-01-15T09:01:30.000Z', url: r.url, ...res.body });

    const ordinary = ordinaryDeliveries(tenant());
    expect(ordinary).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        event: 'payout.pending',
        status: 'succeeded',
        createdAt: '2026-01-15T09:00:00.000Z',
        reference: 'ord-1',
        attempts: [{ at: '2026-01-15T09:00:00.000Z', trigger: 'initial', url: r.url, statusCode: 200, durationMs: expect.any(Number), error: null }],
      },
    ]);

    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect(lastProbe(tenant())).toEqual({ at: '2026-01-15T09:01:30.000Z', url: r.url, ...res.body });
    expect((await t.call('GET', '/_sandbox/webhooks/deliveries', { key: KEY })).body.data).toEqual([]);
  });
});
