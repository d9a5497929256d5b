// Webhooks end to end: a real HTTP receiver on port 0, every signature checked with the
// standardwebhooks package, retries driven by the tenant's clock, and the outbox awaited explicitly.
// The same from the real server process: test/e2e/webhooks.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { advance } from '../../support/app.js';
import { LIFECYCLES } from '../../support/scenarios.js';
import { payout, receiver, setup, verifyAll } from '../../support/webhooks.js';

describe('webhook settings', () => {
  it('generates a whsec_ secret shown once, and reads back without it', async () => {
    const { t, r } = await setup();
    const put = await t.call('PUT', '/_sandbox/webhooks', { body: { url: r.url } });
    expect(put.body).toMatchObject({
      url: r.url,
      events: ['*'],
      faults: { duplicate: false, outOfOrder: false, delaySeconds: 0 },
      createdAt: '2026-01-15T09:00:00.000Z',
    });
    expect(put.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const get = await t.call('GET', '/_sandbox/webhooks');
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ url: r.url, events: ['*'], faults: put.body.faults, createdAt: put.body.createdAt, updatedAt: put.body.updatedAt });
    expect(get.text).not.toContain(put.body.secret);
    const again = await t.call('PUT', '/_sandbox/webhooks', { body: { url: r.url } });
    expect(again.body.secret).not.toBe(put.body.secret);
  });

  it('keeps a secret that is given', async () => {
    const { t, r } = await setup();
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const put = await t.call('PUT', '/_sandbox/webhooks', { body: { url: r.url, secret } });
    expect(put.body.secret).toBe(secret);
  });

  it('refuses URLs that are not http(s), and malformed secrets, naming the field', async () => {
    const { t } = await setup();
    for (const url of ['ftp://example.com/hooks', 'not a url', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const res = await t.call('PUT', '/_sandbox/webhooks', { body: { url } });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'url', issue: expect.stringContaining('http:// or https://') }]);
    }
    const bad = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/h', secret: 'hunter2' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('secret');
    const filter = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/h', events: ['Payout!'] } });
    expect(filter.body.error.details[0].field).toBe('events[0]');
  });

  it('refuses event filters that can never match, saying what to send', async () => {
    const { t } = await setup();
    const put = (events: string[]) => t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/h', events } });
    for (const filter of ['payouts', 'bogus', 'payout.completed']) {
      const res = await put([filter]);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe('events[0]');
    }
    expect((await put(['payouts'])).body.error.details[0].issue).toBe(
      'matches no event: send *, a resource (payout, wallet_payout, withdrawal, transfer, quote, order, fx_trade), a resource followed by .*, or an event name such as payout.failed',
    );
    const state = await put(['payout', 'payout.completed']);
    expect(state.body.message).toBe(
      'Invalid request body: events[1] matches no payout event: send payout, payout.* or one of: payout.pending, payout.processing, payout.successful, payout.failed.',
    );
    for (const events of [['payout'], ['payout.*'], ['payout.failed'], ['*'], ['wallet_payout.cancelled'], ['order.successful'], ['fx_trade.comp']]) {
      const res = await put(events);
      expect(res.status).toBe(200);
      expect(res.body.events).toEqual(events);
    }
  });

  it('accepts every event name the services emit', async () => {
    // Services record events only through their lifecycle's emit (<resource>.<state>) and emitExtra,
    // so the events they can emit are the lifecycles' own.
    const dir = new URL('../../../src/domains/', import.meta.url);
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      expect(readFileSync(new URL(file, dir), 'utf8'), file).not.toMatch(/\bt\.emit\(/);
    }
    const emitted = new Set(LIFECYCLES.flatMap((l) => l.events));
    expect(emitted).toContain('payout.failed');
    expect(emitted).toContain('wallet_payout.cancelled');
    expect(emitted).toContain('order.successful');
    expect(emitted).toContain('fx_trade.newt');
    const { t } = await setup();
    const res = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/h', events: [...emitted] } });
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([...emitted]);
  });

  it('is 404 before a webhook is set and after it is removed', async () => {
    const { t, r } = await setup();
    expect((await t.call('GET', '/_sandbox/webhooks')).status).toBe(404);
    await t.call('PUT', '/_sandbox/webhooks', { body: { url: r.url } });
    const del = await t.call('DELETE', '/_sandbox/webhooks');
    expect(del.body).toEqual({ status: 'success', message: 'The webhook was removed; no more deliveries will be sent.' });
    expect((await t.call('GET', '/_sandbox/webhooks')).status).toBe(404);
  });
});

