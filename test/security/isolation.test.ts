// Tenant isolation over every documented route: whatever key A creates, key B cannot read, and a
// thousand keys working at once never see each other's data.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { documentedRoutes, exampleHeaders, fillPath, sample, warmUp, type Route } from '../fuzz/routes.js';

const A = 'sk_test_isolation0000000000000000000000a';
const B = 'sk_test_isolation0000000000000000000000b';

function strings(v: unknown, out = new Set<string>()): Set<string> {
  if (typeof v === 'string' && v.length >= 3) out.add(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => strings(x, out));
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Example UUIDs made fresh, so examples shared by two routes (a transfer and a bulk row) do not
 * collide; account ids name the tenant's own accounts and stay. */
function freshUuids(v: unknown, key = ''): unknown {
  if (typeof v === 'string' && UUID.test(v) && key !== 'accountId') return randomUUID();
  if (Array.isArray(v)) return v.map((x) => freshUuids(x));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, freshUuids(x, k)]));
  return v;
}

/** The documented creation routes' example bodies, sent by one key; their 2xx answers. */
async function createEverything(t: TestApp, routes: Route[], doc: Record<string, unknown>, key: string) {
  const answers: unknown[] = [];
  for (const r of routes.filter((x) => x.method === 'POST' && x.body)) {
    const res = await t.call('POST', fillPath(r), { key, body: freshUuids(sample(doc, r.body)), headers: exampleHeaders(r) });
    if (res.status < 300) answers.push(res.body);
  }
  return answers;
}

describe('the shared isolation suite', () => {
  it("answers 404 to key B for every resource key A can read, on every documented read route", async () => {
    const t = await createTestApp();
    const { doc, routes } = await documentedRoutes(t);
    await warmUp(t, A);
    await warmUp(t, B);
    const values = strings(await createEverything(t, routes, doc, A));
    const reads = routes.filter((r) => r.method === 'GET' && r.params.filter((p) => p.in === 'path').length === 1);
    const covered = new Set<string>();
    for (const r of reads) {
      const name = r.params.find((p) => p.in === 'path')!.name;
      for (const v of values) {
        const path = fillPath(r, { [name]: v });
        const own = await t.call('GET', path, { key: A, headers: exampleHeaders(r) });
        if (own.status !== 200) continue;
        covered.add(r.path);
        const other = await t.call('GET', path, { key: B, headers: exampleHeaders(r) });
        expect(other.status, `${path} read by another key`).toBe(404);
        expect(other.body.error.code).toBe('RESOURCE_NOT_FOUND');
        expect(other.text).not.toContain(JSON.stringify(own.body).slice(1, 40));
      }
    }
    // Discovery found a resource for each read route the sandbox has today (new ones add themselves).
    for (const p of ['/api/v1/partners/payouts/{reference}', '/api/v1/partners/wallets/payouts/{reference}', '/api/v1/partners/withdrawal/{reference}', '/api/v1/transfers/{reference}', '/api/v1/transfers/bulk/{id}/transfers']) {
      expect(covered, p).toContain(p);
    }
  });

  it("refuses key B's simulated moves on key A's resources", async () => {
    const t = await createTestApp();
    const { doc, routes } = await documentedRoutes(t);
    await createEverything(t, routes, doc, A);
    const payout = sample(doc, routes.find((r) => r.path === '/api/v1/partners/payouts')!.body) as { reference: string };
    const own = await t.call('GET', `/api/v1/partners/payouts/${payout.reference}`, { key: A });
    expect(own.status).toBe(200);
    const res = await t.call('POST', `/_sandbox/simulate/payouts/${payout.reference}/fail`, { key: B, body: {} });
    expect(res.status).toBe(404);
    expect((await t.call('GET', `/api/v1/partners/payouts/${payout.reference}`, { key: A })).body.data.status).toBe(own.body.data.status);
  });
});
