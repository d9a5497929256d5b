// npm run bench: the sandbox and a bare Hono server, same machine, same run, same load.
// Prints a table and writes bench/results.json so figures can be compared between commits.
// BENCH_SECONDS sets the length of each workload (default 10), BENCH_ROUNDS how many alternating
// rounds it is split into (default 2). BENCH_ONLY="POST payout,GET listings (XML)" runs only those
// workloads, prints their rows and skips the other measurements and results.json.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
/** Each server's seconds per workload are split into this many alternating rounds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ONLY = process.env.BENCH_ONLY?.split(',').map((n) => n.trim());
const CONNECTIONS = 50;
let keySeq = 0;
const newKey = () => `sk_test_bench${String(++keySeq).padStart(4, '0')}${Date.now().toString(16)}`;

const children = new Set();
process.on('exit', () => children.forEach((p) => p.kill('SIGKILL')));

function start(args, file = 'dist/main.js') {
  const t0 = performance.now();
  const flags = file === 'dist/main.js' ? ['--max-semi-space-size=32'] : [];
  const proc = spawn(process.execPath, [...flags, file, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PORT: '0' } });
  children.add(proc);
  proc.on('exit', () => children.delete(proc));
  return new Promise((resolve, reject) => {
    let out = '';
    let found = false;
    proc.stdout.on('data', async (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m || found) return;
      found = true;
      // cold start: process spawn to the first 200 from health
      for (;;) {
        const ok = await fetch(`${m[1]}/_sandbox/health`).then((r) => r.ok, () => false);
        if (ok) break;
      }
      resolve({ proc, url: m[1], coldStartMs: performance.now() - t0 });
    });
    proc.on('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}

async function stop(s) {
  s.proc.kill('SIGKILL');
  await new Promise((r) => s.proc.once('exit', r));
}

const rssMb = (s) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.proc.pid}/status`, 'utf8'))[1]) / 1024);

const json = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const xml = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/xml' });
const uniq = () => Math.random().toString(36).slice(2, 8);

const payoutBody = (reference) =>
  JSON.stringify({ reference, amount: 1000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });

const FX_TRADE =
  '<?xml version="1.0" encoding="UTF-8"?><FXTradInstr><CcyPair><BaseCcy>NGN</BaseCcy><QtdCcy>USDT</QtdCcy></CcyPair><TradAmts><TradgCcyAmt>1000</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>';
/** The trade each key reads back in GET FX trade. */
const fxTrades = new Map();

/** Each workload: the autocannon requests for one key, and an optional setup run first. */
const WORKLOADS = {
  'POST payout': (key) => {
    let n = 0;
    const p = uniq();
    return [{ method: 'POST', path: '/api/v1/partners/payouts', headers: json(key), setupRequest: (req) => ({ ...req, body: payoutBody(`b-${p}-${++n}`) }) }];
  },
  'GET payout read-back': {
    setup: async (url, key) => fetch(`${url}/api/v1/partners/payouts`, { method: 'POST', headers: json(key), body: payoutBody('bench-read') }),
    requests: (key) => [{ method: 'GET', path: '/api/v1/partners/payouts/bench-read', headers: json(key) }],
  },
  'POST wallet payout': {
    // Enough usdc on base for every payout of the run.
    setup: async (url, key) =>
      fetch(`${url}/_sandbox/balances/top-up`, { method: 'POST', headers: json(key), body: JSON.stringify({ key: 'usdc:base', amount: 1e12 }) }),
    requests: (key) => {
    let n = 0;
    const p = uniq();
    return [
      {
        method: 'POST',
        path: '/api/v1/partners/wallets/payouts',
        headers: json(key),
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ reference: `w-${p}-${++n}`, chain: 'base', asset: 'usdc', amount: 10, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' }),
        }),
      },
    ];
    },
  },
  'POST FX trade (XML)': (key) => [{ method: 'POST', path: '/api/v1/partners/fx/trades', headers: xml(key), body: FX_TRADE }],
  'GET FX trade (XML)': {
    setup: async (url, key) => {
      const res = await fetch(`${url}/api/v1/partners/fx/trades`, { method: 'POST', headers: xml(key), body: FX_TRADE });
      fxTrades.set(key, /<TxId>([^<]+)<\/TxId>/.exec(await res.text())[1]);
    },
    requests: (key) => [{ method: 'GET', path: `/api/v1/partners/fx/trades/${fxTrades.get(key)}`, headers: xml(key) }],
  },
  'GET listings (XML)': (key) => [{ method: 'GET', path: '/api/v1/partners/fx/listings?source=NGN&destination=USDT', headers: xml(key) }],
  'GET maker rate (XML)': (key) => [{ method: 'GET', path: '/api/v1/partners/fx/rates/makers?from=NGN&to=USDT', headers: xml(key) }],
  'quote flow: intent, complete, pay-in': (key) => [
    {
      method: 'POST',
      path: '/api/v1/partners/marketplace/intent',
      headers: json(key),
      body: JSON.stringify({ sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 1000, amountDirection: 'source' }),
      onResponse: (status, body, context) => {
        if (status < 300) context.quoteId = JSON.parse(body).quoteId;
      },
    },
    {
      method: 'PUT',
      headers: json(key),
      setupRequest: (req, context) => ({
        ...req,
        path: `/api/v1/quotes/complete/${context.quoteId}`,
        body: JSON.stringify({ destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } }),
      }),
    },
    { method: 'POST', headers: json(key), setupRequest: (req, context) => ({ ...req, path: `/_sandbox/simulate/quotes/${context.quoteId}/pay-in` }) },
  ],
};

async function load(url, requests, opts = {}) {
  return autocannon({ url, connections: CONNECTIONS, requests, ...(opts.amount ? { amount: opts.amount } : { duration: opts.seconds ?? DURATION }) });
}

