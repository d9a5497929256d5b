// The process's memory budget as a partner meets it: past it, creates of every kind and keys first
// seen are refused with 503 and Retry-After in the route's own envelope; reads, resets and the keys
// already known go on. The heap is a gauge the test sets, so each figure is exact.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { getHeapStatistics } from 'node:v8';
import { HeapBudget, oldGenerationLimit, sizeFlagMb } from '../../src/kernel/heap-budget.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { afterThisTest } from '../support/cleanup.js';
import { createTestApp, KEY, KEY_B, payoutRequest, type TestApp } from '../support/app.js';
import { fx, instruction, rejection } from '../support/fx.js';
import { gauge, MB } from '../support/heap.js';
import { intent, transfer as transferRequest, TRANSFERS, WALLET, walletPayout, withdrawal, WITHDRAWAL } from '../scenarios/resources.js';

describe("what the old generation may hold", () => {
  it('is --max-old-space-size when given, the command line winning over NODE_OPTIONS', () => {
    expect(sizeFlagMb('max-old-space-size', ['--max-old-space-size=512'], '')).toBe(512);
    expect(sizeFlagMb('max-old-space-size', ['--max_old_space_size=300'], '--max-old-space-size=200')).toBe(300);
    expect(sizeFlagMb('max-old-space-size', [], '--max-semi-space-size=8 --max-old-space-size 96')).toBe(96);
    expect(sizeFlagMb('max-old-space-size', ['--max-old-space-size=x'], '')).toBeUndefined();
    expect(oldGenerationLimit(['--max-old-space-size=128', '--max-semi-space-size=16'], '')).toBe(128 * MB);
  });

  it('is the heap limit less three semi-spaces otherwise', () => {
    // This process's heap limit is its old generation's plus its young generation's.
    expect(oldGenerationLimit([], '--max-semi-space-size=8')).toBe(getHeapStatistics().heap_size_limit - 24 * MB);
    expect(oldGenerationLimit([], '')).toBe(getHeapStatistics().heap_size_limit - 96 * MB);
  });
});

describe('the budget over a gauge', () => {
  it('is reached only when a full collection leaves the heap past it', () => {
    const { g, heap } = gauge();
    const budget = new HeapBudget(0.75, heap, { forceEveryMs: 10_000 });
    expect(budget.bytes).toBe(750 * MB);
    budget.sample();
    expect(budget.over()).toBe(false);
    // 800 MB in use, but a collection leaves 300: garbage, not a full heap.
    g.inUse = 800 * MB;
    g.live = 300 * MB;
    budget.sample();
    expect(g.collections).toBe(1);
    expect(budget.over()).toBe(false);
    // Past it again 5 s later: no second collection within 10 s, and the last one said 300 MB.
    g.at = 5_000;
    g.inUse = 900 * MB;
    g.live = 800 * MB;
    budget.sample();
    expect(g.collections).toBe(1);
    expect(budget.over()).toBe(false);
    // 10 s after the first, a collection again: 800 MB live is past 750.
    g.at = 10_000;
    budget.sample();
    expect(g.collections).toBe(2);
    expect(budget.over()).toBe(true);
    expect(budget.figures()).toEqual({ liveMb: 800, budgetMb: 750, limitMb: 1000, percent: 75 });
  });

  it('counts a collection V8 ran itself, and runs none of its own after it', () => {
    const { g, heap } = gauge();
    const budget = new HeapBudget(0.5, heap);
    g.inUse = 600 * MB;
    budget.noteCollected();
    budget.sample();
    expect(g.collections).toBe(0);
    expect(budget.over()).toBe(true);
  });

  it('is off at 0 %', () => {
    const { g, heap } = gauge();
    const budget = new HeapBudget(0, heap);
    g.inUse = g.live = 999 * MB;
    budget.sample();
    budget.noteCollected();
    expect(budget.over()).toBe(false);
    expect(g.collections).toBe(0);
  });
});

