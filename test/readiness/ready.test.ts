// A key made ready as a partner's suite would: its receiver verifies signatures (the standardwebhooks
// package), a failed create is retried under its reference, a failed payout's webhook is taken. The
// report then says ready; a receiver that accepts forgeries keeps it from being ready.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../src/domains/webhooks/index.js';
import { advance, createTestApp, payoutRequest, type TestApp } from '../support/app.js';
import { afterThisTest } from '../support/cleanup.js';

const PAYOUTS = '/api/v1/partners/payouts';

/** A receiver on port 0: with `verify`, it answers 204 to a delivery whose signature verifies and 401 otherwise; without, 200 to all. */
async function receiver(verify: boolean) {
  const state = { secret: '', events: [] as string[] };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      try {
        if (verify) new Webhook(state.secret).verify(body, headers);
        state.events.push((JSON.parse(body) as { event: string }).event);
        res.writeHead(verify ? 204 : 200).end();
      } catch {
        res.writeHead(401).end();
      }
    });
  });
  afterThisTest(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

async function runSuite(verify: boolean): Promise<{ t: TestApp; report: { ready: boolean; checks: { id: string; status: string; required: boolean; detail: string; evidence: { reference?: string }[] }[] } }> {
  const outbox = new Outbox();
  const t = await createTestApp({ outbox });
  const r = await receiver(verify);
  const hook = await t.call('PUT', '/_sandbox/webhooks', { body: { url: r.url } });
  r.state.secret = hook.body.secret;
  expect((await t.call('POST', '/_sandbox/webhooks/probe')).status).toBe(200);
  // A create that fails once, retried as it should be: under the same reference.
  const scenario = { name: 'fail-first', faults: [{ route: { method: 'POST', path: PAYOUTS }, sequence: [{ kind: 'error', status: 503 }, 'pass'] }] };
  expect((await t.call('PUT', '/_sandbox/scenario', { body: { scenario } })).status).toBe(200);
  expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(503);
  expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(201);
  // A payout the bank refuses (a test value), its failure taken by webhook.
  const failing = { ...payoutRequest('order-2'), destination: { ...payoutRequest('x').destination, accountNumber: '0000000051' } };
  expect((await t.call('POST', PAYOUTS, { body: failing })).status).toBe(201);
  await advance(t, 3600);
  await outbox.idle();
  expect(r.state.events).toContain('payout.failed');
  return { t, report: (await t.call('GET', '/_sandbox/report')).body };
}

describe('a key made ready', () => {
  it('is ready once its receiver verifies, its retry reuses the reference and a failed payout is met', async () => {
    const { report } = await runSuite(true);
    const required = report.checks.filter((c) => c.required).map((c) => [c.id, c.status]);
    expect(required).toEqual([
      ['retry-reuses-reference', 'passed'],
      ['webhook-signatures-verified', 'passed'],
      ['webhooks-acknowledged', 'passed'],
      ['handles-payout.failed', 'passed'],
    ]);
    expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
    expect(report.ready).toBe(true);
    expect(report.checks.find((c) => c.id === 'handles-payout.failed')!.detail).toBe('Met a failed fiat payout: the payout.failed webhook was acknowledged with a 2xx.');
    const acknowledged = report.checks.find((c) => c.id === 'webhooks-acknowledged')!;
    expect(acknowledged.detail).toMatch(/^\d+ of \d+ deliveries \(100 %\) got a 2xx within 5 s; 95 % are needed\. The slowest answer took \d+ ms/);
    // The evidence is the slowest answer the detail names: the delivery, when, and what the receiver sent.
    const [, ms, event, id] = /took (\d+) ms \(([\w.]+), (\S+)\)\.$/.exec(acknowledged.detail)!;
    expect(acknowledged.evidence).toEqual([{ id, at: expect.any(String), method: 'POST', path: '(your webhook URL)', sent: 204, reference: expect.stringMatching(/^order-[12]$/), note: `${event}: the slowest answer, ${ms} ms` }]);
    // The failed payout's webhook is shown with the payout it was about.
    expect(report.checks.find((c) => c.id === 'handles-payout.failed')!.evidence).toEqual([
      { id: expect.any(String), at: expect.any(String), method: 'POST', path: '(your webhook URL)', sent: 204, reference: 'order-2', note: 'payout.failed acknowledged' },
    ]);
  });

  it('is not ready while its receiver accepts forged deliveries, and says which', async () => {
    const { report } = await runSuite(false);
    const c = report.checks.find((x) => x.id === 'webhook-signatures-verified')!;
    expect(c.status).toBe('failed');
    expect(c.detail).toContain('bad-signature was accepted (200)');
    expect(c.detail).toContain('missing-signature was accepted (200)');
    expect(report.ready).toBe(false);
  });
});

/** A suite's start with a placeholder receiver, which refuses everything: a payout's deliveries to it,
 * every attempt refused over two hours (the sixth an hour after the fifth). */
async function afterPlaceholder() {
  const outbox = new Outbox();
  const t = await createTestApp({ outbox });
  const placeholder = await receiver(true);
  expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: placeholder.url } })).status).toBe(200);
  expect((await t.call('POST', PAYOUTS, { body: payoutRequest('early-1') })).status).toBe(201);
  await advance(t, 7200);
  await outbox.idle();
  return { t, outbox };
}

