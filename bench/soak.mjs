// node bench/soak.mjs [-- server flags]: a persistent sandbox under many keys for minutes, then a
// restart on what it wrote. SOAK_KEYS keys (default 500) send mixed creates with fresh references
// (fiat and wallet payouts, transfers, withdrawals), reads and 5-minute clock advances (so what they
// create settles as it goes), SOAK_CONNECTIONS requests at a time (default 32), for SOAK_SECONDS
// (default 180), to dist/main.js --data <temp dir>.
// Then it prints the resources stored, the server's RSS (peak and at the end), the data directory's
// size, how long the graceful stop took, and how long a restart on that directory took to answer.
// Flags after -- go to the server: `-- --resource-retention 0 --tenant-retention 0 --max-resources 0`
// keeps everything, as the sandbox did before it had retention. Build first (npm run build).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const KEYS = Number(process.env.SOAK_KEYS ?? 500);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 32);
const serverFlags = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];
const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-soak-'));
/** Node's own flags for the server, e.g. SOAK_NODE_FLAGS=--max-old-space-size=200. */
const nodeFlags = process.env.SOAK_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
const args = [...nodeFlags, 'dist/main.js', '--port', '0', '--data', dir, ...serverFlags];

const children = new Set();
process.on('exit', () => children.forEach((p) => p.kill('SIGKILL')));

/** Start the server; resolves once its port answers, with the time that took. */
function start() {
  const t0 = performance.now();
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(proc);
  proc.on('exit', () => children.delete(proc));
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && !proc.url) {
        proc.url = m[1];
        resolve({ proc, url: m[1], startMs: performance.now() - t0 });
      }
    });
    proc.on('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
  });
}

const rssMb = (proc) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))[1]) / 1024);
const duBytes = (p) => (statSync(p).isDirectory() ? readdirSync(p).reduce((n, f) => n + duBytes(path.join(p, f)), 0) : statSync(p).size);
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const keyOf = (i) => `sk_test_soak${String(i).padStart(6, '0')}`;
const hex12 = (n) => n.toString(16).padStart(12, '0');

const statuses = new Map();
const count = (label) => statuses.set(label, (statuses.get(label) ?? 0) + 1);

async function call(url, key, method, p, body, headers = {}) {
  const res = await fetch(url + p, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  count(res.status < 400 ? `${res.status}` : `${res.status} ${/"code":"(\w+)"/.exec(text)?.[1] ?? ''}`);
  return res;
}

/** The n-th request of one key: creates with fresh references, reads and clock advances. */
function request(url, k, n) {
  const key = keyOf(k);
  const ref = `k${k}-${n}`;
  switch (n % 8) {
    case 0:
    case 4:
      return call(url, key, 'POST', '/api/v1/partners/payouts', { reference: ref, amount: 100, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } });
    case 1:
      return call(url, key, 'POST', '/api/v1/partners/wallets/payouts', { reference: ref, chain: 'base', asset: 'usdc', amount: 10, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' });
    case 2:
      return call(url, key, 'POST', '/api/v1/transfers', { reference: `00000000-0000-4000-8000-${hex12(k * 1e6 + n)}`, amount: 500, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' }, destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058' } }, { 'x-service-source': 'soak' });
    case 3:
      return call(url, key, 'POST', '/api/v1/partners/withdrawal', { accountId: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9', accountName: 'John Doe', accountNumber: '0123456789', amount: 100, bankCode: 'SPB-17646' }, { 'idempotency-key': ref });
    case 5:
      return call(url, key, 'POST', '/_sandbox/clock/advance', { seconds: 300 });
    case 6:
      return call(url, key, 'GET', `/api/v1/partners/payouts/k${k}-${n - 6}`);
    default:
      return call(url, key, 'GET', '/_sandbox/events?limit=50');
  }
}

async function soak(url, proc) {
  const until = Date.now() + SECONDS * 1000;
  const sent = new Array(KEYS).fill(0);
  let next = 0;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(proc))), 1000);
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const k = next++ % KEYS;
        await request(url, k, sent[k]++).catch(() => count('network error'));
      }
    }),
  );
  clearInterval(sampler);
  return { peak: Math.max(peak, rssMb(proc)), requests: sent.reduce((a, b) => a + b, 0) };
}

async function stored(url) {
  const totals = {};
  for (let k = 0; k < KEYS; k++) {
    const res = await fetch(`${url}/_sandbox/resources?limit=1`, { headers: { authorization: `Bearer ${keyOf(k)}` } });
    for (const [kind, n] of Object.entries((await res.json()).counts)) totals[kind] = (totals[kind] ?? 0) + n;
  }
  return totals;
}

const first = await start();
console.log(`soak: ${KEYS} keys, ${CONNECTIONS} connections, ${SECONDS} s, server flags: ${serverFlags.join(' ') || '(defaults)'}${nodeFlags.length ? `, node flags: ${nodeFlags.join(' ')}` : ''}`);
const { peak, requests } = await soak(first.url, first.proc);
const rssEnd = rssMb(first.proc);
const resources = await stored(first.url);
const total = Object.values(resources).reduce((a, b) => a + b, 0);
const t0 = performance.now();
first.proc.kill('SIGTERM');
await new Promise((r) => first.proc.once('exit', r));
const stopMs = performance.now() - t0;
const disk = duBytes(dir);
const second = await start();
const rssRestarted = rssMb(second.proc);
second.proc.kill('SIGKILL');
rmSync(dir, { recursive: true, force: true });

console.log(`requests: ${requests} (${Math.round(requests / SECONDS)}/s); answers: ${[...statuses].map(([s, n]) => `${s} × ${n}`).join(', ')}`);
console.log(`stored at the end: ${total} resources (${Object.entries(resources).map(([k, n]) => `${k} ${n}`).join(', ')})`);
console.log(`RSS: peak ${peak} MB, at the end ${rssEnd} MB; data directory ${mb(disk)}`);
console.log(`graceful stop ${(stopMs / 1000).toFixed(1)} s; restart to listening ${(second.startMs / 1000).toFixed(1)} s, RSS then ${rssRestarted} MB`);
