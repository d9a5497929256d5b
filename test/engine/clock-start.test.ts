// --clock INSTANT (SANDBOX_CLOCK, startSandbox({ clock })): the clock of every key first seen after
// start begins at that instant, past or future, and runs on from there; a key already stored keeps
// the clock it has. The clock begun is stored with the key's first write, so a restart (or another
// replica started with the same instant) goes on from it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { advance, createTestApp, KEY, KEY_B, payoutRequest, type TestApp } from '../support/app.js';

const now = async (t: TestApp, key = KEY) => (await t.call('GET', '/_sandbox/clock', { key })).body.now as string;

describe('--clock and SANDBOX_CLOCK on the command line', () => {
  const serve = (argv: string[], env: Record<string, string> = {}) => {
    const cmd = parseCli(argv, env);
    if (cmd.name !== 'serve') throw new Error(cmd.name);
    return cmd.config;
  };

  it('take an instant with a zone or a date, kept as epoch ms; the flag wins', () => {
    expect(serve([]).clock).toBeUndefined();
    expect(serve(['--clock', '2030-01-01T00:00:00Z']).clock).toBe(Date.parse('2030-01-01T00:00:00Z'));
    expect(serve(['--clock', '1999-12-31T23:00:00-01:00']).clock).toBe(Date.parse('2000-01-01T00:00:00Z'));
    expect(serve([], { SANDBOX_CLOCK: '2020-02-29' }).clock).toBe(Date.parse('2020-02-29T00:00:00Z'));
    expect(serve(['--clock', '2031-05-05'], { SANDBOX_CLOCK: '2020-02-29' }).clock).toBe(Date.parse('2031-05-05T00:00:00Z'));
  });

  it('refuse what is not an instant, naming the flag', () => {
    expect(() => serve(['--clock', 'tomorrow'])).toThrow(/--clock: expected an instant, 2030-01-01T00:00:00Z, or a date, 2030-01-01/);
    expect(() => serve(['--clock', '2030-01-01T00:00:00'])).toThrow(/--clock: expected an instant/);
    expect(() => serve(['--clock', '2030-13-01'])).toThrow(/--clock: is not a date of the calendar/);
    expect(() => serve(['--clock', '2030-02-30'])).toThrow(/--clock: is not a date of the calendar/);
    expect(() => serve(['--clock', '2030-02-29T10:00:00Z'])).toThrow(/--clock: is not a date of the calendar/);
    expect(() => serve(['--clock', '9999-06-01'])).toThrow("--clock: is past 9999-01-01T00:00:00.000Z, the furthest a key's clock goes: send an earlier instant");
    expect(serve(['--clock', '9998-12-31']).clock).toBe(Date.parse('9998-12-31T00:00:00Z'));
  });
});

describe('a key first seen after start', () => {
  it('begins at the instant, in the future, and runs on with the base clock', async () => {
    const t = await createTestApp({ config: { clock: Date.parse('2030-06-01T12:00:00Z') } });
    expect(await now(t)).toBe('2030-06-01T12:00:00.000Z');
    t.clock.advance(90);
    expect(await now(t)).toBe('2030-06-01T12:01:30.000Z');
    // Another key, first seen later, begins at the instant too.
    expect(await now(t, KEY_B)).toBe('2030-06-01T12:00:00.000Z');
  });

  it('begins at an instant in the past; its resources, timed moves and advances follow that clock', async () => {
    const t = await createTestApp({ config: { clock: Date.parse('2001-02-03'), scenario: 'default' } });
    const created = await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('past-1') });
    expect(created.status).toBe(201);
    expect(created.body.data.createdAt).toBe('2001-02-03T00:00:00.000Z');
    const clock = (await t.call('GET', '/_sandbox/clock')).body;
    expect(clock.offsetSeconds).toBeLessThan(0);
    expect(clock.nextDueAt.startsWith('2001-02-03T00:')).toBe(true);
    await advance(t, 3600);
    const read = await t.call('GET', '/api/v1/partners/payouts/past-1');
    expect(read.body.data.status).toBe('SUCCESSFUL');
    expect(await now(t)).toBe('2001-02-03T01:00:00.000Z');
  });

  it('begins at the instant again after a reset', async () => {
    const t = await createTestApp({ config: { clock: Date.parse('2030-01-01T00:00:00Z') } });
    await advance(t, 86_400);
    expect(await now(t)).toBe('2030-01-02T00:00:00.000Z');
    t.clock.advance(5);
    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect(await now(t)).toBe('2030-01-01T00:00:00.000Z');
  });

  it('keeps its clock through a restart once it has written, and a key already stored keeps its own clock', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'clock-start-'));
    const clock = new ManualClock();
    try {
      // Before: no --clock. KEY writes at real (manual) time.
      const first = await createTestApp({ clock, store: await LowdbStore.open(dir) });
      expect((await first.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('before-1') })).status).toBe(201);
      const before = await now(first);
      await first.store.close();

      // Started with --clock: KEY keeps its clock; KEY_B, new, begins at the instant and writes.
      clock.advance(60);
      const second = await createTestApp({ clock, config: { clock: Date.parse('2040-01-01T00:00:00Z') }, store: await LowdbStore.open(dir) });
      expect(Date.parse(await now(second)) - Date.parse(before)).toBe(60_000);
      expect(await now(second, KEY_B)).toBe('2040-01-01T00:00:00.000Z');
      expect((await second.call('POST', '/api/v1/partners/payouts', { key: KEY_B, body: payoutRequest('after-1') })).status).toBe(201);
      await second.store.close();

      // Restarted with the same instant an hour later: KEY_B goes on from where its clock began.
      clock.advance(3600);
      const third = await createTestApp({ clock, config: { clock: Date.parse('2040-01-01T00:00:00Z') }, store: await LowdbStore.open(dir) });
      expect(await now(third, KEY_B)).toBe('2040-01-01T01:00:00.000Z');
      await third.store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