describe('creates and keys past the budget', () => {
  let t: TestApp;
  let g: ReturnType<typeof gauge>['g'];
  let budget: HeapBudget;

  beforeEach(async () => {
    const made = gauge();
    g = made.g;
    budget = new HeapBudget(0.75, made.heap);
    t = await createTestApp({ heap: budget });
  });

  /** The heap's live part, as the next sample finds it (a full collection is run for it). */
  function fill(liveMb: number) {
    g.inUse = g.live = liveMb * MB;
    g.at += 10_000;
    budget.sample();
  }

  it('refuses a payout with 503 and Retry-After, keeps what was made, and takes creates again once room is made', async () => {
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('before') })).status).toBe(201);
    fill(800);
    const refused = await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('after') });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect((await t.call('GET', '/_sandbox/health', { key: null })).body.memory).toEqual({ budgetMb: 750, full: true });
    expect(refused.body.error).toEqual({ type: 'api_error', code: 'SERVICE_UNAVAILABLE', details: [] });
    expect(refused.body.message).toBe(
      'This sandbox holds as much as its memory allows (800 MB in use against a budget of 750 MB, 75 % of the 1000 MB its heap may hold), ' +
        'so nothing more can be created for any key until room is made. Nothing was written. Retry after 10 s: resources leave ' +
        "as they age, and POST /_sandbox/reset forgets this key's resources. Reads, timed moves and webhooks go on.",
    );
    // Nothing was written, and what was made before is read as ever.
    expect((await t.call('GET', '/api/v1/partners/payouts/after')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/partners/payouts/before')).body.data.reference).toBe('before');
    // A reset of a key that held resources has the next sample look again 2 s after the last
    // collection, not 10; the collection runs on the sampler's timer, not in the reset.
    g.live = 200 * MB;
    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect(g.collections).toBe(1);
    g.at += 2000;
    budget.sample();
    expect(g.collections).toBe(2);
    expect(budget.over()).toBe(false);
    expect((await t.call('GET', '/_sandbox/health', { key: null })).body.memory).toEqual({ budgetMb: 750, full: false });
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('after') })).status).toBe(201);
  });

  it('refuses every kind of create, each in its own envelope', async () => {
    fill(800);
    const json = [
      [WALLET, walletPayout('w-1')],
      [WITHDRAWAL, withdrawal()],
      ['/api/v1/partners/marketplace/intent', intent],
    ] as const;
    for (const [path, body] of json) {
      const res = await t.call('POST', path, { body, headers: path === WITHDRAWAL ? { 'idempotency-key': 'wd-1' } : {} });
      expect([path, res.status, res.body.error?.code]).toEqual([path, 503, 'SERVICE_UNAVAILABLE']);
    }
    const transfer = await t.call('POST', TRANSFERS, { headers: { 'x-service-source': 'test' }, body: transferRequest('0000beef-0000-4000-8000-000000000001') });
    expect(transfer.status).toBe(503);
    // A bulk file is refused before it is read: a text that is no JSON at all gets the 503, not a 400.
    const bulk = await t.call('POST', '/_sandbox/bulk-disbursements', { raw: '{"items": [', headers: { 'content-type': 'application/json' } });
    expect([bulk.status, bulk.headers.get('retry-after'), bulk.body.error?.code]).toEqual([503, '10', 'SERVICE_UNAVAILABLE']);
    const trade = await fx(t, 'POST', '/trades', { xml: instruction() });
    expect(trade.status).toBe(503);
    expect(trade.headers.get('retry-after')).toBe('10');
    expect(rejection(trade).text).toMatch(/^This sandbox holds as much as its memory allows \(800 MB in use/);
  });

  it('refuses a key it has not seen, and serves the keys it holds', async () => {
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('kept') })).status).toBe(201);
    fill(800);
    const stranger = await t.call('GET', '/api/v1/partners/payouts/kept', { key: KEY_B });
    expect(stranger.status).toBe(503);
    expect(stranger.headers.get('retry-after')).toBe('10');
    expect(stranger.body.message).toMatch(/so an API key it has not seen before cannot begin until room is made/);
    expect((await t.call('GET', '/api/v1/partners/payouts/kept', { key: KEY })).status).toBe(200);
    // Once the heap is under the budget, the new key begins.
    fill(400);
    expect((await t.call('GET', '/api/v1/partners/payouts/kept', { key: KEY_B })).status).toBe(404);
  });
});

/** A sandbox over a store that keeps files in a directory of its own, with a budget over a heap the test sets. */
async function keepingFiles() {
  const dir = await mkdtemp(path.join(tmpdir(), 'heap-budget-'));
  const { g, heap } = gauge();
  const budget = new HeapBudget(0.75, heap);
  const t = await createTestApp({ heap: budget, store: await LowdbStore.open(dir) });
  afterThisTest(async () => {
    await t.store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { t, g, budget };
}

describe('a store that keeps files, past the budget', () => {
  it('lets half its idle keys go from memory for a key it loads, at most once a second, rather than refusing it', async () => {
    const { t, g, budget } = await keepingFiles();
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('on-disk') })).status).toBe(201);
    expect(t.tenants.stats()).toMatchObject({ loaded: 1, evictions: 0 });
    g.inUse = g.live = 800 * MB;
    g.at = 10_000;
    budget.sample();
    // Another key begins: the idle one is written down and let go instead.
    expect((await t.call('GET', '/api/v1/partners/payouts/on-disk', { key: KEY_B })).status).toBe(404);
    expect(t.tenants.stats()).toMatchObject({ loaded: 1, evictions: 1 });
    // Its data load again from disk, without unloading the other within the second (until the budget
    // samples the heap again, unloading more would only make keys taking turns reload each other);
    // creates stay refused while the heap is past the budget.
    expect((await t.call('GET', '/api/v1/partners/payouts/on-disk')).body.data.reference).toBe('on-disk');
    expect(t.tenants.stats()).toMatchObject({ loaded: 2, evictions: 1 });
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('more') })).status).toBe(503);
  });

  it('refuses a key it loads while every loaded key is busy (an open rate stream), and lets the idle one go once it is not', async () => {
    const { t, g, budget } = await keepingFiles();
    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('streaming') })).status).toBe(201);
    const stream = await t.app.request('/api/v1/partners/marketplace/rates/stream?from=NGN&to=USDT', { headers: { authorization: `Bearer ${KEY}` } });
    expect(stream.status).toBe(200);
    g.inUse = g.live = 800 * MB;
    g.at = 10_000;
    budget.sample();
    // The only loaded key holds a stream open: nothing can be let go, so the new key is refused.
    const refused = await t.call('GET', '/api/v1/partners/payouts/streaming', { key: KEY_B });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '10']);
    expect(refused.body.message).toMatch(/so an API key it has not seen before cannot begin until room is made/);
    expect(t.tenants.stats()).toMatchObject({ loaded: 1, evictions: 0 });
    // The busy key is served as ever.
    expect((await t.call('GET', '/api/v1/partners/payouts/streaming')).body.data.reference).toBe('streaming');
    // Its stream closed, it is idle: past the second the answer holds for, the new key begins in its place.
    await stream.body!.cancel();
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.call('GET', '/api/v1/partners/payouts/streaming', { key: KEY_B })).status).toBe(404);
    expect(t.tenants.stats()).toMatchObject({ loaded: 1, evictions: 1 });
  });
});
