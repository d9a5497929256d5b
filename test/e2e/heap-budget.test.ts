// A real process with a small heap, filled by many keys each within its own cap: the memory budget
// refuses what would grow it, and the process lives on for every key. Without the budget such uploads
// end the process (V8 aborts when the heap is full: eight 10,000-row files in a 96 MB old generation).
import { afterEach, expect, it } from 'vitest';
import { bulkRow } from '../support/bulk.js';
import { startServer, type RunningServer } from '../support/server.js';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
});

const FILE = JSON.stringify({ items: Array.from({ length: 10_000 }, (_, i) => bulkRow(i)) });
const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const keyOf = (n: number) => `sk_test_heap${String(n).padStart(4, '0')}`;

it('refuses creates past the budget with 503, serves reads, and creates again after resets', async () => {
  // An old generation of 128 MB, half of it the budget: a few 10,000-row files fill it, with room left
  // for the ones under way.
  running = await startServer(['--heap-budget', '50'], { NODE_OPTIONS: '--max-old-space-size=128' });
  const { url } = running;
  expect(running.output()).toMatch(/ {2}memory: {3}\d+ MB of live heap for all keys \(50 % of the 128 MB the heap may hold\); past it creates and keys first seen get 503\n/);
  let refused: Response | undefined;
  let uploaded = 0;
  for (; uploaded < 40; uploaded++) {
    const res = await fetch(`${url}/_sandbox/bulk-disbursements`, { method: 'POST', headers: headers(keyOf(uploaded)), body: FILE });
    if (res.status === 503) {
      refused = res;
      break;
    }
    expect(res.status, await res.text()).toBe(201);
    await res.arrayBuffer().catch(() => undefined);
  }
  expect(refused, 'no upload was refused').toBeDefined();
  expect(uploaded).toBeGreaterThanOrEqual(2);
  expect(refused!.headers.get('retry-after')).toBe('10');
  const body = (await refused!.json()) as { message: string; error: { code: string } };
  expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(body.message).toMatch(/^This sandbox holds as much as its memory allows \(\d+ MB in use against a budget of \d+ MB, 50 % of the 128 MB its heap may hold\)/);

  // The process lives, says it is full, and a key that holds resources reads them.
  const health = await fetch(`${url}/_sandbox/health`);
  expect(health.status).toBe(200);
  expect(((await health.json()) as { memory: unknown }).memory).toEqual({ budgetMb: expect.any(Number), full: true });
  const listed = await fetch(`${url}/_sandbox/resources?limit=1`, { headers: headers(keyOf(0)) });
  expect(listed.status).toBe(200);

  // The keys that uploaded let their resources go (the refused one may never have begun: a key first
  // seen is refused too); creates are taken again once the budget has looked again.
  for (let n = 0; n < uploaded; n++) expect((await fetch(`${url}/_sandbox/reset`, { method: 'POST', headers: headers(keyOf(n)) })).status).toBe(200);
  const payout = JSON.stringify({ reference: 'after-reset', amount: 1000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });
  let status = 0;
  for (let tries = 0; tries < 30 && status !== 201; tries++) {
    if (tries) await new Promise((r) => setTimeout(r, 1000));
    status = (await fetch(`${url}/api/v1/partners/payouts`, { method: 'POST', headers: headers(keyOf(0)), body: payout })).status;
  }
  expect(status).toBe(201);
  expect(running.proc.exitCode).toBeNull();
}, 60_000);
