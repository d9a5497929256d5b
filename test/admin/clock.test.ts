// The tenant clock QA can pin: frozen and thawed, moved to an instant (never back), and webhook
// deliveries flushed without sleeping; one advance applies every webhook retry the skipped time covers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { createTestApp, KEY } from '../support/app.js';
import { setup } from '../support/webhooks.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('PUT /_sandbox/clock', () => {
  it('freezes the clock: real time passing moves nothing until it is advanced or thawed', async () => {
    const t = await createTestApp();
    const frozen = await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    expect(frozen.status).toBe(200);
    expect(frozen.body).toMatchObject({ now: '2026-01-15T09:00:00.000Z', frozen: true });
    t.clock.advance(600);
    expect((await t.call('GET', '/_sandbox/clock')).body).toMatchObject({ now: '2026-01-15T09:00:00.000Z', frozen: true, offsetSeconds: -600 });
    const moved = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 599 } });
    expect(moved.body).toMatchObject({ now: '2026-01-15T09:09:59.000Z', frozen: true });
    const thawed = await t.call('PUT', '/_sandbox/clock', { body: { frozen: false } });
    expect(thawed.body).toMatchObject({ now: '2026-01-15T09:09:59.000Z', frozen: false, offsetSeconds: -1 });
    t.clock.advance(1);
    expect((await t.call('GET', '/_sandbox/clock')).body.now).toBe('2026-01-15T09:10:00.000Z');
  });

  it('refuses a body that is not {frozen: boolean}, naming the field', async () => {
    const t = await createTestApp();
    const res = await t.call('PUT', '/_sandbox/clock', { body: { frozen: true, at: 'now' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'at', issue: 'is not a field of this request: remove it' }]);
  });
});

describe('POST /_sandbox/clock/advance', () => {
  it('moves to an instant, applying what falls due on the way; never back (409)', async () => {
    const t = await createTestApp();
    const created = await t.call('POST', '/api/v1/partners/payouts', {
      body: { reference: 'to-1', amount: 100, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'A B', bankCode: '058' } },
    });
    expect(created.status).toBe(201);
    const res = await t.call('POST', '/_sandbox/clock/advance', { body: { to: '2026-01-15T09:05:00Z' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ now: '2026-01-15T09:05:00.000Z', applied: 2 });
    expect((await t.call('GET', '/api/v1/partners/payouts/to-1')).body.data.status).toBe('SUCCESSFUL');
    const back = await t.call('POST', '/_sandbox/clock/advance', { body: { to: '2026-01-15T09:04:59Z' } });
    expect(back.status).toBe(409);
    expect(back.body.error).toMatchObject({ code: 'CLOCK_BACKWARDS', details: [{ field: 'to', issue: 'must not be earlier than 2026-01-15T09:05:00.000Z' }] });
    const both = await t.call('POST', '/_sandbox/clock/advance', { body: { to: '2027-01-31T00:00:00Z', seconds: 1 } });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([{ field: 'seconds', issue: 'cannot be sent with to: send one of them' }]);
  });

  it('goes no further than 9999-01-01, so every date keeps a four-digit year (400 naming to or seconds)', async () => {
    const t = await createTestApp();
    const far = await t.call('POST', '/_sandbox/clock/advance', { body: { to: '9999-06-01T00:00:00Z' } });
    expect(far.status).toBe(400);
    expect(far.body.error).toEqual({
      type: 'invalid_request_error',
      code: 'VALIDATION_ERROR',
      details: [{ field: 'to', issue: 'would move the clock past 9999-01-01T00:00:00.000Z: send an earlier instant' }],
    });
    expect((await t.call('GET', '/_sandbox/clock')).body.now).toBe('2026-01-15T09:00:00.000Z');
    expect((await t.call('POST', '/_sandbox/clock/advance', { body: { to: '9998-12-31T00:00:00Z' } })).status).toBe(200);
    const more = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 2 * 86400 } });
    expect([more.status, more.body.error.details]).toEqual([400, [{ field: 'seconds', issue: 'would move the clock past 9999-01-01T00:00:00.000Z: send at most 86400 seconds' }]]);
    const payout = await t.call('POST', '/api/v1/partners/payouts', {
      body: { reference: 'late-1', amount: 100, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'A B', bankCode: '058' } },
    });
    expect([payout.status, payout.body.data.createdAt]).toEqual([201, '9998-12-31T00:00:00.000Z']);
  });
});