/** CPU time (user plus system, all threads) a server has used so far, in µs. */
function cpuUs(server) {
  const fields = readFileSync(`/proc/${server.proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100);
}

/** Warm a server up on a workload, then give it the key it is measured with. */
async function prepare(server, name) {
  const w = WORKLOADS[name];
  const requestsOf = typeof w === 'function' ? w : w.requests;
  const warm = newKey();
  if (w.setup) await w.setup(server.url, warm);
  await load(server.url, requestsOf(warm), { amount: 3000 });
  const key = newKey();
  if (w.setup) await w.setup(server.url, key);
  return { server, requestsOf, key, rounds: [] };
}

async function round(m, seconds) {
  const cpu0 = cpuUs(m.server);
  const r = await load(m.server.url, m.requestsOf(m.key), { seconds });
  m.rounds.push({ r, cpuUs: cpuUs(m.server) - cpu0 });
}

function summary(m) {
  const total = m.rounds.reduce((n, { r }) => n + r.requests.total, 0);
  const seconds = m.rounds.reduce((n, { r }) => n + r.duration, 0);
  const cpu = m.rounds.reduce((n, x) => n + x.cpuUs, 0);
  return {
    rps: Math.round(total / seconds),
    p50: Math.max(...m.rounds.map(({ r }) => r.latency.p50)),
    p99: Math.max(...m.rounds.map(({ r }) => r.latency.p99)),
    p999: Math.max(...m.rounds.map(({ r }) => r.latency.p99_9)),
    max: Math.max(...m.rounds.map(({ r }) => r.latency.max)),
    cpuUsPerRequest: Math.round((cpu / total) * 10) / 10,
    non2xx: m.rounds.reduce((n, { r }) => n + r.non2xx + r.errors + r.timeouts, 0),
  };
}

/** Both servers on one workload, in alternating rounds (bare, sandbox, bare, sandbox, …) so that a
 * machine that speeds up or slows down during the run weighs on both alike. */
async function runWorkload(name) {
  const b = await prepare(bare, name);
  const s = await prepare(sandbox, name);
  for (let i = 0; i < ROUNDS; i++) {
    await round(b, DURATION / ROUNDS);
    await round(s, DURATION / ROUNDS);
  }
  return { bare: summary(b), sandbox: summary(s) };
}

const rows = [];
const bare = await start([], 'bench/bare-hono.mjs');
const sandbox = await start([]);
for (const name of Object.keys(WORKLOADS).filter((n) => !ONLY || ONLY.includes(n))) {
  const { bare: b, sandbox: s } = await runWorkload(name);
  rows.push({ workload: name, bare: b, sandbox: s, ratio: s.rps / b.rps, rssMb: rssMb(sandbox) });
}
await stop(bare);
await stop(sandbox);

function printRows() {
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per workload in ${ROUNDS} alternating rounds, node ${process.version}\n`);
  console.log('| workload | bare Hono req/s | sandbox req/s | ratio | sandbox p50 ms | sandbox p99 ms | sandbox p99.9 ms | sandbox max ms | CPU µs per request (bare / sandbox) | sandbox non-2xx | sandbox RSS MB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.workload} | ${r.bare.rps} | ${r.sandbox.rps} | ${(r.ratio * 100).toFixed(0)} % | ${r.sandbox.p50} | ${r.sandbox.p99} | ${r.sandbox.p999} | ${r.sandbox.max} | ${r.bare.cpuUsPerRequest} / ${r.sandbox.cpuUsPerRequest} | ${r.sandbox.non2xx} | ${r.rssMb} |`,
    );
  }
}
if (ONLY) {
  printRows();
  process.exit(0);
}

// RSS after 100,000 resources across 100 tenants (memory store)
const many = await start([]);
{
  let n = 0;
  const keys = Array.from({ length: 100 }, newKey);
  await load(many.url, [{ method: 'POST', path: '/api/v1/partners/payouts', setupRequest: (req) => ({ ...req, headers: json(keys[n % 100]), body: payoutBody(`m-${++n}`) }) }], { amount: 100_000 });
}
const rss100k = rssMb(many);
await stop(many);

// With --data: throughput with 100,000 payouts stored in one tenant against 1,000 stored
const dataRps = {};
for (const stored of [1_000, 100_000]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-bench-'));
  const s = await start(['--data', dir]);
  const key = newKey();
  await load(s.url, WORKLOADS['POST payout'](key), { amount: stored });
  const r = await load(s.url, WORKLOADS['POST payout'](key));
  dataRps[stored] = { rps: Math.round(r.requests.average), p99: r.latency.p99 };
  await stop(s);
  rmSync(dir, { recursive: true, force: true });
}

const colds = [];
for (let i = 0; i < 5; i++) {
  const s = await start([]);
  colds.push(s.coldStartMs);
  await stop(s);
}
const coldStartMs = Math.round(Math.min(...colds));

printRows();
const dataRatio = dataRps[100_000].rps / dataRps[1_000].rps;
console.log(`\n--data POST payout: ${dataRps[1_000].rps} req/s with 1,000 stored, ${dataRps[100_000].rps} req/s with 100,000 stored (${(dataRatio * 100).toFixed(0)} %, target >= 50 %)`);
console.log(`RSS after 100,000 payouts across 100 tenants: ${rss100k} MB (target < 200 MB)`);
console.log(`cold start to first 200 (best of 5): ${coldStartMs} ms (target < 500 ms)`);

writeFileSync(
  'bench/results.json',
  JSON.stringify({ date: new Date().toISOString(), node: process.version, connections: CONNECTIONS, seconds: DURATION, rounds: ROUNDS, rows, dataRps, dataRatio, rss100k, coldStartMs }, null, 2) + '\n',
);
