// Delivery faults (duplicate, out of order, delayed), tenant isolation, and the bounds that keep a dead
// receiver from growing memory.
import { describe, expect, it } from 'vitest';
import { advance, KEY, KEY_B } from '../../support/app.js';
import { receiver, setup, verifyAll } from '../../support/webhooks.js';

describe('delivery faults', () => {
  it('duplicate: every accepted delivery arrives twice with the same webhook-id', async () => {
    const { outbox, r, hook, pay, deliveries } = await setup();
    const secret = await hook({ faults: { duplicate: true } });
    await pay('f-dup');
    await outbox.idle();
    expect(r.got).toHaveLength(2);
    expect(r.got[0].headers['webhook-id']).toBe(r.got[1].headers['webhook-id']);
    expect(r.got[0].body).toBe(r.got[1].body);
    expect(verifyAll(r, secret).map((m) => m.event)).toEqual(['payout.pending', 'payout.pending']);
    const d = (await deliveries()).data[0];
    expect(d).toMatchObject({ status: 'succeeded', tries: 1 });
    expect(d.attempts.map((a: { trigger: string }) => a.trigger)).toEqual(['initial', 'duplicate']);
  });

  it('out of order: each delivery is overtaken by the next one', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    const secret = await hook({ faults: { outOfOrder: true } });
    await pay('f-ooo');
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    expect((await deliveries()).data[0]).toMatchObject({ status: 'pending', nextAttemptAt: '2026-01-15T09:01:00.000Z' });
    await advance(t, 30);
    await outbox.idle();
    expect(verifyAll(r, secret).map((m) => m.event)).toEqual(['payout.processing', 'payout.pending']);
    // a delivery with nothing after it is released once the hold (60 s) is over
    await advance(t, 270);
    await outbox.idle();
    expect(r.got).toHaveLength(2);
    await advance(t, 60);
    await outbox.idle();
    expect(r.events()).toEqual(['payout.processing', 'payout.pending', 'payout.successful']);
  });

  it('delay: first attempts wait the given seconds on the tenant clock', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    await hook({ events: ['payout.pending'], faults: { delaySeconds: 45 } });
    await pay('f-late');
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    expect((await deliveries()).data[0]).toMatchObject({ status: 'pending', tries: 0, nextAttemptAt: '2026-01-15T09:00:45.000Z' });
    await advance(t, 44);
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    await advance(t, 1);
    await outbox.idle();
    expect(r.events()).toEqual(['payout.pending']);
    expect((await deliveries()).data[0].attempts[0].at).toBe('2026-01-15T09:00:45.000Z');
  });
});

describe('tenant isolation', () => {
  it('keeps settings, events, deliveries and secrets apart per key', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    const other = await receiver();
    const secretA = await hook({});
    const putB = await t.call('PUT', '/_sandbox/webhooks', { key: KEY_B, body: { url: other.url, events: ['payout.successful'] } });
    const secretB = putB.body.secret as string;
    expect(secretB).not.toBe(secretA);
    expect((await t.call('GET', '/_sandbox/webhooks', { key: KEY_B })).body.url).toBe(other.url);
    expect((await t.call('GET', '/_sandbox/webhooks', { key: KEY })).body.url).toBe(r.url);

    await pay('iso-a', KEY);
    await pay('iso-b', KEY_B);
    await advance(t, 300, KEY_B);
    await outbox.idle();
    expect(verifyAll(r, secretA).map((m) => [m.event, m.data.reference])).toEqual([['payout.pending', 'iso-a']]);
    expect(verifyAll(other, secretB).map((m) => [m.event, m.data.reference])).toEqual([['payout.successful', 'iso-b']]);
    // a signature made with one key's secret does not verify with the other's
    expect(() => verifyAll(other, secretA)).toThrow();

    expect((await deliveries(KEY)).data.map((d: { payload: { data: { reference: string } } }) => d.payload.data.reference)).toEqual(['iso-a']);
    expect((await deliveries(KEY_B)).data.map((d: { event: string }) => d.event)).toEqual(['payout.successful']);
    const eventsA = (await t.call('GET', '/_sandbox/events', { key: KEY })).body.data;
    expect(eventsA.map((e: { data: { reference: string } }) => e.data.reference)).toEqual(['iso-a']);
    const idA = (await deliveries(KEY)).data[0].id;
    expect((await t.call('POST', `/_sandbox/webhooks/deliveries/${idA}/redeliver`, { key: KEY_B })).status).toBe(404);

    await t.call('DELETE', '/_sandbox/webhooks', { key: KEY_B });
    expect((await t.call('GET', '/_sandbox/webhooks', { key: KEY })).status).toBe(200);
  });
});

describe('bounds', () => {
  it('a dead receiver with thousands of events keeps the queue and the log bounded', async () => {
    const { t, outbox, pay, deliveries } = await setup();
    const dead = await receiver();
    await dead.close();
    await t.call('PUT', '/_sandbox/webhooks', { body: { url: dead.url } });
    for (let i = 0; i < 2000; i++) await pay(`dead-${i}`);
    expect(outbox.stats().queued).toBeLessThanOrEqual(100);
    await outbox.idle();
    await advance(t, 30);
    await outbox.idle();

    const log = await deliveries(KEY, '?limit=500');
    expect(log.limits).toEqual({ deliveriesKept: 500, pendingMax: 100, attempts: 6, retryDelaysSeconds: [5, 30, 120, 600, 3600] });
    expect(log.data).toHaveLength(500);
    expect(log.counts.pending + log.counts.succeeded + log.counts.failed).toBe(500);
    expect(log.counts.pending).toBe(100);
    expect(log.counts.succeeded).toBe(0);
    const dropped = log.data.filter((d: { failureReason: string | null }) => d.failureReason?.startsWith('Dropped: more than 100'));
    expect(dropped).toHaveLength(400);
    const webhookJobs = [...t.tenants.loaded()][0].store.collection<{ kind: string }>('jobs');
    expect([...webhookJobs.values()].filter((j) => j.kind.startsWith('webhook.'))).toHaveLength(100);
    expect(outbox.stats()).toEqual({ queued: 0, inFlight: 0, tenants: 0 });
    // the newest events are the ones still waiting
    expect(log.data[0].payload.data.reference).toBe('dead-1999');
    expect(log.data[0].attempts.length).toBeLessThanOrEqual(20);
  });
});
