// Soak: sustained mixed load over many tenants, checking that every per-tenant structure stays
// within its bound and that the heap stays flat after warm-up. Short in `npm test`; the full run is
// `npm run soak` (SOAK_SECONDS=300).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS as IDEMPOTENCY } from '../../src/engine/requests/idempotency.js';
import { tenantIdOf } from '../../src/engine/tenancy/tenants.js';
import { LIMITS as WEBHOOKS } from '../../src/domains/webhooks/deliveries.service.js';
import { Outbox } from '../../src/domains/webhooks/outbox.js';
import { createTestApp, type TestApp } from '../support/app.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 6);
/** Rounds each client makes at least, however slow the machine, so every bound is reached. */
const MIN_ROUNDS = 120;
const TENANTS = 50;
const EVENTS = 50;
const JOURNAL = 30;
const RESPONSES = 10;
const keyOf = (i: number) => `sk_test_soak${String(i).padStart(28, '0')}`;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const kept = IDEMPOTENCY.responsesKept;
afterAll(() => {
  IDEMPOTENCY.responsesKept = kept;
});

const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** One tenant's client: creations from a bounded set of references (so many are replays), reads,
 * listings, clock advances, a webhook to a closed port, and a reset now and then. */
async function client(t: TestApp, n: number, until: number, stats: { requests: number; errors: string[] }) {
  const key = keyOf(n);
  const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await t.call(method, path, { key, body, headers, unchecked: true });
    stats.requests++;
    if (res.status >= 500) stats.errors.push(`${method} ${path} ${res.status} ${res.text.slice(0, 200)}`);
    return res;
  };
  // nothing listens on port 2 (port 9 would be refused at PUT: HTTP clients never connect to it)
  if (n % 5 === 0) await call('PUT', '/_sandbox/webhooks', { url: 'http://127.0.0.1:2/hook' });
  for (let i = 0; i < MIN_ROUNDS || Date.now() < until; i++) {
    // In-process requests never leave the microtask queue: yield, as socket I/O would, so timers
    // (the heap sampler) and the webhook sender get their turn.
    if (i % 10 === 0) await new Promise(setImmediate);
    const ref = `s-${i % 100}`;
    switch (i % 8) {
      case 0:
        await call('POST', '/api/v1/partners/payouts', { reference: ref, amount: 100, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });
        break;
      case 1:
        await call('POST', '/api/v1/partners/wallets/payouts', { reference: ref, chain: 'base', asset: 'usdc', amount: 1, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' });
        break;
      case 2:
        await call('POST', '/api/v1/transfers', { reference: `00000000-0000-4000-8000-${(i % 100).toString(16).padStart(12, '0')}`, amount: 500, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' }, destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058' } }, { 'x-service-source': 'soak' });
        break;
      case 3:
        await call('POST', '/api/v1/partners/withdrawal', { accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9', accountName: 'John Doe', accountNumber: '0123456789', amount: 100, bankCode: 'SPB-17646' }, { 'idempotency-key': ref });
        break;
      case 4:
        await call('POST', '/_sandbox/clock/advance', { seconds: 30 });
        break;
      case 5:
        await call('GET', `/api/v1/partners/payouts/s-${(i + 92) % 100}`);
        break;
      case 6:
        await call('GET', i % 16 === 6 ? '/_sandbox/events?limit=1000' : '/_sandbox/requests?limit=200');
        break;
      default:
        if (i % 1200 === 7) await call('POST', '/_sandbox/reset');
        else await call('GET', '/_sandbox/balances');
    }
  }
}

async function sizes(t: TestApp, key: string) {
  const ts = await t.store.tenant(tenantIdOf(key));
  const size = (name: string) => ts.collection(name).size;
  const tenant = await t.tenants.get(key, 'sandbox');
  return {
    events: size('events'),
    // Kept per resource kind: the largest of the four kinds the load creates with a reference.
    responses: Math.max(...['payout', 'wallet_payout', 'transfer', 'withdrawal'].map((kind) => size(`idempotency_kept:${kind}`))),
    deliveries: size('webhook_deliveries'),
    journal: (await tenant.journal.list(10_000)).length,
  };
}

describe(`soak: ${SECONDS} s of mixed load over ${TENANTS} tenants`, () => {
  it('keeps every per-tenant structure bounded and the heap flat after warm-up', async () => {
    IDEMPOTENCY.responsesKept = RESPONSES;
    const outbox = new Outbox({ timeoutMs: 200 });
    const t = await createTestApp({ outbox, config: { eventLogSize: EVENTS, journalSize: JOURNAL } });
    const stats = { requests: 0, errors: [] as string[] };
    const start = Date.now();
    const end = start + SECONDS * 1000;
    const samples: { at: number; mb: number }[] = [];
    const sampler = setInterval(() => samples.push({ at: Date.now() - start, mb: heapMb() }), Math.max(500, (SECONDS * 1000) / 20));
    await Promise.all(Array.from({ length: TENANTS }, (_, n) => client(t, n, end, stats)));
    clearInterval(sampler);

    expect(stats.errors.slice(0, 5)).toEqual([]);
    expect(stats.requests).toBeGreaterThanOrEqual(TENANTS * MIN_ROUNDS);
    for (let n = 0; n < TENANTS; n++) {
      const s = await sizes(t, keyOf(n));
      expect(s.events).toBeLessThanOrEqual(EVENTS);
      expect(s.journal).toBeLessThanOrEqual(JOURNAL);
      expect(s.responses).toBeLessThanOrEqual(RESPONSES);
      expect(s.deliveries).toBeLessThanOrEqual(WEBHOOKS.deliveriesKept);
    }
    const busy = await sizes(t, keyOf(0));
    expect(busy.events).toBe(EVENTS);
    expect(busy.responses).toBe(RESPONSES);
    expect(busy.deliveries).toBeGreaterThan(0);

    if (process.env.SOAK_SECONDS) {
      console.log(`soak: ${stats.requests} requests in ${SECONDS} s; heap MB: ${samples.map((s) => s.mb.toFixed(1)).join(' ')}`);
    }
    // Flat heap: the late samples are not above the warm-up ones by more than noise.
    const warm = samples.filter((s) => s.at >= SECONDS * 300);
    expect(warm.length).toBeGreaterThanOrEqual(3);
    const first = Math.max(...warm.slice(0, 2).map((s) => s.mb));
    const last = Math.min(...warm.slice(-2).map((s) => s.mb));
    expect(last - first, `heap MB over time: ${samples.map((s) => s.mb.toFixed(1)).join(' ')}`).toBeLessThan(Math.max(20, first * 0.25));
  }, (SECONDS + 60) * 1000);
});