describe('a webhook URL changed', () => {
  it('judges the receiver now set: deliveries sent to a URL set before it no longer count', async () => {
    const { t, outbox } = await afterPlaceholder();
    const acknowledged = async () => (await t.call('GET', '/_sandbox/report')).body.checks.find((c: { id: string }) => c.id === 'webhooks-acknowledged');
    expect((await acknowledged()).status).toBe('failed');
    expect((await acknowledged()).evidence[0]).toMatchObject({ method: 'POST', path: '(your webhook URL)', sent: 401, reference: 'early-1' });
    // The real receiver, which verifies and acknowledges.
    const real = await receiver(true);
    const hook = await t.call('PUT', '/_sandbox/webhooks', { body: { url: real.url } });
    real.state.secret = hook.body.secret;
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('later-1') })).status).toBe(201);
    await advance(t, 3600);
    await outbox.idle();
    expect(real.state.events.length).toBeGreaterThan(0);
    const c = await acknowledged();
    expect(c.status).toBe('passed');
    expect(c.detail).toMatch(/ \(100 %\) got a 2xx within 5 s/);
  });
});

describe('DELETE /_sandbox/report', () => {
  it('judges a new run from nothing: the probe and the deliveries before it no longer count, those after it do', async () => {
    const { t } = await runSuite(true);
    const forgotten = await t.call('DELETE', '/_sandbox/report');
    expect(forgotten.status).toBe(200);
    expect(forgotten.body.ready).toBe(false);
    const statuses = (r: { checks: { id: string; status: string }[] }) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));
    // Only the advisory key-format check, which needs nothing observed, still says passed.
    expect(Object.entries(statuses(forgotten.body)).filter(([, s]) => s !== 'not_exercised')).toEqual([['key-format', 'passed']]);
    // A reset keeps what DELETE set aside set aside.
    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect(statuses((await t.call('GET', '/_sandbox/report')).body)['webhook-signatures-verified']).toBe('not_exercised');
    // What the new run does counts again.
    expect((await t.call('DELETE', '/_sandbox/scenario')).status).toBe(200);
    expect((await t.call('POST', '/_sandbox/webhooks/probe')).status).toBe(200);
    const failing = { ...payoutRequest('order-3'), destination: { ...payoutRequest('x').destination, accountNumber: '0000000051' } };
    expect((await t.call('POST', PAYOUTS, { body: failing })).status).toBe(201);
    await advance(t, 3600);
    const after = statuses((await t.call('GET', '/_sandbox/report')).body);
    expect([after['webhook-signatures-verified'], after['webhooks-acknowledged'], after['handles-payout.failed']]).toEqual(['passed', 'passed', 'passed']);
  });
});

describe('test deliveries (POST /_sandbox/webhooks/test)', () => {
  it('are left out of webhooks-acknowledged: alone they exercise nothing, and the detail says so', async () => {
    const outbox = new Outbox();
    const t = await createTestApp({ outbox });
    const r = await receiver(true);
    r.state.secret = (await t.call('PUT', '/_sandbox/webhooks', { body: { url: r.url } })).body.secret;
    for (let i = 0; i < 3; i++) expect((await t.call('POST', '/_sandbox/webhooks/test')).status).toBe(202);
    await outbox.idle();
    expect(r.state.events).toEqual(['webhook.test', 'webhook.test', 'webhook.test']);
    const acknowledged = async () => (await t.call('GET', '/_sandbox/report')).body.checks.find((c: { id: string }) => c.id === 'webhooks-acknowledged');
    expect(await acknowledged()).toMatchObject({
      status: 'not_exercised',
      detail:
        'Only test deliveries (webhook.test, 3) were sent, which show the receiver answers but not that it takes the events of a flow: they are not counted. Run a flow that records events (a payout, a transfer) with the webhook set.',
      evidence: [],
    });
    // A flow's deliveries are what count: all of them, and only them.
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(201);
    await advance(t, 3600);
    await outbox.idle();
    const flow = r.state.events.filter((e) => e !== 'webhook.test');
    expect(flow.length).toBeGreaterThan(0);
    const c = await acknowledged();
    expect(c.status).toBe('passed');
    expect(c.detail).toMatch(new RegExp(`^${flow.length} of ${flow.length} deliveries \\(100 %\\)`));
    expect(c.evidence[0].note).toMatch(/^payout\.\w+: the slowest answer/);
  });
});

describe('a webhook removed before the report', () => {
  it('keeps the verdicts of what was seen while it was set: the probe and the deliveries to it still count', async () => {
    const { t, report } = await runSuite(true);
    expect(report.ready).toBe(true);
    expect((await t.call('DELETE', '/_sandbox/webhooks')).status).toBe(200);
    const after = (await t.call('GET', '/_sandbox/report')).body;
    expect(after.checks.filter((c: { required: boolean }) => c.required).map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ['retry-reuses-reference', 'passed'],
      ['webhook-signatures-verified', 'passed'],
      ['webhooks-acknowledged', 'passed'],
      ['handles-payout.failed', 'passed'],
    ]);
    expect(after.ready).toBe(true);
    // Each verdict and its evidence as before; polling-moderate, with no read made, now says no webhook is set.
    const but = (checks: { id: string }[]) => checks.filter((c) => c.id !== 'polling-moderate');
    expect(but(after.checks)).toEqual(but(report.checks));
  });

  it('judges the receiver set last: deliveries to a URL set before it stay left out after it is removed', async () => {
    const { t, outbox } = await afterPlaceholder();
    const real = await receiver(true);
    real.state.secret = (await t.call('PUT', '/_sandbox/webhooks', { body: { url: real.url } })).body.secret;
    expect((await t.call('POST', '/_sandbox/webhooks/probe')).status).toBe(200);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('later-1') })).status).toBe(201);
    await advance(t, 3600);
    await outbox.idle();
    expect((await t.call('DELETE', '/_sandbox/webhooks')).status).toBe(200);
    const statuses = Object.fromEntries((await t.call('GET', '/_sandbox/report')).body.checks.map((c: { id: string; status: string }) => [c.id, c.status]));
    expect([statuses['webhook-signatures-verified'], statuses['webhooks-acknowledged']]).toEqual(['passed', 'passed']);
  });
});
