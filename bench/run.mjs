// npm run bench: the sandbox and a bare Hono server, same machine, same run, same load.
// Prints a table and writes bench/results.json so figures can be compared between commits.
// BENCH_SECONDS sets the length of each workload (default 10), BENCH_ROUNDS how many alternating
// rounds it is split into (default 2). BENCH_ONLY="POST payout,GET listings (XML)" runs only those
// workloads, prints their rows and skips the other measurements and results.json. BENCH_FRESH=1 starts
// a fresh sandbox for each workload (by default one sandbox serves them all, holding what each created).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CREATING, WORKLOADS, created } from './workloads.mjs';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
/** Each server's seconds per workload are split into this many alternating rounds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ONLY = process.env.BENCH_ONLY?.split(',').map((n) => n.trim());
/** BENCH_PARTS="rss,data,cold,pg" runs only those of the measurements after the workloads. */
const PARTS = process.env.BENCH_PARTS?.split(',').map((n) => n.trim());
const CONNECTIONS = 50;
let keySeq = 0;
const newKey = () => `sk_test_bench${String(++keySeq).padStart(4, '0')}${Date.now().toString(16)}`;

/** The load generator runs in a thread of its own at a lower priority (bench/load.mjs). */
const LOAD_NICE = Number(process.env.BENCH_LOAD_NICE ?? 10);
const loader = new Worker(new URL('./load.mjs', import.meta.url), { workerData: { nice: LOAD_NICE } });
let loadSeq = 0;
const pending = new Map();
loader.on('message', (m) => {
  const p = pending.get(m.id);
  pending.delete(m.id);
  if (m.error) p.reject(new Error(m.error));
  else p.resolve(m);
});
loader.on('error', (e) => pending.forEach((p) => p.reject(e)));

const children = new Set();
process.on('exit', () => children.forEach((p) => p.kill('SIGKILL')));

const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);
const PROBE_FILE = path.join(mkdtempSync(path.join(tmpdir(), 'bench-probe-')), 'probe.jsonl');
const SPACES_FILE = path.join(path.dirname(PROBE_FILE), 'spaces.json');

