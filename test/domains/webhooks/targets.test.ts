// Where webhooks may go: ports no HTTP client connects to are refused at PUT, and with
// --webhook-targets public so are private, loopback and link-local addresses, literal at PUT and
// resolved from names at delivery time.
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../../src/domains/webhooks/index.js';
import { MemoryStore } from '../../../src/store/memory.store.js';
import { advance, createTestApp, KEY } from '../../support/app.js';
import { receiver, setup } from '../../support/webhooks.js';

const PUBLIC_ONLY = 'this sandbox sends webhooks only to public addresses (--webhook-targets public)';

describe('ports', () => {
  it('refuses a URL on a port HTTP clients refuse to connect to, naming url and why', async () => {
    const { t } = await setup();
    for (const port of [9, 25, 6667, 10080]) {
      const res = await t.call('PUT', '/_sandbox/webhooks', { body: { url: `http://example.com:${port}/hooks` } });
      expect(res.status).toBe(400);
      const issue = `uses port ${port}, which HTTP clients refuse to connect to (a "bad port" of the Fetch standard): use another port, such as 443 or 8080`;
      expect(res.body.error).toEqual({ type: 'invalid_request_error', code: 'VALIDATION_ERROR', details: [{ field: 'url', issue }] });
      expect(res.body.message).toBe(`Invalid request body: url ${issue}.`);
    }
    const zero = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com:0/hooks' } });
    expect([zero.status, zero.body.error.details]).toEqual([400, [{ field: 'url', issue: 'uses port 0, which no server listens on: use the port the receiver listens on, such as 443 or 8080' }]]);
    expect((await t.call('GET', '/_sandbox/webhooks')).status).toBe(404);
    for (const url of ['http://example.com:8080/hooks', 'https://example.com/hooks', 'http://example.com:443/hooks', 'https://example.com:9443/h']) {
      expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url } })).status).toBe(200);
    }
  });
});

describe('target addresses', () => {
  const refused: [string, string, string][] = [
    ['http://127.0.0.1:8080/hooks', '127.0.0.1', 'a loopback address'],
    ['http://2130706433/hooks', '127.0.0.1', 'a loopback address'],
    ['http://10.1.2.3/hooks', '10.1.2.3', 'a private address'],
    ['http://172.16.5.4/hooks', '172.16.5.4', 'a private address'],
    ['http://192.168.1.10/hooks', '192.168.1.10', 'a private address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254', 'a link-local address'],
    ['http://0.0.0.0:8080/hooks', '0.0.0.0', 'the unspecified address, which reaches this host'],
    ['http://100.64.0.1/hooks', '100.64.0.1', 'a shared (carrier-grade NAT) address'],
    ['http://[::1]:8080/hooks', '::1', 'a loopback address'],
    ['http://[::]/hooks', '::', 'the unspecified address, which reaches this host'],
    ['http://[fe80::1]/hooks', 'fe80::1', 'a link-local address'],
    ['http://[fd00::1]/hooks', 'fd00::1', 'a private (unique local) address'],
    ['http://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1', 'a loopback address'],
    ['http://[::ffff:10.0.0.1]/hooks', '::ffff:a00:1', 'a private address'],
    ['http://[64:ff9b::7f00:1]/hooks', '64:ff9b::7f00:1', 'a loopback address'],
  ];

  it('with --webhook-targets public, refuses literal private, loopback and link-local addresses at PUT', async () => {
    const { t } = await setup({ targets: 'public' });
    for (const [url, host, kind] of refused) {
      const res = await t.call('PUT', '/_sandbox/webhooks', { body: { url } });
      expect(res.status, url).toBe(400);
      const issue = `points at ${host}, ${kind}; ${PUBLIC_ONLY}: use a public host name or address`;
      expect(res.body.error.details, url).toEqual([{ field: 'url', issue }]);
      expect(res.body.message).toBe(`Invalid request body: url ${issue}.`);
    }
    expect((await t.call('GET', '/_sandbox/webhooks')).status).toBe(404);
    // public addresses, and names (resolved when a delivery is made), are accepted
    for (const url of ['https://93.184.216.34/hooks', 'https://[2606:2800:220:1::1]/hooks', 'https://example.com/hooks', 'http://localhost:8080/hooks']) {
      expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url } })).status, url).toBe(200);
    }
  });

  it('by default accepts every address, loopback and private included', async () => {
    const { t } = await setup();
    for (const [url] of refused) expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url } })).status, url).toBe(200);
  });

  it('refuses a delivery to a name that resolves to loopback, without connecting, and logs why', async () => {
    const { t, outbox, r, pay, deliveries } = await setup({ targets: 'public' });
    const url = r.url.replace('127.0.0.1', 'localhost');
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url, events: ['payout.pending'] } })).status).toBe(200);
    await pay('to-localhost');
    await outbox.idle();
    for (const s of [5, 30, 120, 600, 3600]) {
      await advance(t, s);
      await outbox.idle();
    }
    expect(r.got).toHaveLength(0);
    const d = (await deliveries()).data[0];
    const refusal = new RegExp(`^Refused: localhost resolves to (127\\.0\\.0\\.1|::1), a loopback address; ${PUBLIC_ONLY.replace(/[()]/g, '\\$&')}$`);
    expect(d.attempts).toHaveLength(6);
    for (const a of d.attempts) expect(a).toMatchObject({ url, statusCode: null, error: expect.stringMatching(refusal) });
    expect(d).toMatchObject({ status: 'failed', tries: 6 });
    expect(d.failureReason).toMatch(/^No 2xx answer after 6 attempts; the last one got Refused: localhost resolves to /);
  });

  it('refuses a delivery to a literal address set before the option was on', async () => {
    const store = new MemoryStore();
    const r = await receiver();
    const before = await createTestApp({ store });
    expect((await before.call('PUT', '/_sandbox/webhooks', { body: { url: r.url, events: ['payout.pending'] } })).status).toBe(200);
    const outbox = new Outbox({ targets: 'public' });
    const after = await createTestApp({ store, outbox });
    const body = { reference: 'lit-1', amount: 2500, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } };
    expect((await after.call('POST', '/api/v1/partners/payouts', { body })).status).toBe(201);
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    const d = (await after.call('GET', '/_sandbox/webhooks/deliveries', { key: KEY })).body.data[0];
    expect(d.attempts).toEqual([
      { at: '2026-01-15T09:00:00.000Z', trigger: 'initial', url: r.url, statusCode: null, durationMs: 0, error: `Refused: 127.0.0.1 is a loopback address; ${PUBLIC_ONLY}`, requestHeaders: null, responseBody: null },
    ]);
  });
});
