// Fair sending across keys: receivers that never answer cost their own keys time, not another
// key's; each key's queue has a budget, and what goes past it is in that key's delivery log.
import { describe, expect, it } from 'vitest';
import { KEY } from '../../support/app.js';
import { receiver, setup, verifyAll } from '../../support/webhooks.js';

describe('fair sending across keys', () => {
  it('keys whose receivers hang do not hold up another key: its 20 deliveries arrive at once', async () => {
    // 20 keys whose receivers never answer: more than all the slots there are. Their attempts move
    // to the slow slots after 1 s and time out only after 60 s, so while the other key's deliveries
    // arrive, every one of them is still waiting on its receiver. The other key's receiver answers at
    // once, but on a loaded machine "at once" may take tens of milliseconds: 1 s (the default) keeps
    // it among the prompt ones however busy the machine, which a bound of 50 ms did not.
    const { t, outbox, r, hook, pay, deliveries } = await setup({ timeoutMs: 60_000, slowMs: 1000 });
    const hanging = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const rec = await receiver();
        rec.plan.push(...Array<number>(50).fill(0));
        const key = `sk_test_hanging_${i}`;
        expect((await t.call('PUT', '/_sandbox/webhooks', { key, body: { url: rec.url, events: ['payout.pending'] } })).status).toBe(200);
        return { rec, key };
      }),
    );
    for (const { key } of hanging) for (let n = 0; n < 5; n++) await pay(`hang-${key}-${n}`, key);
    await Promise.all(hanging.map(({ rec }) => rec.waitFor(1)));

    const secret = await hook({ events: ['payout.pending'] });
    for (let n = 0; n < 20; n++) await pay(`fair-${n}`);
    await r.waitFor(20);
    // All 20 arrived before any hanging attempt ended: no hanging key has an attempt in its log yet.
    // (One sender pool shared first come first served made them wait for those timeouts: minutes.)
    const ended = await Promise.all(hanging.map(async ({ key }) => (await deliveries(key)).data.flatMap((d: { attempts: unknown[] }) => d.attempts).length));
    expect(ended).toEqual(Array<number>(20).fill(0));
    expect(verifyAll(r, secret).map((m) => m.data.reference)).toEqual(Array.from({ length: 20 }, (_, n) => `fair-${n}`));
    // The flush answers once this key has nothing in flight (the sender records an attempt just after the receiver has it).
    expect((await t.call('POST', '/_sandbox/webhooks/flush')).body.settled).toBe(true);
    expect((await deliveries()).counts).toEqual({ pending: 0, succeeded: 20, failed: 0 });

    // the hanging keys are still waiting on their own receivers, one attempt each at most
    expect(hanging.every(({ rec }) => rec.got.length <= 2)).toBe(true);
    const stuck = await deliveries(hanging[0].key);
    expect(stuck.counts.pending).toBe(5);
    for (const { key, rec } of hanging) {
      await t.call('DELETE', '/_sandbox/webhooks', { key });
      await rec.close();
    }
    await outbox.idle();
  }, 60_000);
});

describe('queue budget per key', () => {
  it('an attempt past the key budget is logged as not sent, and a waiting delivery is retried later', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup({ queuedMax: 3, timeoutMs: 1000 });
    await hook({ events: ['payout.pending'] });
    r.plan.push(0);
    await pay('budget-0');
    await r.waitFor(1);
    for (let n = 1; n < 5; n++) await pay(`budget-${n}`);
    // one in flight, three waiting: the fifth is not queued
    expect(outbox.stats()).toMatchObject({ inFlight: 1, queued: 3 });
    const log = await deliveries(KEY);
    const fifth = log.data.find((d: { payload: { data: { reference: string } } }) => d.payload.data.reference === 'budget-4');
    expect(fifth).toMatchObject({ status: 'pending', tries: 1, nextAttemptAt: '2026-01-15T09:00:05.000Z' });
    expect(fifth.attempts).toEqual([
      { at: '2026-01-15T09:00:00.000Z', trigger: 'initial', url: r.url, statusCode: null, durationMs: 0, error: 'Not sent: 3 attempts of this key were already waiting to be sent', requestHeaders: null, responseBody: null },
    ]);
    await outbox.idle();
    await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 5 } });
    await outbox.idle();
    // the first three waiting got through, then both retries: the timed-out one and the one not sent
    const sent = r.got.map((g) => JSON.parse(g.body).data.reference);
    expect(sent.slice(0, 4)).toEqual(['budget-0', 'budget-1', 'budget-2', 'budget-3']);
    expect(sent.slice(4).sort()).toEqual(['budget-0', 'budget-4']);
    expect((await deliveries()).counts).toEqual({ pending: 0, succeeded: 5, failed: 0 });
  });
});