function start(args, file = 'dist/main.js', opts = {}) {
  const t0 = performance.now();
  const flags = file === 'dist/main.js' ? (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=16 --no-allocation-site-pretenuring').split(' ').filter(Boolean) : [];
  // The sandbox of the workloads carries the probe (bench/probe.cjs): its pauses and stalls.
  const probe = opts.probe ? ['-r', path.join(BENCH_DIR, 'probe.cjs')] : [];
  // The sandbox of the RSS part writes its heap spaces each second (bench/spaces.cjs).
  const spaces = opts.spaces ? ['-r', path.join(BENCH_DIR, 'spaces.cjs')] : [];
  const env = { ...process.env, PORT: '0', ...(opts.probe ? { BENCH_PROBE_FILE: PROBE_FILE } : {}), ...(opts.spaces ? { BENCH_SPACES_FILE: SPACES_FILE } : {}) };
  const proc = spawn(process.execPath, [...flags, ...probe, ...spaces, file, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
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

/** A key's plan for a workload: what its read-back reads (its setup's resource) goes with it. */
const planOf = (name, key) => ({ workload: name, key, id: created.get(key) });

/** Load a server with a plan (bench/workloads.mjs) in the generator's thread: autocannon's result and
 * the generator's longest event-loop stall meanwhile. */
async function load(url, plan, opts = {}) {
  const id = ++loadSeq;
  loader.postMessage({ id, url, connections: opts.connections ?? CONNECTIONS, plan, ...(opts.amount ? { amount: opts.amount } : { seconds: opts.seconds ?? DURATION }) });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

/** CPU time (user plus system, all threads) a server has used so far, in µs. */
function cpuUs(server) {
  const fields = readFileSync(`/proc/${server.proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1e6 / 100);
}

/** Warm a server up on a workload, then give it the key it is measured with. */
async function prepare(server, name) {
  const w = WORKLOADS[name];
  const warm = newKey();
  if (w.setup) await w.setup(server.url, warm);
  await load(server.url, planOf(name, warm), { amount: 3000 });
  const key = newKey();
  if (w.setup) await w.setup(server.url, key);
  return { server, name, key, rounds: [] };
}

async function round(m, seconds) {
  const cpu0 = cpuUs(m.server);
  const from = Date.now();
  const { r, clientStallMs } = await load(m.server.url, planOf(m.name, m.key), { seconds });
  m.rounds.push({ r, cpuUs: cpuUs(m.server) - cpu0, from, to: Date.now(), clientStallMs });
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
    clientStallMs: Math.max(...m.rounds.map((x) => x.clientStallMs)),
    ...probed(m.rounds),
  };
}

/** The longest GC pause and event-loop stall the probe saw in the sandbox during the rounds. */
function probed(rounds) {
  if (!existsSync(PROBE_FILE)) return { gcMs: 0, stallMs: 0, stallOffCpuMs: 0 };
  const lines = readFileSync(PROBE_FILE, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const within = lines.filter((l) => rounds.some((r) => l.at >= r.from && l.at <= r.to));
  const longest = within.filter((l) => l.stall).sort((a, b) => b.stall - a.stall)[0];
  return {
    gcMs: Math.max(0, ...within.filter((l) => l.gc).map((l) => l.ms)),
    stallMs: longest?.stall ?? 0,
    // Of the longest stall, the time the main thread waited for a CPU (the machine's share).
    stallOffCpuMs: longest ? longest.offCpu : 0,
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
// No cap on resources: at this machine's rate one key passes the default 100,000 within a workload.
const startSandbox = () => start(['--max-resources', '0'], 'dist/main.js', { probe: true });
// BENCH_FRESH=1: a fresh sandbox per workload, so a row does not carry what the earlier rows created.
const FRESH = process.env.BENCH_FRESH === '1';
let sandbox = FRESH ? undefined : await startSandbox();
for (const name of Object.keys(WORKLOADS).filter((n) => (ONLY ? ONLY.includes(n) : !PARTS))) {
  if (FRESH) sandbox = await startSandbox();
  const { bare: b, sandbox: s } = await runWorkload(name);
  rows.push({ workload: name, bare: b, sandbox: s, ratio: s.rps / b.rps, rssMb: rssMb(sandbox) });
  if (FRESH) await stop(sandbox);
}
await stop(bare);
if (!FRESH) await stop(sandbox);

/** A stall as the tables print it: its length, and how much of it the server waited for a CPU. */
const stall = (r) => (r.stallMs ? `${r.stallMs} (${r.stallOffCpuMs ?? 'n/a'} off CPU)` : '0');

function printRows() {
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per workload in ${ROUNDS} alternating rounds, ${FRESH ? 'a fresh sandbox per workload' : 'one sandbox for every workload'}, node ${process.version}\n`);
  console.log('| workload | bare Hono req/s | sandbox req/s | ratio | sandbox p50 ms | p99 ms (bare / sandbox) | p99.9 ms (bare / sandbox) | max ms (bare / sandbox) | longest GC pause / loop stall in the sandbox ms | longest loop stall in the load generator ms | CPU µs per request (bare / sandbox) | sandbox non-2xx | sandbox RSS MB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.workload} | ${r.bare.rps} | ${r.sandbox.rps} | ${(r.ratio * 100).toFixed(0)} % | ${r.sandbox.p50} | ${r.bare.p99} / ${r.sandbox.p99} | ${r.bare.p999} / ${r.sandbox.p999} | ${r.bare.max} / ${r.sandbox.max} | ${r.sandbox.gcMs} / ${stall(r.sandbox)} | ${r.sandbox.clientStallMs} | ${r.bare.cpuUsPerRequest} / ${r.sandbox.cpuUsPerRequest} | ${r.sandbox.non2xx} | ${r.rssMb} |`,
    );
  }
}
if (ONLY) {
  printRows();
  if (!PARTS) process.exit(0);
}
const part = (name) => (PARTS ? PARTS.includes(name) : !ONLY);

// RSS after 100,000 resources across 100 tenants (memory store): payouts alone, then a mixed set
// (each tenant's requests go round the creating workloads: payouts, wallet payouts, withdrawals,
// transfers, FX trades, quote intents).
async function rssAfter(kinds) {
  const s = await start([], 'dist/main.js', { spaces: true });
  const keys = Array.from({ length: 100 }, newKey);
  for (const key of keys) await WORKLOADS['POST wallet payout'].setup(s.url, key);
  const { r } = await load(s.url, { kinds, keys }, { amount: Number(process.env.BENCH_RSS_COUNT ?? 100_000) });
  const mb = rssMb(s);
  const heap = spacesNow();
  // What it settles at once idle (V8 gives back heap it no longer needs only when allocation stops).
  await new Promise((r) => setTimeout(r, 10_000));
  const idleMb = rssMb(s);
  const idleHeap = spacesNow();
  await stop(s);
  const failed = r.non2xx + r.errors + r.timeouts;
  console.log(`RSS run (${kinds.join(", ")}): ${r["2xx"]} of ${r.requests.total} answered 2xx, ${failed} failed; RSS ${mb} MB, ${idleMb} MB after 10 s idle; young generation ${heap.youngMb} MB committed (${heap.youngUsedMb} used), the rest of the heap ${heap.oldMb} MB (${heap.oldUsedMb} used); after idle ${idleHeap.youngMb} and ${idleHeap.oldMb} MB (${idleHeap.oldUsedMb} used)`);
  return mb;
}
/** The sandbox's heap spaces as bench/spaces.cjs last wrote them (within the last second). */
const spacesNow = () => (existsSync(SPACES_FILE) ? JSON.parse(readFileSync(SPACES_FILE, 'utf8')) : {});
const rss = {};
if (part('rss')) {
  const sets = process.env.BENCH_RSS?.split(',') ?? ['payouts', 'mixed'];
  if (sets.includes('payouts')) rss.payouts = await rssAfter(['POST payout']);
  if (sets.includes('mixed')) rss.mixed = await rssAfter(CREATING);
}

// With --data: throughput of each creating workload with 100,000 of its resources stored in one
// tenant against 1,000 stored.
const dataRps = {};
for (const name of part('data') ? (process.env.BENCH_DATA?.split(',').map((n) => n.trim()) ?? CREATING) : []) {
  dataRps[name] = {};
  for (const stored of [1_000, 100_000]) {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-bench-'));
    // No cap on one tenant's resources (the default, 100,000, would refuse the run's creations).
    const s = await start(['--data', dir, '--max-resources', '0']);
    const key = newKey();
    if (WORKLOADS[name].setup) await WORKLOADS[name].setup(s.url, key);
    await load(s.url, planOf(name, key), { amount: stored });
    const cpu0 = cpuUs({ proc: s.proc });
    const { r } = await load(s.url, planOf(name, key));
    dataRps[name][stored] = { rps: Math.round(r.requests.total / r.duration), p99: r.latency.p99, cpuUsPerRequest: Math.round(((cpuUs({ proc: s.proc }) - cpu0) / r.requests.total) * 10) / 10, non2xx: r.non2xx + r.errors + r.timeouts };
    await stop(s);
    rmSync(dir, { recursive: true, force: true });
    console.error(`--data ${name}, ${stored} stored: ${JSON.stringify(dataRps[name][stored])}`);
  }
}

const colds = [];
for (let i = 0; i < (part('cold') ? 5 : 0); i++) {
  const s = await start([]);
  colds.push(s.coldStartMs);
  await stop(s);
}
const coldStartMs = colds.length ? Math.round(Math.min(...colds)) : undefined;

// PostgreSQL (--store): a throwaway cluster (fsync off, as in the tests), then for each workload the
// memory store, one replica, and two replicas on one database (each with its own key and 50
// connections, loaded at once), every figure from the same run. Then POST payout from two replicas
// on one database over BENCH_PG_KEYS keys (default 1 and 100), 25 connections on each replica,
// both replicas' load spread over the same keys (as a load balancer spreads them): one key's
// requests take turns on its row lock, many keys' run side by side. BENCH_PG_SPLIT=1 runs each count
// of keys again with each replica sent its own share of them (as a load balancer routing by key
// would), so that no session reads what the other replica wrote.
const listOf = (v, d) => (v === undefined ? d : v.split(',').map((n) => n.trim()).filter(Boolean));
const PG_WORKLOADS = listOf(process.env.BENCH_PG, ['POST payout', 'GET payout read-back', 'POST FX trade (XML)', 'POST quote intent']);
const PG_KEYS = listOf(process.env.BENCH_PG_KEYS, ['1', '100']).map(Number);
const PG_KEY_CONNECTIONS = 25;
const PG_SPLIT = process.env.BENCH_PG_SPLIT === '1';
const PG_KEY_WARM_SECONDS = 10;
const pgRows = [];
const pgKeyRows = [];
/** CPU time (µs) of a process and its children: PostgreSQL's postmaster and every backend. */
function treeCpuUs(pid) {
  let us = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(p) === pid || Number(fields[1]) === pid) us += (Number(fields[11]) + Number(fields[12])) * (1e6 / 100);
    } catch {
      // a backend that ended while being read
    }
  }
  return us;
}
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
if (part('pg')) {
  const { startPostgres } = await import('../scripts/postgres-cluster.mjs');
  const { default: postgres } = await import('postgres');
  const pg = await startPostgres();
  const pgPid = await pg.pid();
  let databases = 0;
  const database = async () => {
    const sql = postgres(pg.url, { max: 1, onnotice: () => undefined });
    const name = `bench_${++databases}`;
    await sql.unsafe(`CREATE DATABASE ${name}`);
    await sql.end();
    return pg.url.replace(/\/postgres$/, `/${name}`);
  };
  const measure = async (servers, name) => {
    const ms = await Promise.all(servers.map((s) => prepare(s, name)));
    await Promise.all(ms.map((m) => round(m, DURATION)));
    for (const s of servers) await stop(s);
    const each = ms.map(summary);
    return { rps: each.reduce((n, x) => n + x.rps, 0), p99: Math.max(...each.map((x) => x.p99)), cpuUsPerRequest: Math.max(...each.map((x) => x.cpuUsPerRequest)), non2xx: each.reduce((n, x) => n + x.non2xx, 0) };
  };
  /** Two replicas, POST payouts over `count` keys from both (`split`: each its own share of them),
   * PG_KEY_CONNECTIONS on each. */
  const overKeys = async (count, split = false) => {
    // BENCH_PG_MAX sets each replica's pool (`?max=N` on the store URL); unset, the sandbox's default.
    const url = (await database()) + (process.env.BENCH_PG_MAX ? `?max=${process.env.BENCH_PG_MAX}` : '');
    const uncapped = ['--max-resources', '0'];
    const servers = [await start(['--store', url, ...uncapped], 'dist/main.js', { probe: true }), await start(['--store', url, ...uncapped], 'dist/main.js', { probe: true })];
    const keys = Array.from({ length: count }, newKey);
    const keysOf = (i) => (split ? keys.filter((_, k) => k % servers.length === i) : keys);
    const run = async (seconds) =>
      (await Promise.all(servers.map((s, i) => load(s.url, { spread: true, tag: i, keys: keysOf(i) }, { seconds, connections: PG_KEY_CONNECTIONS })))).map((x) => x.r);
    // Warmed longer than the workloads: at a few hundred requests a second V8 is still optimising
    // the session's code after 3 s.
    await run(PG_KEY_WARM_SECONDS);
    const cpu0 = servers.map(cpuUs);
    const pg0 = treeCpuUs(pgPid);
    const from = Date.now();
    const rs = await run(DURATION);
    const to = Date.now();
    const cpu = servers.map((s, i) => cpuUs(s) - cpu0[i]);
    const pgCpu = treeCpuUs(pgPid) - pg0;
    const loadAvg = loadAverage();
    for (const s of servers) await stop(s);
    const total = rs.reduce((n, r) => n + r.requests.total, 0);
    const { stallMs, stallOffCpuMs } = probed([{ from, to }]);
    const row = {
      keys: count,
      split,
      rps: Math.round(rs.reduce((n, r) => n + r.requests.total / r.duration, 0)),
      p50: Math.max(...rs.map((r) => r.latency.p50)),
      p99: Math.max(...rs.map((r) => r.latency.p99)),
      cpuUsPerRequest: rs.map((r, i) => Math.round(cpu[i] / r.requests.total)),
      pgCpuUsPerRequest: Math.round(pgCpu / total),
      non2xx: rs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
      stallMs,
      stallOffCpuMs,
      load: loadAvg,
    };
    console.error(`postgres, POST payout over ${count} keys${split ? ', split' : ''}: ${JSON.stringify(row)}`);
    return row;
  };
  try {
    for (const name of PG_WORKLOADS) {
      // No resource cap here either: the memory store's rate passes 100,000 for one key within the run.
      const uncapped = ['--max-resources', '0'];
      const memory = await measure([await start(uncapped)], name);
      const one = await measure([await start(['--store', await database(), ...uncapped])], name);
      const url = await database();
      const two = await measure([await start(['--store', url, ...uncapped]), await start(['--store', url, ...uncapped])], name);
      pgRows.push({ workload: name, memory, one, two });
      console.error(`postgres ${name}: ${JSON.stringify({ memory, one, two })}`);
    }
    for (const count of PG_KEYS) {
      pgKeyRows.push(await overKeys(count));
      if (PG_SPLIT && count > 1) pgKeyRows.push(await overKeys(count, true));
    }
  } finally {
    await pg.stop();
  }
}

if (!ONLY && rows.length) printRows();
if (pgRows.length) {
  console.log('\n| workload | memory req/s | PostgreSQL, 1 replica req/s (p99 ms) | PostgreSQL, 2 replicas req/s (p99 ms) | sandbox CPU µs per request, memory / 1 replica | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of pgRows) {
    console.log(`| ${r.workload} | ${r.memory.rps} | ${r.one.rps} (${r.one.p99}) | ${r.two.rps} (${r.two.p99}) | ${r.memory.cpuUsPerRequest} / ${r.one.cpuUsPerRequest} | ${r.memory.non2xx + r.one.non2xx + r.two.non2xx} |`);
  }
}
if (pgKeyRows.length) {
  console.log(`\nPOST payout, two replicas on one PostgreSQL, ${PG_KEY_CONNECTIONS} connections on each, ${DURATION} s\n`);
  console.log('| keys | sent to | payouts/s combined | p50 ms | p99 ms | sandbox CPU µs per request (each replica) | PostgreSQL CPU µs per request | longest loop stall ms | non-2xx | load average (1, 5, 15 min) |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of pgKeyRows) {
    console.log(`| ${r.keys} | ${r.split ? 'one replica each' : 'both replicas'} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.cpuUsPerRequest.join(' / ')} | ${r.pgCpuUsPerRequest} | ${stall(r)} | ${r.non2xx} | ${r.load} |`);
  }
}
const dataRatio = {};
for (const [name, d] of Object.entries(dataRps)) {
  dataRatio[name] = d[100_000].rps / d[1_000].rps;
  console.log(
    `--data ${name}: ${d[1_000].rps} req/s (${d[1_000].cpuUsPerRequest} µs CPU) with 1,000 stored, ${d[100_000].rps} req/s (${d[100_000].cpuUsPerRequest} µs CPU) with 100,000 stored (${(dataRatio[name] * 100).toFixed(0)} %, target >= 50 %), p99 ${d[1_000].p99} / ${d[100_000].p99} ms, non-2xx ${d[1_000].non2xx} / ${d[100_000].non2xx}`,
  );
}
if (rss.payouts) console.log(`RSS after 100,000 payouts across 100 tenants: ${rss.payouts} MB; after a mixed 100,000: ${rss.mixed} MB (target < 200 MB)`);
if (coldStartMs) console.log(`cold start to first 200 (best of 5): ${coldStartMs} ms (target < 500 ms)`);
if (ONLY || PARTS) process.exit(0);

writeFileSync(
  'bench/results.json',
  JSON.stringify({ date: new Date().toISOString(), node: process.version, connections: CONNECTIONS, seconds: DURATION, rounds: ROUNDS, fresh: FRESH, rows, dataRps, dataRatio, rss, coldStartMs, pgRows, pgKeyRows }, null, 2) + '\n',
);
await loader.terminate();
