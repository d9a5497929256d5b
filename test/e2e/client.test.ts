// The control client against a sandbox started with startSandbox(): one test per method, each on a
// key of its own. Every JSON answer the client reads is checked against /openapi.json on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { SandboxRequestError, startSandbox, type Sandbox, type SandboxTenant } from '../../src/index.js';
import { OpenApiValidator } from '../support/openapi.js';
import { payout, receiver } from '../support/webhooks.js';

let sb: Sandbox;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  sb = await startSandbox({ seed: 11 });
  const validator = new OpenApiValidator(await (await realFetch(`${sb.url}/openapi.json`)).json());
  globalThis.fetch = async (input, init) => {
    const res = await realFetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.startsWith('/_sandbox') && (res.headers.get('content-type') ?? '').includes('application/json')) {
      validator.check(init?.method ?? 'GET', url.pathname, res.status, await res.clone().json());
    }
    return res;
  };
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  await sb?.close();
});

/** A key of its own with one fiat payout created. */
async function withPayout(reference = 'order-1'): Promise<SandboxTenant> {
  const t = sb.tenant();
  const res = await t.fetch('/api/v1/partners/payouts', { method: 'POST', body: JSON.stringify(payout(reference)) });
  expect(res.status).toBe(201);
  return t;
}

describe('the control client', () => {
  it('health: answers without a key', async () => {
    expect(await sb.health()).toMatchObject({ status: 'ok', store: 'memory' });
  });

  it('scenarioSchema: the JSON Schema of the scenario format', async () => {
    const schema = await sb.scenarioSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('tenant: a fresh test key each time, or the key given', () => {
    const [a, b] = [sb.tenant(), sb.tenant()];
    expect(a.key).toMatch(/^sk_test_[0-9a-f]{32}$/);
    expect(a.key).not.toBe(b.key);
    expect(sb.tenant('sk_live_mine').key).toBe('sk_live_mine');
  });

  it('reset: forgets the key’s resources', async () => {
    const t = await withPayout();
    expect(await t.reset()).toMatchObject({ status: 'success' });
    expect((await t.fetch('/api/v1/partners/payouts/order-1')).status).toBe(404);
  });

  it('clock: the key’s clock and its next timed move', async () => {
    const t = await withPayout();
    const c = await t.clock();
    expect(c).toMatchObject({ offsetSeconds: 0, pendingJobs: 1 });
    expect(Date.parse(c.nextDueAt!) - Date.parse(c.now)).toBeGreaterThan(25_000);
  });

  it('advanceClock: every move due by then happens at once', async () => {
    const t = await withPayout();
    const r = await t.advanceClock(300);
    expect(r).toMatchObject({ applied: 2, pendingJobs: 0, nextDueAt: null });
    expect(r.offsetSeconds).toBeCloseTo(300, 1);
    const read = await (await t.fetch('/api/v1/partners/payouts/order-1')).json();
    expect(read.data.status).toBe('SUCCESSFUL');
  });

  it('freezeClock: the key’s clock stands still until advanced', async () => {
    const t = sb.tenant();
    const frozen = await t.freezeClock();
    expect(frozen.frozen).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.clock()).now).toBe(frozen.now);
    expect((await t.advanceClock(60)).now).toBe(new Date(Date.parse(frozen.now) + 60_000).toISOString());
  });

  it('resumeClock: a frozen clock runs on from where it stands', async () => {
    const t = sb.tenant();
    await t.freezeClock();
    const resumed = await t.resumeClock();
    expect(resumed.frozen).toBe(false);
    await new Promise((r) => setTimeout(r, 1100));
    expect(Date.parse((await t.clock()).now)).toBeGreaterThan(Date.parse(resumed.now));
  });

  it('advanceClockTo: moves the clock to an instant, never back', async () => {
    const t = await withPayout();
    const { now } = await t.clock();
    const r = await t.advanceClockTo(new Date(Date.parse(now) + 301_000));
    expect(r).toMatchObject({ applied: 2, pendingJobs: 0 });
    expect((await (await t.fetch('/api/v1/partners/payouts/order-1')).json()).data.status).toBe('SUCCESSFUL');
    await expect(t.advanceClockTo(now)).rejects.toMatchObject({ status: 409, code: 'CLOCK_BACKWARDS' });
  });

  it('requests: the journal, newest first', async () => {
    const t = await withPayout();
    const { data } = await t.requests({ limit: 5 });
    expect(data[0]).toMatchObject({ method: 'POST', path: '/api/v1/partners/payouts', status: 201 });
  });

  it('events: filtered by type and paged with after', async () => {
    const t = await withPayout();
    await t.advanceClock(300);
    const all = await t.events();
    expect(all.data.map((e) => e.event)).toEqual(['payout.pending', 'payout.processing', 'payout.successful']);
    expect((await t.events({ type: 'payout.processing' })).data.map((e) => e.id)).toEqual([all.data[1].id]);
    expect((await t.events({ after: all.data[1].id })).data.map((e) => e.event)).toEqual(['payout.successful']);
  });

  it('waitForEvent: resolves when the event is logged, and names what was seen when it times out', async () => {
    const t = await withPayout();
    const waiting = t.waitForEvent('payout.failed', { timeout: 5000 });
    await t.simulate('payouts', 'order-1', 'fail', { reason: 'Closed account' });
    expect((await waiting).data).toMatchObject({ reference: 'order-1', status: 'FAILED' });
    await expect(t.waitForEvent('payout.successful', { timeout: 200 })).rejects.toThrow(
      "No 'payout.successful' event within 200 ms for this key; events so far: payout.pending, payout.processing, payout.failed.",
    );
  });

  it('simulate: moves a resource, and a move its state forbids is a SandboxRequestError 409', async () => {
    const t = await withPayout();
    expect(await t.simulate('payouts', 'order-1', 'complete')).toMatchObject({ resource: 'payouts', id: 'order-1', event: 'complete', state: { status: 'SUCCESSFUL' } });
    const err = await t.simulate('payouts', 'order-1', 'fail').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxRequestError);
    expect(err).toMatchObject({ status: 409, operation: 'POST /_sandbox/simulate/{resource}/{id}/{event}' });
  });

  it('resources: every resource of the key, with counts', async () => {
    const t = await withPayout();
    const r = await t.resources({ kind: 'payouts' });
    expect(r.data).toMatchObject([{ kind: 'payouts', id: 'order-1', status: 'PENDING' }]);
    expect(r.counts.payouts).toBe(1);
  });

  it('balances: the key’s wallet balances', async () => {
    const { data } = await sb.tenant().balances();
    expect(data).toContainEqual({ key: 'NGN', available: '500000000.00' });
  });

  it('topUp: adds to one balance', async () => {
    expect(await sb.tenant().topUp({ key: 'GHS', amount: 12.5 })).toEqual({ key: 'GHS', available: '5000012.50' });
  });

  it('accounts: the fiat balance accounts', async () => {
    const { data } = await sb.tenant().accounts();
    expect(data.map((a) => a.currency).sort()).toEqual(['GHS', 'NGN', 'USD']);
  });

  it('uploadBulk: a JSON file, or CSV text, becomes PENDING transfers', async () => {
    const t = sb.tenant();
    const row = {
      reference: '00000000-0000-4000-8000-000000000001',
      amount: 1001,
      currency: 'NGN' as const,
      type: 'BANK' as const,
      source: { accountNumber: '1000200030' },
      destination: { accountNumber: '0100000001', accountName: 'Worker 1', bankCode: '058' },
      category: 'SALARY' as const,
    };
    expect(await t.uploadBulk({ name: 'January', items: [row] }, { serviceSource: 'payroll' })).toMatchObject({ name: 'January', count: 1, serviceSource: 'payroll' });
    const csv = [
      'reference,amount,currency,type,source.accountNumber,destination.accountNumber,destination.accountName,destination.bankCode,destination.branchCode,narrations,category',
      '00000000-0000-4000-8000-000000000002,2002,NGN,BANK,1000200030,0100000002,Worker 2,058,,,VENDOR',
    ].join('\n');
    expect(await t.uploadBulk(csv, { name: 'february.csv' })).toMatchObject({ name: 'february.csv', count: 1 });
  });

  it('demoBulk: the settled demo file, made on request only', async () => {
    const t = sb.tenant();
    const page = () => t.fetch('/api/v1/transfers/bulk/bulk_demo_salaries/transfers', { headers: { 'x-service-source': 'client' } });
    expect((await t.resources()).counts['bulk-disbursements']).toBe(0);
    expect(await t.demoBulk()).toMatchObject({ id: 'bulk_demo_salaries', count: 24, serviceSource: 'payroll-service' });
    expect(await t.demoBulk()).toMatchObject({ id: 'bulk_demo_salaries', count: 24 });
    expect(((await (await page()).json()) as { totalElements: number }).totalElements).toBe(24);
  });

  it('magicValues: the test values, honoured under a test key', async () => {
    const { honoured, data } = await sb.tenant().magicValues();
    expect(honoured).toBe(true);
    expect(data).toContainEqual({ value: '0000000052', field: 'destination.accountNumber', applies: 'fiat payout', effect: 'FAILED: The beneficiary account is closed' });
  });

  it('scenarios: the scenarios this sandbox knows', async () => {
    const { data } = await sb.tenant().scenarios();
    expect(data.map((s) => s.name)).toEqual(expect.arrayContaining(['default', 'failures', 'instant']));
  });

  it('scenario: the one in force and where it comes from', async () => {
    expect(await sb.tenant().scenario()).toMatchObject({ name: 'default', source: 'start', origin: 'bundled' });
  });

  it('useScenario: by name or as a document, and a payout follows it', async () => {
    const t = sb.tenant();
    expect(await t.useScenario('failures')).toMatchObject({ name: 'failures', source: 'tenant' });
    const inline = await t.useScenario({ description: 'Payouts settle in a second', payout: { timing: { PENDING: 1, PROCESSING: 1 } } });
    expect(inline).toMatchObject({ origin: 'inline', source: 'tenant' });
    const err = await t.useScenario('no-such-scenario').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400 });
  });

  it('saveScenario: a named scenario for this key only, usable by name', async () => {
    const t = sb.tenant();
    const saved = await t.saveScenario('fast-payouts', { payout: { timing: { PENDING: 1, PROCESSING: 1 } } });
    expect(saved).toMatchObject({ name: 'fast-payouts', origin: 'saved', warnings: [] });
    expect(await t.useScenario('fast-payouts')).toMatchObject({ name: 'fast-payouts', origin: 'saved', source: 'tenant' });
    const other = await sb.tenant().useScenario('fast-payouts').catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 400, code: 'INVALID_SCENARIO' });
  });

  it('deleteScenario: forgets a saved scenario', async () => {
    const t = sb.tenant();
    await t.saveScenario('gone-soon', { payout: { timing: { PENDING: 5 } } });
    const { data } = await t.deleteScenario('gone-soon');
    expect(data.map((s) => s.name)).not.toContain('gone-soon');
    expect(await t.deleteScenario('gone-soon').catch((e: unknown) => e)).toMatchObject({ status: 404 });
  });

  it('clearScenario: back to the start default', async () => {
    const t = sb.tenant();
    await t.useScenario('instant');
    expect(await t.clearScenario()).toMatchObject({ name: 'default', source: 'start' });
  });

  it('webhooks.set: the settings and the signing secret, and events arrive signed', async () => {
    const r = await receiver();
    const t = await withPayout();
    const settings = await t.webhooks.set(r.url, { events: ['payout.processing'] });
    expect(settings).toMatchObject({ url: r.url, events: ['payout.processing'] });
    await t.advanceClock(30);
    await r.waitFor(1);
    expect(new Webhook(settings.secret).verify(r.got[0].body, r.got[0].headers)).toMatchObject({ event: 'payout.processing' });
  });

  it('webhooks.get: the settings without the secret; 404 when none is set', async () => {
    const t = sb.tenant();
    await expect(t.webhooks.get()).rejects.toMatchObject({ status: 404 });
    await t.webhooks.set('http://127.0.0.1:4999/hooks');
    const got = await t.webhooks.get();
    expect(got.url).toBe('http://127.0.0.1:4999/hooks');
    expect(got).not.toHaveProperty('secret');
  });

  it('webhooks.remove: no more deliveries', async () => {
    const t = sb.tenant();
    await t.webhooks.set('http://127.0.0.1:4999/hooks');
    expect(await t.webhooks.remove()).toMatchObject({ status: 'success' });
    await expect(t.webhooks.get()).rejects.toMatchObject({ status: 404 });
  });

  it('webhooks.flush: every delivery due is attempted before it answers', async () => {
    const r = await receiver();
    const t = sb.tenant();
    await t.webhooks.set(r.url, { events: ['payout.pending'] });
    expect((await t.fetch('/api/v1/partners/payouts', { method: 'POST', body: JSON.stringify(payout('order-1')) })).status).toBe(201);
    const flushed = await t.webhooks.flush();
    expect(flushed.settled).toBe(true);
    expect(r.got.map((g) => JSON.parse(g.body).event)).toEqual(['payout.pending']);
    expect((await t.deliveries()).data).toMatchObject([{ event: 'payout.pending', status: 'succeeded' }]);
  });

  it('webhooks.test: a signed test delivery, whatever the event filter', async () => {
    const r = await receiver();
    const t = sb.tenant();
    await t.webhooks.set(r.url, { events: ['payout.pending'] });
    expect(await t.webhooks.test()).toMatchObject({ event: 'webhook.test', status: 'pending' });
    await r.waitFor(1);
    expect(JSON.parse(r.got[0].body)).toMatchObject({ event: 'webhook.test', data: { message: 'A test delivery from the sandbox' } });
  });

  it('webhooks.probe: a receiver that accepts everything fails the probe', async () => {
    const r = await receiver();
    const t = sb.tenant();
    await t.webhooks.set(r.url);
    const result = await t.webhooks.probe();
    expect(result.passed).toBe(false);
    expect(result.probes.map((p) => [p.form, p.status, p.rejected])).toEqual([
      ['genuine', 200, false],
      ...['bad-signature', 'wrong-secret', 'stale-timestamp', 'future-timestamp', 'tampered-body', 'missing-signature'].map((f) => [f, 200, false]),
    ]);
    expect(r.got).toHaveLength(7);
  });

  it('deliveries: the delivery log with every attempt', async () => {
    const r = await receiver();
    const t = await withPayout();
    await t.webhooks.set(r.url);
    await t.advanceClock(30);
    await r.waitFor(1);
    const log = await t.deliveries({ status: 'succeeded' });
    expect(log.data[0]).toMatchObject({ event: 'payout.processing', status: 'succeeded', attempts: [{ statusCode: 200 }] });
  });

  it('redeliver: sends a delivery again with the same webhook-id', async () => {
    const r = await receiver();
    const t = await withPayout();
    await t.webhooks.set(r.url, { events: ['payout.processing'] });
    await t.advanceClock(30);
    await r.waitFor(1);
    const [first] = (await t.deliveries()).data;
    const again = await t.redeliver(first.id);
    expect(again.id).toBe(first.id);
    await r.waitFor(2);
    expect(r.got[1].headers['webhook-id']).toBe(first.id);
  });

  it('report: a fresh key is not ready, its required checks not exercised; Markdown and JUnit as text', async () => {
    const t = sb.tenant();
    const r = await t.report();
    expect(r.ready).toBe(false);
    expect(r.checks.filter((c) => c.required).map((c) => c.status)).toEqual(['not_exercised', 'not_exercised', 'not_exercised', 'not_exercised']);
    expect(await t.report('markdown')).toMatch(/^# Readiness report: not ready for live\n/);
    expect(await t.report('junit')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuite name="payments-sandbox readiness"/);
  });

  it('resetReport: forgets what was observed of the key', async () => {
    const t = await withPayout('bad-ref');
    for (let i = 0; i < 3; i++) await t.fetch('/api/v1/partners/payouts', { method: 'POST', body: JSON.stringify({ ...payout('bad-ref'), amount: -1 }) });
    expect((await t.report()).checks.find((c) => c.id === 'no-blind-retry-of-4xx')?.status).toBe('failed');
    const fresh = await t.resetReport();
    expect(fresh.checks.find((c) => c.id === 'no-blind-retry-of-4xx')?.status).toBe('not_exercised');
  });
});
