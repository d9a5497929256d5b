// The hostile-input harness by content type. Every route, in every body format it takes (read from
// /openapi.json: JSON, XML, CSV, YAML), is sent that format's hostile forms (forms.ts):
// - against a real sandbox process, each form at 50 KB and, for the formats the sandbox reads
//   itself (XML, CSV, YAML), at 500 KB too (YAML, whose documents are at most 16 KiB, at 1.5 and
//   15 KB, and 500 KB to be refused): every answer is a 4xx (or at least no 5xx, for a form
//   that is valid in its format), the process lives, and another key's requests, polled from a
//   thread of their own, always answer, and the sandbox's event loop is never held by its own work
//   for 100 ms or more (stall-probe.cjs, preloaded: a busy machine's delays are not the sandbox's);
// - in process, the cost against size: the least CPU time of 5 requests at 50 KB and at 500 KB
//   (YAML 1.5 and 15 KB), sent by turns, at most 20 times apart (linear is 10, quadratic 100).
// It runs in its own step (`npm run test:hostile`), on a fixed budget. HOSTILE_LONG=1 runs the long
// mode by hand: every route in the cost part, 9 requests a size, and a 2 MB size for the
// upload that takes one.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { startServer, type RunningServer } from '../support/server.js';
import { documentedRoutes, exampleHeaders, fillPath, type Route } from '../fuzz/routes.js';
import { FORMS, type Form, type Format } from './forms.js';

const LONG = process.env.HOSTILE_LONG === '1';
const KEY = 'sk_test_hostile_sender';
const BYSTANDER = 'sk_test_hostile_bystander';
/** The two sizes each form is sent at: 50 and 500 KB, under the 1 MiB body limit (8 MiB for a bulk
 * file); a scenario document is at most 16 KiB, so YAML is read at 1.5 and 15 KB (and refused at 500). */
const SIZES: Record<Format, [number, number]> = {
  'application/json': [50_000, 500_000],
  'application/xml': [50_000, 500_000],
  'text/csv': [50_000, 500_000],
  'application/yaml': [1_500, 15_000],
};
/** What the real sandbox is sent: the JSON the framework reads at the small size only; the formats
 * the sandbox reads itself at both, and YAML past its limit as well. */
const SENT: Record<Format, number[]> = {
  'application/json': [50_000],
  'application/xml': SIZES['application/xml'],
  'text/csv': SIZES['text/csv'],
  'application/yaml': [...SIZES['application/yaml'], 500_000],
};

const probe = await createTestApp();
const { routes } = await documentedRoutes(probe);
const byFormat = (format: Format) =>
  routes.filter((r) => (format === 'application/json' ? r.body !== undefined : r.otherTypes.includes(format)));
const cases = (Object.keys(FORMS) as Format[]).flatMap((format) =>
  byFormat(format).flatMap((route) => FORMS[format].map((form) => ({ format, route, form }))),
);

function send(base: string, r: Route, format: Format, body: string, key = KEY): Promise<Response> {
  return fetch(base + fillPath(r), {
    method: r.method,
    headers: { authorization: `Bearer ${key}`, 'content-type': format, ...exampleHeaders(r) },
    body,
  });
}

