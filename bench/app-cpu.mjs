// node bench/app-cpu.mjs: CPU time per request of the whole app in process (app.request(), no
// sockets, no load generator), per workload: routing, middleware, validation, the service, the
// response. Each figure is the median of rounds of process.cpuUsage() (user plus system, garbage
// collection included) divided by the requests made, so what other processes do to the machine
// weighs less than on requests per second. It is the figure to compare two commits with:
// BENCH_SRC=/path/to/other/src measures another checkout's sources (its packages are taken from its
// own node_modules when it has one), and BENCH_SRC=src,/other/src measures both in one process in
// alternating rounds, a column each, so a slow spell of the machine weighs on both alike.
// BENCH_ONLY="POST payout,GET listings (XML)" runs only those.
// The quote flow is intent, complete and pay-in, counted per step. app.request() builds a web
// Request per call, so the figures are higher than the server's own per request over sockets.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleApp } from './bundle-app.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = (process.env.BENCH_SRC ?? path.join(root, 'src')).split(',').map((p) => path.resolve(p));
const only = process.env.BENCH_ONLY?.split(',').map((n) => n.trim());
const ROUNDS = 7;
const PER_ROUND = 2000;

/** One checkout's app, bundled with its packages and built over a memory store. */
async function appOf(src) {
  const { createApp, ConfigSchema, MemoryStore, systemClock } = await bundleApp(src, { createApp: 'app.ts', ConfigSchema: 'config.ts', MemoryStore: 'store/memory.store.ts', systemClock: 'kernel/clock.ts' }, { root, prefix: '.app-cpu-' });
  return createApp({ config: ConfigSchema.parse({ seed: 7 }), store: new MemoryStore(), clock: systemClock }).app;
}

const apps = [];
for (const src of sources) apps.push(await appOf(src));
let app;

