// node --expose-gc bench/heap.mjs: what the live heap holds per created resource, in process.
// Builds the app over a memory store (as bench/app-cpu.mjs does), creates BENCH_HEAP_COUNT resources
// (default 100,000) across 100 keys through app.request(), payouts alone or the mixed set of the
// bench's RSS part (BENCH_RSS=payouts|mixed, default both), and prints the heap a full GC leaves
// before and after, per resource. BENCH_HEAP_SNAPSHOT=1 writes a heap snapshot at the end of each set
// (open it in Chrome's DevTools, Memory tab, "Summary" by constructor). BENCH_SRC=<checkout>/src
// measures another checkout's sources.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { bundleApp } from './bundle-app.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc bench/heap.mjs');
const root = fileURLToPath(new URL('..', import.meta.url));
const src = path.resolve(process.env.BENCH_SRC ?? path.join(root, 'src'));
const COUNT = Number(process.env.BENCH_HEAP_COUNT ?? 100_000);
const KEYS = 100;

const appOf = () => bundleApp(src, { createApp: 'app.ts', ConfigSchema: 'config.ts', MemoryStore: 'store/memory.store.ts', systemClock: 'kernel/clock.ts' }, { root, prefix: '.heap-' });

const { createApp, ConfigSchema, MemoryStore, systemClock } = await appOf();
const json = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const xml = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/xml' });
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const NGN_ACCOUNT = '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9';
const FX_TRADE =
  '<?xml version="1.0" encoding="UTF-8"?><FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1000</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';

/** The creating workloads of bench/run.mjs, as [path, headers, body] for request n of a key. */
const CREATES = {
  payout: (key, n) => ['/api/v1/partners/payouts', json(key), JSON.stringify({ reference: `b-${n}`, amount: 1000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } })],
  'wallet payout': (key, n) => ['/api/v1/partners/wallets/payouts', json(key), JSON.stringify({ reference: `w-${n}`, chain: 'base', asset: 'usdc', amount: 10, toAddress: ADDRESS })],
  withdrawal: (key) => ['/api/v1/partners/withdrawal', json(key), JSON.stringify({ accountId: NGN_ACCOUNT, accountName: 'John Doe', accountNumber: '0123456789', amount: 1000, bankCode: '058', authCode: '123456' })],
  transfer: (key, n) => [
    '/api/v1/transfers',
    { ...json(key), 'x-service-source': 'bench' },
    JSON.stringify({ reference: `0000beef-0000-4000-8000-${n.toString(16).padStart(12, '0')}`, amount: 1000, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' }, destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } }),
  ],
  'FX trade': (key) => ['/api/v1/partners/fx/trades', xml(key), FX_TRADE],
  'quote intent': (key) => ['/api/v1/partners/marketplace/intent', json(key), JSON.stringify({ sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 1000, amountDirection: 'source' })],
};

// After a turn of the event loop: WeakRefs made in the current job (each web Request's signal) are
// kept until it ends.
// Finalization callbacks (undici's per Request) run in a task after the GC that found their
// targets dead: a second GC after them collects what they held.
const live = async () => {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    globalThis.gc();
  }
  return process.memoryUsage().heapUsed;
};

async function measure(set, kinds) {
  // The clock runs at 10,000 requests a second, as the server's under the bench's load, whatever this
  // process's own pace: timed moves fall due as they would there (none within 100,000 payouts).
  const start = systemClock.now();
  let i = 0;
  const clock = { now: () => start + Math.floor(i / 10) };
  const store = new MemoryStore();
  const { app, tenants } = createApp({ config: ConfigSchema.parse({ seed: 7, maxResources: 0 }), store, clock });
  const keys = Array.from({ length: KEYS }, (_, i) => `sk_test_heap${set}${String(i).padStart(4, '0')}`);
  for (const key of keys) {
    const res = await app.request('/_sandbox/balances/top-up', { method: 'POST', headers: json(key), body: JSON.stringify({ key: 'usdc:base', amount: 1e12 }) });
    await res.text();
  }
  const before = await live();
  const t0 = performance.now();
  for (; i < COUNT; i++) {
    const key = keys[i % KEYS];
    const n = Math.floor(i / KEYS);
    const [p, headers, body] = CREATES[kinds[n % kinds.length]](key, n);
    const res = await app.request(p, { method: 'POST', headers, body });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${text.slice(0, 300)}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  const after = await live();
  console.log(
    `${set}: ${COUNT} in ${seconds.toFixed(1)} s; live heap ${(before / 2 ** 20).toFixed(1)} MB before, ${(after / 2 ** 20).toFixed(1)} MB after: ` +
      `${((after - before) / 2 ** 20).toFixed(1)} MB, ${Math.round((after - before) / COUNT)} bytes per resource`,
  );
  if (process.env.BENCH_HEAP_SNAPSHOT) console.log(`snapshot: ${v8.writeHeapSnapshot()}`);
  if (process.env.BENCH_HEAP_PARTS) await parts(store, tenants, after);
  return app;
}

/** What each part holds: the heap freed by forgetting it in every tenant, one part after another
 * (the journal and the scheduler's order first, then each store collection, largest last). */
async function parts(store, tenants, total) {
  const loaded = [...tenants.loaded()];
  const stores = await Promise.all(store.tenantIds().map((id) => store.tenant(id)));
  let last = total;
  const forget = async (name, drop) => {
    drop();
    const now = await live();
    console.log(`  ${name}: ${((last - now) / 2 ** 20).toFixed(1)} MB, ${Math.round((last - now) / COUNT)} bytes per resource`);
    last = now;
  };
  await forget('journal', () => loaded.forEach((t) => t.journal.clear()));
  const names = new Set(stores.flatMap((s) => [...(s.data?.keys() ?? [])]));
  for (const name of names) await forget(`collection ${name}`, () => stores.forEach((s) => s.data?.get(name)?.clear()));
  await forget('scheduler', () => loaded.forEach((t) => t.scheduler.clear()));
}

const sets = process.env.BENCH_RSS?.split(',') ?? ['payouts', 'mixed'];
if (sets.includes('payouts')) await measure('payouts', ['payout']);
if (sets.includes('mixed')) await measure('mixed', Object.keys(CREATES));
