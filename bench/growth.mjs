// node bench/growth.mjs: the longest requests while one key creates BENCH_GROWTH_COUNT payouts
// (default 140,000), in process through app.request(), with no resource cap, and the longest
// stalls of the event loop meanwhile (a 5 ms timer firing late). A request that takes far longer
// than its neighbours at a power of two is a table rebuilt at once as a map doubles (see "A map's
// growth" in bench/README.md); the others of a few ms are garbage collections. BENCH_GROWTH_STORE=data
// keeps the key in a lowdb store (--data) in a temporary folder, where the log's compactions show.
// BENCH_SRC=<checkout>/src measures another checkout's sources.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleApp } from './bundle-app.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = path.resolve(process.env.BENCH_SRC ?? path.join(root, 'src'));
const COUNT = Number(process.env.BENCH_GROWTH_COUNT ?? 140_000);

const DATA = process.env.BENCH_GROWTH_STORE === 'data';

const { createApp, ConfigSchema, MemoryStore, LowdbStore, systemClock } = await bundleApp(
  src,
  { createApp: 'app.ts', ConfigSchema: 'config.ts', MemoryStore: 'store/memory.store.ts', LowdbStore: 'store/lowdb.store.ts', systemClock: 'kernel/clock.ts' },
  { root, prefix: '.growth-' },
);
const dir = DATA ? mkdtempSync(path.join(tmpdir(), 'bench-growth-')) : undefined;
const store = DATA ? await LowdbStore.open(dir) : new MemoryStore();
let i = 0;
// The clock runs at 6,000 requests a second, as the server's under the bench's load.
const start = systemClock.now();
const clock = { now: () => start + Math.floor(i / 6) };
const { app } = createApp({ config: ConfigSchema.parse({ seed: 7, maxResources: 0 }), store, clock });
const headers = { authorization: 'Bearer sk_test_growth0001', 'content-type': 'application/json' };
const times = [];
const stalls = [];
let last = performance.now();
const tick = setInterval(() => {
  const now = performance.now();
  stalls.push([i, now - last - 5]);
  last = now;
}, 5);
for (; i < COUNT; i++) {
  const body = JSON.stringify({ reference: `g-${i}`, amount: 1000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });
  const t0 = performance.now();
  const res = await app.request('/api/v1/partners/payouts', { method: 'POST', headers, body });
  await res.text();
  if (res.status >= 300) throw new Error(`payout ${i + 1}: ${res.status}`);
  times.push([i + 1, performance.now() - t0]);
}
clearInterval(tick);
await store.close();
if (dir) rmSync(dir, { recursive: true, force: true });
const longest = (list) => list.slice(100).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, ms]) => `${n}: ${ms.toFixed(1)}`).join(', ');
console.log(`${COUNT} payouts of one key (${path.relative(root, src) || src}, ${DATA ? 'lowdb store' : 'memory store'}), as payout number: ms`);
console.log(`the longest requests: ${longest(times)}`);
console.log(`the longest loop stalls: ${longest(stalls)}`);
