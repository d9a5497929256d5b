// One instant per synchronous run: the server's clock reads real time once per run of code and
// answers that until the run ends, so a create dates its record and its event alike. Read twice,
// real time could fall a millisecond apart between the two (an event 1 ms after its own payload).
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ConfigSchema } from '../../src/config.js';
import { systemClock, turnStable } from '../../src/kernel/clock.js';
import { MemoryStore } from '../../src/store/memory.store.js';
import { KEY, payoutRequest } from '../support/app.js';

/** Real time as a busy machine sees it: a millisecond later at every reading. */
const ticking = () => {
  let ms = Date.parse('2026-01-15T09:00:00.000Z');
  return { now: () => (ms += 1) };
};

describe('the clock of a request', () => {
  it('answers one instant within a synchronous run, and reads again after it', async () => {
    const clock = turnStable(ticking());
    const first = clock.now();
    expect([clock.now(), clock.now()]).toEqual([first, first]);
    await Promise.resolve();
    const second = clock.now();
    expect(second).toBe(first + 1);
    await new Promise((r) => setImmediate(r));
    expect(clock.now()).toBe(second + 1);
    // The server's own clock is real time, held the same way.
    const a = systemClock.now();
    expect(systemClock.now()).toBe(a);
  });

  it('dates each created resource and its first event at one instant', async () => {
    const { app } = createApp({ config: ConfigSchema.parse({ seed: 7 }), store: new MemoryStore(), clock: turnStable(ticking()) });
    const send = async (method: string, path: string, body?: unknown) => {
      const res = await app.request(path, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      expect(res.status, path).toBeLessThan(300);
      return res.json();
    };
    const payout = (await send('POST', '/api/v1/partners/payouts', payoutRequest('turn-1', 2500))).data;
    expect(payout.createdAt).toBe(payout.updatedAt);
    const events = (await send('GET', '/_sandbox/events')).data;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: 'payout.pending', createdAt: payout.createdAt, data: { created_at: payout.createdAt, updated_at: payout.createdAt } });
  });
});