describe('delivery', () => {
  it('POSTs each event as {event, data}, signed per Standard Webhooks', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    const secret = await hook({});
    await pay('wh-1');
    await outbox.idle();
    expect(r.got).toHaveLength(1);
    const [msg] = verifyAll(r, secret);
    expect(msg).toEqual({
      event: 'payout.pending',
      data: expect.objectContaining({ reference: 'wh-1', status: 'PENDING', amount: 2500, currency: 'NGN', failure_reason: null, created_at: '2026-01-15T09:00:00.000Z' }),
    });
    expect(msg.data.destination).toMatchObject({ account_number: '0123456789', bank_code: '058' });
    const h = r.got[0].headers;
    expect(h['webhook-id']).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(h['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(h['content-type']).toBe('application/json');

    const log = await deliveries();
    expect(log.counts).toEqual({ pending: 0, succeeded: 1, failed: 0 });
    expect(log.data[0]).toMatchObject({ id: h['webhook-id'], event: 'payout.pending', status: 'succeeded', tries: 1, nextAttemptAt: null });
    expect(log.data[0].attempts).toEqual([
      { at: '2026-01-15T09:00:00.000Z', trigger: 'initial', url: r.url, statusCode: 200, durationMs: expect.any(Number), error: null, requestHeaders: expect.any(Object), responseBody: 'thanks' },
    ]);
    // The log keeps the headers the POST carried, exactly as the receiver got them.
    const sent = log.data[0].attempts[0].requestHeaders;
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type', 'user-agent']) expect(sent[name]).toBe(h[name]);

    // every later state change is delivered too, in order
    await advance(t, 300);
    await outbox.idle();
    expect(verifyAll(r, secret).map((m) => m.event)).toEqual(['payout.pending', 'payout.processing', 'payout.successful']);
    expect((await deliveries()).data.map((d: { event: string }) => d.event)).toEqual(['payout.successful', 'payout.processing', 'payout.pending']);
  });

  it('retries a failing receiver on the tenant clock: the third attempt gets through', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    const secret = await hook({ events: ['payout.pending'] });
    r.plan.push(500, 503);
    await pay('wh-retry');
    await outbox.idle();
    expect(r.got).toHaveLength(1);
    let d = (await deliveries()).data[0];
    expect(d).toMatchObject({ status: 'pending', tries: 1, nextAttemptAt: '2026-01-15T09:00:05.000Z' });
    expect(d.attempts[0]).toMatchObject({ statusCode: 500, error: null });

    await advance(t, 4);
    await outbox.idle();
    expect(r.got).toHaveLength(1);
    await advance(t, 1);
    await outbox.idle();
    expect(r.got).toHaveLength(2);
    d = (await deliveries()).data[0];
    expect(d).toMatchObject({ status: 'pending', tries: 2, nextAttemptAt: '2026-01-15T09:00:35.000Z' });

    await advance(t, 30);
    await outbox.idle();
    expect(r.got).toHaveLength(3);
    d = (await deliveries()).data[0];
    expect(d).toMatchObject({ status: 'succeeded', tries: 3, nextAttemptAt: null });
    expect(d.attempts.map((a: { trigger: string; statusCode: number; at: string }) => [a.trigger, a.statusCode, a.at])).toEqual([
      ['initial', 500, '2026-01-15T09:00:00.000Z'],
      ['retry', 503, '2026-01-15T09:00:05.000Z'],
      ['retry', 200, '2026-01-15T09:00:35.000Z'],
    ]);
    // the same message each time: one webhook-id, each signature valid
    expect(new Set(r.got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    expect(verifyAll(r, secret).map((m) => m.data.reference)).toEqual(['wh-retry', 'wh-retry', 'wh-retry']);
  });

  it('counts a timeout as a failed attempt', async () => {
    const { outbox, r, hook, pay, deliveries } = await setup({ timeoutMs: 1000 });
    await hook({});
    r.plan.push(0);
    await pay('wh-slow');
    // while the receiver holds the attempt open, requests are answered as usual
    await r.waitFor(1);
    await pay('wh-slow-2');
    expect(outbox.stats()).toMatchObject({ inFlight: 1, queued: 1 });
    await outbox.idle();
    const d = (await deliveries()).data[1];
    expect(d.payload.data.reference).toBe('wh-slow');
    expect(d.status).toBe('pending');
    expect(d.attempts[0]).toMatchObject({ statusCode: null, error: 'Timed out: no answer within 1 s' });
    expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(900);
  });

  it('gives up after six attempts, and a redelivery to a fixed URL then succeeds', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    const dead = await receiver();
    await dead.close();
    await t.call('PUT', '/_sandbox/webhooks', { body: { url: dead.url, events: ['payout.pending'] } });
    await pay('wh-dead');
    await outbox.idle();
    for (const s of [5, 30, 120, 600, 3600]) {
      await advance(t, s);
      await outbox.idle();
    }
    let d = (await deliveries()).data[0];
    expect(d).toMatchObject({ status: 'failed', tries: 6, nextAttemptAt: null });
    expect(d.failureReason).toBe('No 2xx answer after 6 attempts; the last one got Connection refused (ECONNREFUSED).');
    expect(d.attempts.every((a: { error: string }) => a.error === 'Connection refused (ECONNREFUSED)')).toBe(true);
    await advance(t, 86_400);
    await outbox.idle();
    expect((await deliveries()).data[0].tries).toBe(6);

    const secret = await hook({});
    const res = await t.call('POST', `/_sandbox/webhooks/deliveries/${d.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body.id).toBe(d.id);
    await outbox.idle();
    d = (await deliveries()).data[0];
    expect(d).toMatchObject({ status: 'succeeded', tries: 6 });
    expect(d.attempts.at(-1)).toMatchObject({ trigger: 'redelivery', statusCode: 200, url: r.url });
    expect(r.got[0].headers['webhook-id']).toBe(d.id);
    expect(verifyAll(r, secret)[0].data.reference).toBe('wh-dead');
  });

  it('redelivers a delivered message with the same webhook-id', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    const secret = await hook({});
    await pay('wh-again');
    await outbox.idle();
    const id = (await deliveries()).data[0].id;
    expect((await t.call('POST', `/_sandbox/webhooks/deliveries/${id}/redeliver`)).status).toBe(202);
    await outbox.idle();
    expect(r.got.map((g) => g.headers['webhook-id'])).toEqual([id, id]);
    expect(verifyAll(r, secret).map((m) => m.event)).toEqual(['payout.pending', 'payout.pending']);
    expect((await deliveries()).data[0].attempts.map((a: { trigger: string }) => a.trigger)).toEqual(['initial', 'redelivery']);
    const missing = await t.call('POST', '/_sandbox/webhooks/deliveries/msg_nope/redeliver');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("No webhook delivery with id 'msg_nope' exists for this API key. Send an id GET /_sandbox/webhooks/deliveries lists (the 500 latest are kept).");
    await t.call('DELETE', '/_sandbox/webhooks');
    expect((await t.call('POST', `/_sandbox/webhooks/deliveries/${id}/redeliver`)).status).toBe(409);
  });

  it('stops on DELETE: waiting deliveries are given up and new events are not sent', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    await hook({});
    r.plan.push(500);
    await pay('wh-stop');
    await outbox.idle();
    await t.call('DELETE', '/_sandbox/webhooks');
    await advance(t, 300);
    await outbox.idle();
    expect(r.got).toHaveLength(1);
    const log = await deliveries();
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ status: 'failed', failureReason: 'The webhook was removed before this delivery succeeded.' });
  });
});

describe('filters', () => {
  it('sends only the events the settings name', async () => {
    const { t, outbox, r, hook, pay } = await setup();
    const secret = await hook({ events: ['payout.successful', 'payout.processing'] });
    await pay('wh-f');
    await advance(t, 300);
    await outbox.idle();
    expect(verifyAll(r, secret).map((m) => m.event)).toEqual(['payout.processing', 'payout.successful']);
  });

  it('pages the event log by type, after and limit', async () => {
    const { t, pay } = await setup();
    await pay('ev-1');
    await pay('ev-2');
    await advance(t, 300);
    const all = (await t.call('GET', '/_sandbox/events')).body.data;
    expect(all).toHaveLength(6);
    const byType = await t.call('GET', '/_sandbox/events?type=payout.successful');
    expect(byType.body.data.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(['ev-1', 'ev-2']);
    const byPrefix = await t.call('GET', '/_sandbox/events?type=payout&limit=4');
    expect(byPrefix.body).toMatchObject({ hasMore: true });
    expect(byPrefix.body.data).toHaveLength(4);
    const rest = await t.call('GET', `/_sandbox/events?type=payout&after=${byPrefix.body.data[3].id}`);
    expect(rest.body.hasMore).toBe(false);
    expect(rest.body.data.map((e: { event: string }) => e.event)).toEqual(['payout.successful', 'payout.successful']);
    expect((await t.call('GET', '/_sandbox/events?type=transfer')).body.data).toEqual([]);
  });
});

describe('docs/webhooks.md', () => {
  it('its events table names the events each resource has, as the event filter takes them', async () => {
    const { t } = await setup();
    const page = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
    const table = page.slice(page.indexOf('| resource | events |'), page.indexOf('\n\n', page.indexOf('| resource | events |')));
    const documented = [...table.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]);
    const served: string[] = [];
    for (const resource of new Set(documented.map((e) => e.split('.')[0]))) {
      const res = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks', events: [`${resource}.no-such`] } });
      served.push(...(/one of: (.*)$/.exec(res.body.error.details[0].issue)![1]).split(', '));
    }
    expect(documented).toEqual(served);
    const any = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks', events: ['no-such'] } });
    const resources = /a resource \(([^)]*)\)/.exec(any.body.error.details[0].issue)![1].split(', ');
    expect(resources).toEqual([...new Set(documented.map((e) => e.split('.')[0]))]);
  });
});
