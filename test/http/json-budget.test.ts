// A JSON body within the 1 MiB limit may still name so many distinct fields that parsing it would hold
// every key's requests for tens of milliseconds: past 1,000 distinct names it is refused, before it
// is parsed, by every route that reads JSON. Within the budget, unknown fields are ignored as before.
import { beforeEach, describe, expect, it } from 'vitest';
import { collectGarbage } from '../support/gc.js';
import { createTestApp, payoutRequest, type TestApp } from '../support/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

/** A valid payout request's text with `names` unknown fields of distinct names beside its own. */
const payoutWith = (reference: string, names: number, nameOf = (i: number) => `f${i}`) => {
  const fields = Array.from({ length: names }, (_, i) => `"${nameOf(i)}":1`).join(',');
  return JSON.stringify(payoutRequest(reference)).replace(/^\{/, `{${fields},`);
};
const REFUSAL = {
  status: 'error',
  message:
    'The request body names more than 1000 distinct fields. Send only the fields this request takes (a few dozen at most); unknown fields are ignored, so leave them out.',
  error: {
    type: 'invalid_request_error',
    code: 'VALIDATION_ERROR',
    details: [{ field: 'body', issue: 'names more than 1000 distinct fields: send only the fields this request takes' }],
  },
};
const JSON_TYPE = { 'content-type': 'application/json' };
/** 1,001 distinct names, long enough that the text is past the 16 KiB below which a body is not scanned. */
const MANY_NAMES = Array.from({ length: 1001 }, (_, i) => `"a_name_of_some_length_${i}":1`).join(',');

describe('the budget of distinct field names in a JSON body', () => {
  it('refuses a payout of 90,000 unknown fields (about 1 MiB) with 400 naming the body, creating nothing', async () => {
    const raw = payoutWith('budget-1', 90_000);
    expect(raw.length).toBeGreaterThan(900_000);
    expect(raw.length).toBeLessThan(1024 * 1024);
    // Without Content-Length the body is read as it streams; with it, checked as UTF-8 first: both ways.
    for (const headers of [JSON_TYPE, { ...JSON_TYPE, 'content-length': String(Buffer.byteLength(raw)) }]) {
      const res = await t.call('POST', '/api/v1/partners/payouts', { raw, headers });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(REFUSAL);
    }
    expect((await t.call('GET', '/api/v1/partners/payouts/budget-1')).status).toBe(404);
    const journal = (await t.call('GET', '/_sandbox/requests?method=POST&limit=1')).body.data[0];
    expect([journal.method, journal.path, journal.status]).toEqual(['POST', '/api/v1/partners/payouts', 400]);
  });

  it('refuses names spread over many objects, one each', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => `{"k${i}":1}`).join(',');
    const raw = JSON.stringify(payoutRequest('budget-2')).replace(/\}$/, `,"extra":[${items}]}`);
    const res = await t.call('POST', '/api/v1/partners/payouts', { raw, headers: JSON_TYPE });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(REFUSAL);
  });

  it('refuses a body of more than 20,000 values: nested arrays in a text field, or numbers in an unknown one', async () => {
    const nested = JSON.stringify(payoutRequest('budget-7')).replace(/\}$/, `,"narration":${'['.repeat(400_000)}${']'.repeat(400_000)}}`);
    const numbers = JSON.stringify({ ...payoutRequest('budget-8'), extra: Array(400_000).fill(0) });
    for (const raw of [nested, numbers]) {
      const res = await t.call('POST', '/api/v1/partners/payouts', { raw, headers: JSON_TYPE });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'body', issue: 'holds more than 20,000 values: send only the fields this request takes' }]);
    }
    // 20,000 values in all pass (the payout's own 9 among them), and the unknown field is ignored.
    const within = JSON.stringify({ ...payoutRequest('budget-9'), extra: Array(19_990).fill(0) });
    const res = await t.call('POST', '/api/v1/partners/payouts', { raw: within, headers: JSON_TYPE });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-sandbox-warning')).toBe("unknown field 'extra' was ignored");
  });

  it('takes a body of 1,000 distinct names, ignoring the unknown ones and naming the first ten', async () => {
    // 993 unknown names and the request's own 7: 1,000 in all.
    const raw = payoutWith('budget-3', 993, (i) => `unknown_field_${i}`);
    expect(raw.length).toBeGreaterThan(16 * 1024);
    const res = await t.call('POST', '/api/v1/partners/payouts', { raw, headers: JSON_TYPE });
    expect(res.status).toBe(201);
    expect(res.body.data.reference).toBe('budget-3');
    expect(res.body.data).not.toHaveProperty('unknown_field_0');
    const warnings = res.headers.get('x-sandbox-warning')!.split('; ');
    expect(warnings).toHaveLength(10);
    expect(warnings[0]).toBe("unknown field 'unknown_field_0' was ignored");
  });

  it('is the same on the wallet payout, transfer, quote and withdrawal creates', async () => {
    const names = MANY_NAMES;
    const routes: [string, Record<string, string>][] = [
      ['/api/v1/partners/wallets/payouts', {}],
      ['/api/v1/transfers', { 'x-service-source': 'payroll' }],
      ['/api/v1/partners/marketplace/intent', {}],
      ['/api/v1/partners/withdrawal', {}],
    ];
    for (const [path, headers] of routes) {
      const res = await t.call('POST', path, { raw: `{${names},"amount":10}`, headers: { ...JSON_TYPE, ...headers } });
      expect([path, res.status, res.body]).toEqual([path, 400, REFUSAL]);
    }
  });

  it('holds on the control API: a webhook setting, a simulate body and a bulk file (a scenario is at most 16 KiB)', async () => {
    const names = MANY_NAMES;
    const webhook = await t.call('PUT', '/_sandbox/webhooks', { raw: `{${names},"url":"https://example.com/hook"}`, headers: JSON_TYPE });
    expect([webhook.status, webhook.body]).toEqual([400, REFUSAL]);

    expect((await t.call('POST', '/api/v1/partners/payouts', { body: payoutRequest('budget-4') })).status).toBe(201);
    const simulate = await t.call('POST', '/_sandbox/simulate/payouts/budget-4/fail', { raw: `{${names},"reason":"x"}`, headers: JSON_TYPE });
    expect([simulate.status, simulate.body]).toEqual([400, REFUSAL]);
    expect((await t.call('GET', '/api/v1/partners/payouts/budget-4')).body.data.status).toBe('PENDING');

    const bulk = await t.call('POST', '/_sandbox/bulk-disbursements', { raw: `{${names},"items":[]}`, headers: { ...JSON_TYPE, 'x-service-source': 'payroll' } });
    expect([bulk.status, bulk.body]).toEqual([400, REFUSAL]);

  });

  it('keeps the refusal cheap: no more CPU than a valid body of the same size', async () => {
    const hostile = payoutWith('budget-5', 90_000);
    // The same size as one long value: a body the sandbox reads at the cost of its bytes.
    const plain = JSON.stringify({ ...payoutRequest('budget-6'), narration: 'x'.repeat(hostile.length - 200) });
    const cpuOf = async (raw: string) => {
      collectGarbage();
      const before = process.cpuUsage();
      const res = await t.app.request('/api/v1/partners/payouts', { method: 'POST', headers: { authorization: 'Bearer sk_test_budget', ...JSON_TYPE }, body: raw });
      await res.arrayBuffer();
      const used = process.cpuUsage(before);
      expect(res.status).toBe(400);
      return used.user + used.system;
    };
    await cpuOf(hostile);
    await cpuOf(plain);
    // The least of seven each, the two bodies taking turns: the process's CPU counts its other
    // threads and whatever else it runs (a busy machine, work left by other test files), which
    // lengthens a measure, never shortens it, and now weighs on both bodies alike.
    let [h, p] = [Infinity, Infinity];
    for (let i = 0; i < 7; i++) {
      h = Math.min(h, await cpuOf(hostile));
      p = Math.min(p, await cpuOf(plain));
    }
    // Parsed whole, the hostile body cost 5 to 10 times the plain one.
    expect(h, `CPU µs: ${h} for 90,000 names, ${p} for one long value`).toBeLessThan(3 * p);
  });
});

describe('a refusal of the budget beside another error', () => {
  it("answers the route's own error when a fault rule, not the route, read the body over its budget", async () => {
    // A fault rule whose `when` reads the body's fields reads every body of its route; this one never fires.
    const route = { method: 'PUT', path: '/api/v1/quotes/complete/{id}' };
    const scenario = { scenario: { faults: [{ route, when: { accountNumber: '^0000000000$' }, fault: { kind: 'error', status: 503 } }] } };
    const put = await t.call('PUT', '/_sandbox/scenario', { body: scenario });
    expect(put.status, put.text).toBe(200);
    const raw = `{${MANY_NAMES},"destination":{"blockChain":{"address":"0x52908400098527886E0F7030069857D2E4169EE7"}}}`;
    // Not a quote id: the route refuses its path before it reads the body.
    const res = await t.call('PUT', '/api/v1/quotes/complete/not-a-quote', { raw, headers: JSON_TYPE });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['id']);
    // With a quote id, the route reads the body and meets the refusal.
    const read = await t.call('PUT', '/api/v1/quotes/complete/3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f', { raw, headers: JSON_TYPE });
    expect(read.body).toEqual(REFUSAL);
  });
});
