// flaky-network: about 5% of requests answer 503; the others are delayed 200–800 ms; all seeded.
import { describe, expect, it } from 'vitest';
import { PAYOUTS, scenarioApp } from '../support.js';

async function run(seed: number) {
  const t = await scenarioApp({ scenario: 'flaky-network', seed });
  const statuses: number[] = [];
  const delays: number[] = [];
  for (let i = 0; i < 400; i++) {
    const res = await t.call('GET', `${PAYOUTS}/r-${i}`);
    statuses.push(res.status);
    if (res.status === 503) {
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    } else {
      const ms = Number(/^latency (\d+)ms$/.exec(res.headers.get('x-sandbox-fault') ?? '')?.[1]);
      delays.push(ms);
    }
  }
  return { statuses, delays, slept: t.slept };
}

describe('scenario flaky-network', () => {
  it('fails about 5% of requests with 503 and delays every other one by 200–800 ms', async () => {
    const { statuses, delays, slept } = await run(7);
    const failed = statuses.filter((s) => s === 503).length;
    expect(failed).toBeGreaterThanOrEqual(8);
    expect(failed).toBeLessThanOrEqual(36);
    expect(statuses.filter((s) => s === 404)).toHaveLength(400 - failed);
    expect(delays).toHaveLength(400 - failed);
    expect(slept).toEqual(delays);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...delays)).toBeLessThanOrEqual(800);
    expect(Math.max(...delays) - Math.min(...delays)).toBeGreaterThan(400);
  });

  it('repeats exactly with the same seed', async () => {
    const a = await run(42);
    expect(await run(42)).toEqual(a);
    expect((await run(43)).statuses).not.toEqual(a.statuses);
  });
});
