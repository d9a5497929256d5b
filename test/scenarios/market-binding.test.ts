// A scenario's market counts from its binding to the key, on the key's clock: a long-running shared
// sandbox never fires a key's scripted move early, and a pin holds from then on.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { advance, createTestApp, KEY, KEY_B, type TestApp } from '../support/app.js';

const DAY = 86_400_000;
const MARKET = { 'USDT/NGN': { pin: 1600, moves: [{ after: 60, percent: -5 }] } };

const rate = async (t: TestApp, key = KEY) => {
  const res = await t.call('GET', '/api/v1/partners/rates?from=USDT&to=NGN', { key });
  expect(res.status, res.text).toBe(200);
  return res.body as { rate: number; source: string; timestamp: string; ageSeconds: number };
};

/** An app whose market began three days before the clock's now: a sandbox long running. */
async function oldSandbox(config: Record<string, unknown> = {}) {
  const clock = new ManualClock();
  return createTestApp({ clock, marketOrigin: clock.now() - 3 * DAY, config });
}

describe('market moves count from binding', () => {
  it('a move after: 60 bound long after the sandbox started fires 60 s after binding, not at once', async () => {
    const t = await oldSandbox();
    await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    // The key's clock is half a minute into a minute of the market when it binds.
    await advance(t, 30);
    const walk = await rate(t);
    expect(walk.source).toBe('MARKET_MAKER');
    expect((await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { market: MARKET } } })).status).toBe(200);
    // The pin holds at once; the move is 60 s away, although the sandbox started three days ago.
    expect(await rate(t)).toMatchObject({ rate: 1600, source: 'ADMIN_OVERRIDE', timestamp: '2026-01-15T09:00:30.000Z', ageSeconds: 0 });
    await advance(t, 59);
    expect(await rate(t)).toMatchObject({ rate: 1600, timestamp: '2026-01-15T09:01:00.000Z', ageSeconds: 29 });
    await advance(t, 1);
    expect(await rate(t)).toMatchObject({ rate: 1520, timestamp: '2026-01-15T09:01:30.000Z', ageSeconds: 0 });
    // The FX maker rate reads the same market.
    const maker = await t.call('GET', '/api/v1/partners/fx/rates/makers?from=USDT&to=NGN', { unchecked: true });
    expect(maker.text).toContain('<XchgRate>1520</XchgRate>');
  });

  it('binding again (or a reset) starts the count again', async () => {
    const t = await oldSandbox();
    await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { market: MARKET } } });
    await advance(t, 60);
    expect((await rate(t)).rate).toBe(1520);
    await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { market: MARKET } } });
    expect((await rate(t)).rate).toBe(1600);
    await advance(t, 60);
    expect((await rate(t)).rate).toBe(1520);
    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect((await rate(t)).rate).toBe(1600);
    await advance(t, 60);
    expect((await rate(t)).rate).toBe(1520);
  });

  it('the 24-hour change compares the pin with the walk before binding: a pin holds from binding only', async () => {
    const t = await oldSandbox();
    await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { market: { 'USDT/NGN': { pin: 1600 } } } } });
    const maker = async (key: string) => {
      const text = (await t.call('GET', '/api/v1/partners/fx/rates/makers?from=USDT&to=NGN', { key, unchecked: true })).text;
      const value = (name: string) => Number(new RegExp(`<${name}>([^<]+)</${name}>`).exec(text)![1]);
      return { rate: value('XchgRate'), change: value('PctChg24H') };
    };
    // KEY_B, on the walk, says where the market stood a day ago.
    const walk = await maker(KEY_B);
    const dayAgo = walk.rate / (1 + walk.change / 100);
    const pinned = await maker(KEY);
    expect(pinned.rate).toBe(1600);
    expect(pinned.change).toBeCloseTo((1600 / dayAgo - 1) * 100, 2);
    expect(pinned.change).not.toBe(0);
  });

  it('a start-default scenario counts from the key\'s first request, each key from its own', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'market-binding-'));
    const file = path.join(dir, 'moving-market.yaml');
    await writeFile(file, "market:\n  USDT/NGN:\n    pin: 1600\n    moves:\n      - { after: 600, percent: -5 }\n");
    const t = await oldSandbox({ scenario: file });
    // Two hours of the sandbox go by before the first key's first request.
    t.clock.advance(7200);
    expect((await rate(t)).rate).toBe(1600);
    await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    await advance(t, 599);
    expect((await rate(t)).rate).toBe(1600);
    // Another key arrives now: its count starts now, not at the first key's request.
    expect((await rate(t, KEY_B)).rate).toBe(1600);
    await advance(t, 1);
    expect((await rate(t)).rate).toBe(1520);
    expect((await rate(t, KEY_B)).rate).toBe(1600);
    t.clock.advance(600);
    expect((await rate(t, KEY_B)).rate).toBe(1520);
  });
});
