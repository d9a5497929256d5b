// The hostile-input harness by content type. Every route, in every body format it takes (read from
// /openapi.json: JSON, XML, CSV, YAML), is sent that format's hostile forms (forms.ts):
// - against a real sandbox process, each form once at 50 KB and, for the formats the sandbox reads
//   itself (XML, CSV, YAML), again at 500 KB: every answer is a 4xx (or at least no 5xx, for a form
//   that is valid in its format), the process lives, and another key's requests, polled from a
//   thread of their own, answer within 100 ms throughout;
// - in process, the cost against size: the median CPU time of 5 requests at 50 KB and at 500 KB,
//   at most 20 times apart (linear is 10, quadratic 100).
// It runs in its own step (`npm run test:hostile`), on a fixed budget. HOSTILE_LONG=1 runs the long
// mode by hand: every route in the cost part, 9 requests a median, and a 2 MB size for the
// upload that takes one.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { startServer, type RunningServer } from '../support/server.js';
import { documentedRoutes, exampleHeaders, fillPath, type Route } from '../fuzz/routes.js';
import { FORMS, type Form, type Format } from './forms.js';

const LONG = process.env.HOSTILE_LONG === '1';
const KEY = 'sk_test_hostile_sender';
const BYSTANDER = 'sk_test_hostile_bystander';
const SMALL = 50_000;
const LARGE = 500_000;
/** The formats the sandbox reads with code of its own or a parser of its choosing (not the JSON the framework reads). */
const LARGE_FORMATS: readonly Format[] = ['application/xml', 'text/csv', 'application/yaml'];

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
  beforeAll(async () => {
    server = await startServer(['--seed', '7']);
    // Both keys exist before the poller starts: its first request is no key's first.
    await fetch(`${server.url}/_sandbox/balances`, { headers: { authorization: `Bearer ${BYSTANDER}` } });
    poller = new Worker(POLLER, { eval: true, workerData: { url: server.url, key: BYSTANDER } });
  });
  afterAll(async () => {
    await poller?.terminate();
    await server?.stop();
  });

  const sizes = (format: Format) => (LARGE_FORMATS.includes(format) ? [SMALL, LARGE] : [SMALL]);
  it.each(cases.map((c) => [`${c.route.method} ${c.route.path} ${c.format}: ${c.form.name}`, c] as const))('%s', async (_n, { format, route, form }) => {
    for (const size of sizes(format)) {
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

  it('kept answering another key within 100 ms throughout', async () => {
    const result = await new Promise<{ slowest: number; polls: number; failures: string[] }>((resolve) => {
      poller.once('message', resolve);
      poller.postMessage('stop');
    });
    expect(result.failures).toEqual([]);
    expect(result.polls).toBeGreaterThan(10);
    expect(result.slowest, `the slowest of ${result.polls} answers`).toBeLessThan(100);
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
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
    const small = form.body(SMALL);
    const large = form.body(LARGE);
    // A first request of each size warms the route's code up.
    await cpuOf(t, route, format, small);
    await cpuOf(t, route, format, large);
    const at = async (body: string) => {
      const runs: number[] = [];
      for (let i = 0; i < REPEAT; i++) runs.push(await cpuOf(t, route, format, body));
      return median(runs);
    };
    const [s, l] = [await at(small), await at(large)];
    expect(l / Math.max(s, 1), `median CPU: ${s} µs at ${SMALL} bytes, ${l} µs at ${LARGE} bytes`).toBeLessThanOrEqual(20);
  });
});
