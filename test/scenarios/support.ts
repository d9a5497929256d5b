// Shared pieces of the scenario tests: a payout body, a test app whose fault delays are recorded
// instead of waited, and a shortcut to bind a scenario.
import type { Config } from '../../src/config.js';
import { createTestApp, KEY, type TestApp } from '../support/app.js';

export const PAYOUTS = '/api/v1/partners/payouts';

export const payout = (reference: string, over: Record<string, unknown> = {}) => ({
  reference,
  amount: 10000,
  currency: 'NGN',
  destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
  ...over,
});

/** A test app whose latency and timeout faults record how long they would wait. */
export async function scenarioApp(config: Partial<Config> = {}) {
  const slept: number[] = [];
  const app = await createTestApp({ config, sleep: async (ms) => void slept.push(ms) });
  return Object.assign(app, { slept });
}

export async function useScenario(t: TestApp, body: Record<string, unknown>, key = KEY) {
  const res = await t.call('PUT', '/_sandbox/scenario', { key, body });
  if (res.status !== 200) throw new Error(`PUT /_sandbox/scenario failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function status(t: TestApp, reference: string, key = KEY): Promise<string> {
  const res = await t.call('GET', `${PAYOUTS}/${reference}`, { key });
  if (res.status !== 200) throw new Error(`GET payout failed: ${res.status} ${res.text}`);
  return res.body.data.status;
}