let keys = 0;
const json = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const xml = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/xml' });
const send = async (p, init) => {
  const res = await app.request(p, init);
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${init?.method ?? 'GET'} ${p}: ${res.status} ${text.slice(0, 200)}`);
  return text;
};
const payout = (reference) =>
  JSON.stringify({ reference, amount: 1000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });
/** The FX trade each key's read-back reads, by key. */
const fxTrades = new Map();
const FX_TRADE =
  '<?xml version="1.0" encoding="UTF-8"?><FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1000</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
/** Every key's NGN balance account (a fixed id of the sandbox's accounts). */
const NGN_ACCOUNT = '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9';
const INTENT = JSON.stringify({ sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 1000, amountDirection: 'source' });

/** Each workload: a setup for a fresh key, then one call per request (n counts requests of the key). */
const WORKLOADS = {
  'POST payout': { run: (key, n) => send('/api/v1/partners/payouts', { method: 'POST', headers: json(key), body: payout(`b-${n}`) }) },
  'GET payout read-back': {
    setup: (key) => send('/api/v1/partners/payouts', { method: 'POST', headers: json(key), body: payout('read') }),
    run: (key) => send('/api/v1/partners/payouts/read', { headers: json(key) }),
  },
  'POST wallet payout': {
    setup: (key) => send('/_sandbox/balances/top-up', { method: 'POST', headers: json(key), body: JSON.stringify({ key: 'usdc:base', amount: 1e12 }) }),
    run: (key, n) =>
      send('/api/v1/partners/wallets/payouts', {
        method: 'POST',
        headers: json(key),
        body: JSON.stringify({ reference: `w-${n}`, chain: 'base', asset: 'usdc', amount: 10, toAddress: ADDRESS }),
      }),
  },
  'POST withdrawal': {
    run: (key) =>
      send('/api/v1/partners/withdrawal', {
        method: 'POST',
        headers: json(key),
        body: JSON.stringify({ accountId: NGN_ACCOUNT, accountName: 'John Doe', accountNumber: '0123456789', amount: 1000, bankCode: '058', authCode: '123456' }),
      }),
  },
  'POST transfer': {
    run: (key, n) =>
      send('/api/v1/transfers', {
        method: 'POST',
        headers: { ...json(key), 'x-service-source': 'bench' },
        body: JSON.stringify({
          reference: `0000beef-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
          amount: 1000,
          currency: 'NGN',
          type: 'BANK',
          source: { accountNumber: '1000200030' },
          destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
        }),
      }),
  },
  'GET transfer read-back': {
    setup: (key) => WORKLOADS['POST transfer'].run(key, 0),
    run: (key) => send('/api/v1/transfers/0000beef-0000-4000-8000-000000000000', { headers: { ...json(key), 'x-service-source': 'bench' } }),
  },
  'POST quote intent': { run: (key) => send('/api/v1/partners/marketplace/intent', { method: 'POST', headers: json(key), body: INTENT }) },
  // The readiness report of a key whose journal is full (200 requests, refusals among them) and whose
  // observations hold evidence: the report's own cost, far under its 100 ms target.
  'GET readiness report': {
    setup: async (key) => {
      for (let n = 0; n < 200; n++) {
        const body = n % 10 === 0 ? payout(`r-${n}`).replace('"amount":1000', '"amount":-1') : payout(`r-${n}`);
        await app.request('/api/v1/partners/payouts', { method: 'POST', headers: json(key), body });
      }
    },
    run: (key) => send('/_sandbox/report', { headers: json(key) }),
  },
  'POST FX trade (XML)': { run: (key) => send('/api/v1/partners/fx/trades', { method: 'POST', headers: xml(key), body: FX_TRADE }) },
  'GET FX trade (XML)': {
    setup: async (key) => fxTrades.set(key, /<TxId>([^<]+)<\/TxId>/.exec(await send('/api/v1/partners/fx/trades', { method: 'POST', headers: xml(key), body: FX_TRADE }))[1]),
    run: (key) => send(`/api/v1/partners/fx/trades/${fxTrades.get(key)}`, { headers: xml(key) }),
  },
  'GET listings (XML)': { run: (key) => send('/api/v1/partners/fx/listings?source=NGN&destination=USDT', { headers: xml(key) }) },
  'GET maker rate (XML)': { run: (key) => send('/api/v1/partners/fx/rates/makers?from=NGN&to=USDT', { headers: xml(key) }) },
  'quote flow per step': {
    steps: 3,
    run: async (key) => {
      const intent = JSON.parse(
        await send('/api/v1/partners/marketplace/intent', {
          method: 'POST',
          headers: json(key),
          body: INTENT,
        }),
      );
      await send(`/api/v1/quotes/complete/${intent.quoteId}`, {
        method: 'PUT',
        headers: json(key),
        body: JSON.stringify({ destination: { blockChain: { address: ADDRESS } } }),
      });
      await send(`/_sandbox/simulate/quotes/${intent.quoteId}/pay-in`, { method: 'POST', headers: json(key) });
    },
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

const heads = sources.map((src) => path.relative(process.cwd(), src) || '.');
console.log(`CPU µs per request, median of ${ROUNDS} rounds of ${PER_ROUND} requests, node ${process.version}`);
console.log(`| workload | ${heads.join(' | ')} |`);
console.log(`|---|${heads.map(() => '---:').join('|')}|`);
for (const [name, w] of Object.entries(WORKLOADS)) {
  if (only && !only.includes(name)) continue;
  const steps = w.steps ?? 1;
  const calls = Math.ceil(PER_ROUND / steps);
  const rounds = apps.map(() => []);
  for (let r = 0; r <= ROUNDS; r++) {
    for (const [i, a] of apps.entries()) {
      app = a;
      // A fresh key per round keeps each round's tenant the same size; round 0 warms up.
      const key = `sk_test_cpu${++keys}`;
      await w.setup?.(key);
      const t0 = cpuMicros();
      for (let n = 0; n < calls; n++) await w.run(key, n);
      if (r > 0) rounds[i].push((cpuMicros() - t0) / (calls * steps));
    }
  }
  console.log(`| ${name} | ${rounds.map((xs) => median(xs).toFixed(1)).join(' | ')} |`);
}
