// Every recipe of docs/scenario-recipes.md, run as written: each YAML block is bound to a key and the
// case it claims is driven over HTTP; docs/scenarios.md's YAML examples bind as written.
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY, type TestApp } from '../support/app.js';
import { newTrade, fx } from '../support/fx.js';
import { setup, verifyAll } from '../support/webhooks.js';
import { payout, PAYOUTS } from './support.js';

const doc = readFileSync(new URL('../../docs/scenario-recipes.md', import.meta.url), 'utf8');
const recipes = new Map([...doc.matchAll(/```yaml\n# recipe: ([a-z-]+)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));

async function bind(t: TestApp, id: string) {
  const yaml = recipes.get(id);
  expect(yaml, `docs/scenario-recipes.md has no recipe ${id}`).toBeDefined();
  const res = await t.call('PUT', '/_sandbox/scenario', { raw: yaml, headers: { 'content-type': 'application/yaml' } });
  expect([res.status, res.body.warnings]).toEqual([200, []]);
  expect((await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } })).status).toBe(200);
}

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

describe('docs/scenario-recipes.md', () => {
  it('holds the recipes this file runs, and no other', () => {
    expect([...recipes.keys()]).toEqual(['fail-by-prefix', 'rate-limited-once', 'duplicate-reference', 'expired-quote', 'fx-cancelled', 'drifted-status', 'webhook-before-answer', 'terminal-first-webhooks', 'forged-webhooks']);
  });

  it('fail-by-prefix: FAILED exactly 600 s after creation', async () => {
    await bind(t, 'fail-by-prefix');
    expect((await t.call('POST', PAYOUTS, { body: payout('fail-1') })).status).toBe(201);
    expect((await t.call('POST', PAYOUTS, { body: payout('ok-1') })).status).toBe(201);
    await advance(t, 599);
    expect((await t.call('GET', `${PAYOUTS}/fail-1`)).body.data.status).toBe('PROCESSING');
    await advance(t, 1);
    expect((await t.call('GET', `${PAYOUTS}/fail-1`)).body.data).toMatchObject({ status: 'FAILED', failureReason: 'Account closed' });
    expect((await t.call('GET', `${PAYOUTS}/ok-1`)).body.data.status).toBe('SUCCESSFUL');
  });

  it('rate-limited-once: 429 with Retry-After, then 201', async () => {
    await bind(t, 'rate-limited-once');
    const first = await t.call('POST', PAYOUTS, { body: payout('r-1') });
    expect([first.status, first.body.error.code, first.headers.get('retry-after')]).toEqual([429, 'RATE_LIMITED', '2']);
    expect((await t.call('GET', `${PAYOUTS}/r-1`)).status).toBe(404);
    expect((await t.call('POST', PAYOUTS, { body: payout('r-1') })).status).toBe(201);
  });

  it('duplicate-reference: 409 for dup- references; a real duplicate replays or conflicts', async () => {
    await bind(t, 'duplicate-reference');
    expect((await t.call('POST', PAYOUTS, { body: payout('dup-1') })).body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await t.call('POST', PAYOUTS, { body: payout('same-1') })).status).toBe(201);
    const replay = await t.call('POST', PAYOUTS, { body: payout('same-1') });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect((await t.call('POST', PAYOUTS, { body: payout('same-1', { amount: 1 }) })).status).toBe(409);
  });

  it('expired-quote: expired after 60 s, and completing it is 409', async () => {
    await bind(t, 'expired-quote');
    const q = (await t.call('POST', '/api/v1/partners/marketplace/intent', { body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' } })).body;
    await advance(t, 61);
    expect((await t.call('GET', `/api/v1/partners/marketplace/quote/${q.quoteId}`)).body.status).toBe('expired');
    const late = await t.call('PUT', `/api/v1/quotes/complete/${q.quoteId}`, { body: { destination: { blockChain: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } } } });
    expect([late.status, late.body.error.code]).toEqual([409, 'INVALID_STATE_TRANSITION']);
  });

  it('fx-cancelled: SETT for 120 s, then CANC', async () => {
    await bind(t, 'fx-cancelled');
    const id = await newTrade(t);
    expect((await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/accept`, { body: {} })).status).toBe(200);
    await advance(t, 119);
    expect((await fx(t, 'GET', `/trades/${id}`)).xml.Sts).toBe('SETT');
    await advance(t, 1);
    expect((await fx(t, 'GET', `/trades/${id}`)).xml.Sts).toBe('CANC');
  });

  it('drifted-status: the first create answers ON_HOLD; the payout is PENDING; the next answers as usual', async () => {
    await bind(t, 'drifted-status');
    const first = await t.call('POST', PAYOUTS, { body: payout('drift-1'), unchecked: true });
    expect([first.status, first.headers.get('x-sandbox-fault'), first.body.data.status]).toEqual([201, 'drift unknown-enum', 'ON_HOLD']);
    expect((await t.call('GET', `${PAYOUTS}/drift-1`)).body.data.status).toBe('PENDING');
    const next = await t.call('POST', PAYOUTS, { body: payout('drift-2') });
    expect([next.status, next.headers.get('x-sandbox-fault'), next.body.data.status]).toEqual([201, null, 'PENDING']);
  });

  it('receiver down for an hour: five attempts in one advance, the sixth succeeds once it is back', async () => {
    const w = await setup();
    await w.hook({ events: ['payout.pending'] });
    w.r.plan.push(503, 503, 503, 503, 503);
    await w.t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    await w.pay('hook-1');
    await w.t.call('POST', '/_sandbox/webhooks/flush');
    await advance(w.t, 3600);
    await w.t.call('POST', '/_sandbox/webhooks/flush');
    const [d] = (await w.deliveries(KEY)).data;
    expect([d.status, d.tries]).toEqual(['pending', 5]);
    await w.t.call('POST', '/_sandbox/clock/advance', { body: { to: d.nextAttemptAt } });
    await w.t.call('POST', '/_sandbox/webhooks/flush');
    expect((await w.deliveries(KEY)).data[0]).toMatchObject({ status: 'succeeded', tries: 6 });
  });

  it('webhook-before-answer: payout.pending reaches the receiver while the 201 is held', async () => {
    const w = await setup();
    await w.hook({ events: ['payout.pending'] });
    await bind(w.t, 'webhook-before-answer');
    let answered = false;
    const create = w.t.call('POST', PAYOUTS, { body: payout('early-1') }).then((res) => ((answered = true), res));
    await w.r.waitFor(1);
    expect(answered).toBe(false);
    expect(JSON.parse(w.r.got[0].body)).toMatchObject({ event: 'payout.pending', data: { reference: 'early-1', status: 'PENDING' } });
    const res = await create;
    expect([res.status, res.headers.get('x-sandbox-fault')]).toEqual([201, 'latency 1000ms']);
  });

  it('terminal-first-webhooks: payout.successful first, then pending and processing', async () => {
    const w = await setup();
    const secret = await w.hook({});
    await bind(w.t, 'terminal-first-webhooks');
    await w.pay('tf-1');
    await advance(w.t, 299);
    await w.t.call('POST', '/_sandbox/webhooks/flush');
    expect(w.r.got).toHaveLength(0);
    await advance(w.t, 1);
    await w.t.call('POST', '/_sandbox/webhooks/flush');
    expect(verifyAll(w.r, secret).map((m) => m.event)).toEqual(['payout.successful', 'payout.pending', 'payout.processing']);
  });

  it('forged-webhooks: the third delivery is preceded by a forgery the verifying receiver refuses', async () => {
    const w = await setup();
    const secret = await w.hook({});
    await bind(w.t, 'forged-webhooks');
    await w.pay('forged-1');
    await advance(w.t, 300);
    await w.t.call('POST', '/_sandbox/webhooks/flush');
    expect(w.r.events()).toEqual(['payout.pending', 'payout.processing', 'payout.successful', 'payout.successful']);
    const verifies = w.r.got.map((g) => {
      try {
        return Boolean(new Webhook(secret).verify(g.body, g.headers));
      } catch {
        return false;
      }
    });
    expect(verifies).toEqual([true, true, false, true]);
    const forged = (await w.deliveries(KEY)).data.filter((d: { forged?: string }) => d.forged);
    expect(forged).toMatchObject([{ event: 'payout.successful', forged: 'tampered-body', tries: 1, nextAttemptAt: null }]);
  });

  it('probe: a receiver that accepts everything does not pass', async () => {
    const w = await setup();
    await w.hook({});
    const res = await w.t.call('POST', '/_sandbox/webhooks/probe');
    expect([res.status, res.body.passed, res.body.probes.length]).toEqual([200, false, 7]);
  });

  it('test values: 0000000052 fails as closed, 0000000044 does not resolve', async () => {
    expect(doc).toContain('`0000000052`');
    const body = payout('magic-1', { destination: { accountNumber: '0000000052', accountName: 'John Doe', bankCode: '058' } });
    expect((await t.call('POST', PAYOUTS, { body })).status).toBe(201);
    await advance(t, 600);
    expect((await t.call('GET', `${PAYOUTS}/magic-1`)).body.data).toMatchObject({ status: 'FAILED', failureReason: 'The beneficiary account is closed' });
    expect((await t.call('GET', '/api/v1/partners/banks/resolve?accountNumber=0000000044&bankCode=058&currency=NGN')).status).toBe(404);
  });
});

describe('docs/scenarios.md', () => {
  const page = readFileSync(new URL('../../docs/scenarios.md', import.meta.url), 'utf8');

  it('every YAML example is a document a key can bind, with no rule left unreachable', async () => {
    const examples = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const yaml of examples) {
      const res = await t.call('PUT', '/_sandbox/scenario', { raw: yaml, headers: { 'content-type': 'application/yaml' } });
      expect([res.status, res.body.warnings], yaml).toEqual([200, []]);
    }
  });

  it('the table of bundled scenarios names the ones GET /_sandbox/scenarios lists', async () => {
    const section = page.slice(page.indexOf('## Bundled scenarios'));
    const documented = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    const listed = (await t.call('GET', '/_sandbox/scenarios')).body.data.filter((s: { origin: string }) => s.origin === 'bundled').map((s: { name: string }) => s.name);
    expect(new Set(documented)).toEqual(new Set(listed));
    expect(documented.length).toBe(8);
  });
});