/** Polls another key's requests from a thread of its own, keeping the slowest answer. */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
let slowest = 0, polls = 0, failures = [], running = true;
parentPort.on('message', () => { running = false; });
(async () => {
  const paths = ['/_sandbox/health', '/_sandbox/balances', '/api/v1/partners/banks?currency=NGN'];
  while (running) {
    const path = paths[polls % paths.length];
    const started = performance.now();
    try {
      const res = await fetch(workerData.url + path, { headers: { authorization: 'Bearer ' + workerData.key } });
      await res.arrayBuffer();
      if (res.status !== 200) failures.push(path + ' ' + res.status);
    } catch (err) { failures.push(path + ' ' + err.message); }
    slowest = Math.max(slowest, performance.now() - started);
    polls++;
    await new Promise((r) => setTimeout(r, 20));
  }
  parentPort.postMessage({ slowest, polls, failures });
})();
`;

describe('hostile bodies against a real sandbox', () => {
  let server: RunningServer;
  let poller: Worker;
  let armedAt = 0;
  const stalls = path.join(mkdtempSync(path.join(tmpdir(), 'hostile-')), 'stalls.jsonl');
  beforeAll(async () => {
    const probe = fileURLToPath(new URL('./stall-probe.cjs', import.meta.url));
    server = await startServer(['--seed', '7'], { NODE_OPTIONS: `--require ${probe}`, STALL_PROBE_FILE: stalls });
    // Both keys exist, and every route has read each of its formats once (1 KB), before the probe
    // counts: a route's first request compiles its code, once in the life of the process.
    await fetch(`${server.url}/_sandbox/balances`, { headers: { authorization: `Bearer ${BYSTANDER}` } });
    for (const { format, route, form } of cases) if (form === FORMS[format][0]) await (await send(server.url, route, format, form.body(1_000))).arrayBuffer();
    armedAt = Date.now();
    poller = new Worker(POLLER, { eval: true, workerData: { url: server.url, key: BYSTANDER } });
  });
  afterAll(async () => {
    await poller?.terminate();
    await server?.stop();
  });

  it.each(cases.map((c) => [`${c.route.method} ${c.route.path} ${c.format}: ${c.form.name}`, c] as const))('%s', async (_n, { format, route, form }) => {
    for (const size of SENT[format]) {
      const res = await send(server.url, route, format, form.body(size));
      const text = await res.text();
      const label = `${size} bytes: ${res.status} ${text.slice(0, 300)}`;
      if (form.lenient) expect(res.status, label).toBeLessThan(500);
      else {
        expect(res.status, label).toBeGreaterThanOrEqual(400);
        expect(res.status, label).toBeLessThan(500);
      }
      expect(server.proc.exitCode, server.output()).toBeNull();
    }
  });

  it('kept answering another key throughout, its event loop never held 100 ms', async () => {
    const result = await new Promise<{ slowest: number; polls: number; failures: string[] }>((resolve) => {
      poller.once('message', resolve);
      poller.postMessage('stop');
    });
    expect(result.failures).toEqual([]);
    expect(result.polls).toBeGreaterThan(10);
    const held = existsSync(stalls) ? readFileSync(stalls, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { at: number; busy: number; late: number }).filter((l) => l.at >= armedAt) : [];
    const longest = Math.max(0, ...held.map((s) => s.busy));
    expect(longest, `stalls: ${JSON.stringify(held)}; the slowest of ${result.polls} answers to the other key took ${Math.round(result.slowest)} ms`).toBeLessThan(100);
  });
});

/** The routes whose cost is measured: in the short mode one route per way a format is read. */
function costRoutes(format: Format): Route[] {
  const all = byFormat(format);
  if (LONG) return all;
  const pick = (method: string, path: string) => all.filter((r) => r.method === method && r.path === path);
  switch (format) {
    case 'application/json':
      return [...pick('POST', '/api/v1/partners/payouts'), ...pick('POST', '/_sandbox/bulk-disbursements'), ...pick('PUT', '/_sandbox/scenario')];
    case 'application/xml':
      return [...pick('POST', '/api/v1/partners/fx/trades'), ...pick('POST', '/api/v1/partners/fx/trades/{transactionId}/accept')];
    default:
      return all.slice(0, 1);
  }
}

const REPEAT = LONG ? 9 : 5;

/** CPU time (user and system, µs) the app spends on one request, body made beforehand. */
async function cpuOf(t: TestApp, r: Route, format: Format, body: string): Promise<number> {
  const init = { method: r.method, headers: { authorization: `Bearer ${KEY}`, 'content-type': format, ...exampleHeaders(r) }, body };
  const before = process.cpuUsage();
  const res = await t.app.request(fillPath(r), init);
  await res.arrayBuffer();
  const used = process.cpuUsage(before);
  expect(res.status).toBeLessThan(500);
  return used.user + used.system;
}

describe('the cost of a hostile body grows linearly with its size', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { maxResources: 0 } });
  });
  const costCases = (Object.keys(FORMS) as Format[]).flatMap((format) =>
    costRoutes(format).flatMap((route) => FORMS[format].map((form: Form) => ({ format, route, form }))),
  );
  it.each(costCases.map((c) => [`${c.route.method} ${c.route.path} ${c.format}: ${c.form.name}`, c] as const))('%s', async (_n, { format, route, form }) => {
    const [SMALL, LARGE] = SIZES[format];
    const small = form.body(SMALL);
    const large = form.body(LARGE);
    // A first request of each size warms the route's code up.
    await cpuOf(t, route, format, small);
    await cpuOf(t, route, format, large);
    // The two sizes take turns, and each gives the least of its runs: a busy machine (a collection,
    // other suites) lengthens a measure, never shortens it, and now weighs on both sizes alike.
    let [s, l] = [Infinity, Infinity];
    for (let i = 0; i < REPEAT; i++) {
      s = Math.min(s, await cpuOf(t, route, format, small));
      l = Math.min(l, await cpuOf(t, route, format, large));
    }
    expect(l / Math.max(s, 1), `least CPU: ${s} µs at ${SMALL} bytes, ${l} µs at ${LARGE} bytes`).toBeLessThanOrEqual(20);
  });
});