describe('webhooks against the pinned clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('POST /_sandbox/webhooks/flush waits for the due attempts and answers their results', async () => {
    const { t, r, hook, pay } = await setup();
    await hook({ events: ['payout.pending'] });
    r.plan.push(503);
    await pay('flush-1');
    const res = await t.call('POST', '/_sandbox/webhooks/flush');
    expect(res.status).toBe(200);
    expect(res.body.settled).toBe(true);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ event: 'payout.pending', status: 'pending', tries: 1, nextAttemptAt: '2026-01-15T09:00:05.000Z' });
    expect(res.body.data[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([503]);
    // Nothing more is due until the clock reaches the retry.
    expect((await t.call('POST', '/_sandbox/webhooks/flush')).body).toEqual({ settled: true, data: [] });
  });

  it('one advance of an hour makes every retry the backoff puts in that hour, in order, each at its time', async () => {
    const { t, r, hook, pay, deliveries } = await setup();
    await hook({ events: ['payout.pending'] });
    r.plan.push(500, 500, 500, 500, 500);
    await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    await pay('down-1');
    await t.call('POST', '/_sandbox/webhooks/flush');
    const start = Date.parse('2026-01-15T09:00:00.000Z');
    const res = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
    expect(res.body.now).toBe(iso(start + 3600_000));
    const [d] = (await deliveries(KEY)).data;
    expect(d.attempts.map((a: { at: string }) => a.at)).toEqual([0, 5, 35, 155, 755].map((s) => iso(start + s * 1000)));
    expect(d).toMatchObject({ status: 'pending', tries: 5, nextAttemptAt: iso(start + 4355_000) });
    await t.call('POST', '/_sandbox/clock/advance', { body: { to: iso(start + 4355_000) } });
    await t.call('POST', '/_sandbox/webhooks/flush');
    expect((await deliveries(KEY)).data[0]).toMatchObject({ status: 'succeeded', tries: 6 });
    expect(r.got).toHaveLength(6);
  });

  it('spends at most its waiting budget on a receiver that never answers, and still reaches the instant', async () => {
    // Real time, as the advance reads it for its budget (Date), is a fake clock here. Each wait the
    // advance asks for is charged everything it allows, as a receiver slower than any wait would
    // cost; the attempts themselves time out for real after 50 ms, so none is left in flight.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-15T09:00:00Z') });
    const { t, r, outbox, hook, pay, deliveries } = await setup({ timeoutMs: 50 }, { advanceWaitMs: 1500 });
    await hook({ events: ['payout.pending'] });
    r.plan.push(0, 0, 0, 0, 0, 0);
    await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    await pay('hang-1');
    await t.call('POST', '/_sandbox/webhooks/flush');
    const waits: number[] = [];
    const settled = outbox.settled.bind(outbox);
    outbox.settled = async (tenant, maxMs) => {
      waits.push(maxMs);
      const done = await settled(tenant, 10_000);
      vi.setSystemTime(Date.now() + maxMs);
      return done;
    };
    const res = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 7200 } });
    outbox.settled = settled;
    // Waiting for each of the five retries would take five waits; each is at most one attempt's
    // timeout plus 1 s, and the budget ends them at 1.5 s: the rest of the hour is applied unwaited.
    expect(waits).toEqual([1050, 450]);
    expect([res.status, res.body.now]).toEqual([200, '2026-01-15T11:00:00.000Z']);
    await t.call('POST', '/_sandbox/webhooks/flush');
    // The retries before the budget ran out at their times; the one the rest of the hour made due, at the instant.
    const [d] = (await deliveries(KEY)).data;
    expect(d.attempts.map((a: { at: string }) => a.at)).toEqual(['09:00:00', '09:00:05', '09:00:35', '11:00:00'].map((h) => `2026-01-15T${h}.000Z`));
    expect(d.attempts.every((a: { error: string }) => a.error === 'Timed out: no answer within 0.05 s')).toBe(true);
    expect(r.got).toHaveLength(4);
  });
});

describe('GET /_sandbox/health', () => {
  it('shows the seed the server runs with', async () => {
    const t = await createTestApp({ config: { seed: 42 } });
    expect((await t.call('GET', '/_sandbox/health', { key: null })).body).toMatchObject({ status: 'ok', seed: 42 });
  });

  it('shows the memory budget off at 0 %', async () => {
    const t = await createTestApp({ config: { heapBudget: 0 } });
    expect((await t.call('GET', '/_sandbox/health', { key: null })).body.memory).toEqual({ budgetMb: null, full: false });
  });
});

/** A base clock that moves on a millisecond each time it is read, as real time does while a request runs. */
class RunningClock extends ManualClock {
  override now(): number {
    this.advance(0.001);
    return super.now();
  }
}

describe('an advance by seconds', () => {
  it('moves the offset by exactly that many seconds however long its moves take', async () => {
    const t = await createTestApp({ clock: new RunningClock() });
    await t.call('POST', '/api/v1/partners/payouts', {
      body: { reference: 'exact-1', amount: 5000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } },
    });
    const first = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
    expect([first.status, first.body.offsetSeconds, first.body.applied]).toEqual([200, 3600, 2]);
    const second = await t.call('POST', '/_sandbox/clock/advance', { body: { seconds: 630 } });
    expect(second.body.offsetSeconds).toBe(4230);
  });
});
