// GET /_sandbox/report: the readiness report of one key, judged from what the key did. Every check
// here is provoked as a partner's suite would meet it, and its verdict and evidence read back.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateAgainstSchema } from '../../src/iso20022/xsd.test-helper.js';
import { LowdbStore } from '../../src/store/lowdb.store.js';
import { advance, createTestApp, KEY, payoutRequest, type TestApp } from '../support/app.js';
import { fx, instruction, newTrade, rejection } from '../support/fx.js';
import { intent, QUOTE, transfer, TRANSFERS, WALLET, walletPayout, withdrawal, WITHDRAWAL } from '../scenarios/resources.js';

const SOURCE = { 'x-service-source': 'payroll-service' };
const INTENT = '/api/v1/partners/marketplace/intent';

const PAYOUTS = '/api/v1/partners/payouts';

interface Check {
  id: string;
  title: string;
  status: string;
  required: boolean;
  detail: string;
  evidence: { id: string; method: string; path: string; sent: number | string; reference?: string; note?: string }[];
}

async function report(t: TestApp, key = KEY): Promise<{ ready: boolean; generatedAt: string; checks: Check[] }> {
  const res = await t.call('GET', '/_sandbox/report', { key });
  expect(res.status).toBe(200);
  return res.body;
}
/** Problems of a JUnit file against the form CI servers read (junit.xsd); none when valid. */
const junitProblems = (xml: string) => validateAgainstSchema(xml, readFileSync(new URL('./junit.xsd', import.meta.url), 'utf8'));

const check = (r: { checks: Check[] }, id: string) => r.checks.find((c) => c.id === id)!;

async function bind(t: TestApp, scenario: object, key = KEY) {
  const res = await t.call('PUT', '/_sandbox/scenario', { key, body: { scenario } });
  expect(res.status, res.text).toBe(200);
}

const failFirstPayout = { name: 'fail-first', faults: [{ route: { method: 'POST', path: PAYOUTS }, sequence: [{ kind: 'error', status: 500 }, 'pass'] }] };

describe('the readiness report', () => {
  it('finds a fresh key not ready, every required check not exercised, with what to do', async () => {
    const t = await createTestApp();
    const r = await report(t);
    expect(r.ready).toBe(false);
    expect(r.checks.map((c) => c.id)).toEqual([
      'retry-reuses-reference',
      'webhook-signatures-verified',
      'webhooks-acknowledged',
      'handles-payout.failed',
      'handles-wallet_payout.failed',
      'handles-withdrawal.failed',
      'handles-transfer.failed',
      'handles-quote.expired',
      'handles-fx_trade.canc',
      'handles-5xx',
      'handles-429',
      'handles-timeout',
      'handles-drop',
      'handles-malformed',
      'handles-drift',
      'retry-after-honoured',
      'no-blind-retry-of-4xx',
      'polling-moderate',
      'xml-valid',
      'key-format',
    ]);
    expect(r.checks.filter((c) => c.required).map((c) => [c.id, c.status])).toEqual([
      ['retry-reuses-reference', 'not_exercised'],
      ['webhook-signatures-verified', 'not_exercised'],
      ['webhooks-acknowledged', 'not_exercised'],
      ['handles-payout.failed', 'not_exercised'],
    ]);
    expect(check(r, 'retry-reuses-reference').detail).toContain('Bind a scenario with a 5xx, timeout or drop fault');
    // The test app's key has the live service's format.
    expect(check(r, 'key-format')).toMatchObject({ status: 'passed', required: false });
    expect(check(r, 'key-format').detail).toContain("has the live service's format");
    const readable = await report(t, 'sk_test_ci_job_42');
    expect(check(readable, 'key-format').detail).toMatch(/^Advisory: the key is a readable sandbox key/);
  });

  it('passes retry-reuses-reference when the failed create is retried under its reference, naming both requests', async () => {
    const t = await createTestApp();
    await bind(t, failFirstPayout);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(500);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(201);
    const r = await report(t);
    const c = check(r, 'retry-reuses-reference');
    expect(c.status).toBe('passed');
    expect(c.evidence.at(-1)).toMatchObject({ method: 'POST', path: PAYOUTS, sent: 201, reference: 'order-1', note: 'retried under the same reference order-1' });
    expect(c.evidence.at(-1)!.id).toMatch(/^req_\d+$/);
    expect(check(r, 'handles-5xx')).toMatchObject({ status: 'passed' });
  });

  it('fails retry-reuses-reference on the double-payout bug: the same payment under a new reference, the original never read back', async () => {
    const t = await createTestApp();
    await bind(t, failFirstPayout);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-1', 5000) })).status).toBe(500);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-2', 5000) })).status).toBe(201);
    const r = await report(t);
    const c = check(r, 'retry-reuses-reference');
    expect(c.status).toBe('failed');
    expect(c.evidence.at(-1)).toMatchObject({ sent: 201, reference: 'order-2' });
    expect(c.evidence.at(-1)!.note).toContain('after order-1 failed');
    expect(r.ready).toBe(false);
  });

  it('accepts a new reference once the failed one was read back, and ignores another payment', async () => {
    const t = await createTestApp();
    await bind(t, failFirstPayout);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-1', 5000) })).status).toBe(500);
    // Another payment altogether is no retry.
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('other-1', 700) })).status).toBe(201);
    expect(check(await report(t), 'retry-reuses-reference').status).toBe('not_exercised');
    expect((await t.call('GET', `${PAYOUTS}/order-1`)).status).toBe(404);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-2', 5000) })).status).toBe(201);
    const c = check(await report(t), 'retry-reuses-reference');
    expect(c.status).toBe('passed');
    expect(c.evidence.at(-1)!.note).toBe('read order-1 back before creating order-2');
  });

  it('takes a read of the failed reference percent-encoded in its path as reading it back, however the client encoded it', async () => {
    const reads = [
      ['order 1/é', `${PAYOUTS}/${encodeURIComponent('order 1/é')}`],
      ['order/2', `${PAYOUTS}/order%2f2`],
      ['order #3', `${PAYOUTS}/order%20%233`],
      ['100%', `${PAYOUTS}/100%25`],
    ];
    for (const [reference, path] of reads) {
      const t = await createTestApp();
      await bind(t, failFirstPayout);
      expect((await t.call('POST', PAYOUTS, { body: payoutRequest(reference, 5000) })).status).toBe(500);
      // The payout was never made: the read says so, naming the reference as the body gave it.
      const read = await t.call('GET', path);
      expect([read.status, read.body.message]).toEqual([404, `No payout with reference '${reference}' exists for this API key. Send the reference the create call answered with.`]);
      expect((await t.call('POST', PAYOUTS, { body: payoutRequest(`${reference}-new`, 5000) })).status).toBe(201);
      const c = check(await report(t), 'retry-reuses-reference');
      expect([reference, c.status, c.evidence.at(-1)!.note]).toEqual([reference, 'passed', `read ${reference} back before creating ${reference}-new`]);
    }
  });

  it('judges a withdrawal by its Idempotency-Key: the same key passes, a new one for the same money fails, none is not judged', async () => {
    const WITHDRAWALS = '/api/v1/partners/withdrawal';
    const failFirst = { name: 'fail-first', faults: [{ route: { method: 'POST', path: WITHDRAWALS }, sequence: [{ kind: 'error', status: 503 }, 'pass'] }] };
    const withKey = (key: string) => ({ body: withdrawal(), headers: { 'idempotency-key': key } });

    const same = await createTestApp();
    await bind(same, failFirst);
    expect((await same.call('POST', WITHDRAWALS, withKey('settle-1'))).status).toBe(503);
    expect((await same.call('POST', WITHDRAWALS, withKey('settle-1'))).status).toBe(201);
    const passed = check(await report(same), 'retry-reuses-reference');
    expect(passed.status).toBe('passed');
    expect(passed.evidence.at(-1)).toMatchObject({ method: 'POST', path: WITHDRAWALS, sent: 201, reference: 'settle-1', note: 'retried under the same Idempotency-Key settle-1' });

    const renamed = await createTestApp();
    await bind(renamed, failFirst);
    expect((await renamed.call('POST', WITHDRAWALS, withKey('settle-1'))).status).toBe(503);
    expect((await renamed.call('POST', WITHDRAWALS, { body: withdrawal() })).status).toBe(201);
    const failed = check(await report(renamed), 'retry-reuses-reference');
    expect(failed.status).toBe('failed');
    expect(failed.evidence.at(-1)!.note).toContain('after settle-1 failed');
    expect(failed.evidence.at(-1)!.note).toContain('sent again without an Idempotency-Key, and settle-1 was not read back first');

    const unkeyed = await createTestApp();
    await bind(unkeyed, failFirst);
    expect((await unkeyed.call('POST', WITHDRAWALS, { body: withdrawal() })).status).toBe(503);
    expect((await unkeyed.call('POST', WITHDRAWALS, { body: withdrawal() })).status).toBe(201);
    expect(check(await report(unkeyed), 'retry-reuses-reference').status).toBe('not_exercised');
  });

  it('passes handles-payout.failed once a FAILED payout is read back', async () => {
    const t = await createTestApp();
    const body = { ...payoutRequest('fail-1'), destination: { ...payoutRequest('x').destination, accountNumber: '0000000051' } };
    expect((await t.call('POST', PAYOUTS, { body })).status).toBe(201);
    expect(check(await report(t), 'handles-payout.failed').status).toBe('not_exercised');
    await advance(t, 3600);
    const read = await t.call('GET', `${PAYOUTS}/fail-1`);
    expect(read.body.data.status).toBe('FAILED');
    const c = check(await report(t), 'handles-payout.failed');
    expect(c.status).toBe('passed');
    expect(c.detail).toBe('Met a failed fiat payout: the FAILED state was read back.');
    expect(c.evidence[0]).toMatchObject({ method: 'GET', path: `${PAYOUTS}/fail-1`, sent: 200 });
  });

  it("passes each resource's failure check once its failed state is read back, whatever the read's shape", async () => {
    const t = await createTestApp();
    const made = (res: { status: number; text: string }) => expect(res.status, res.text).toBeLessThan(300);
    made(await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'usdc:base', amount: 1000 } }));
    made(await t.call('POST', WALLET, { body: { ...walletPayout('w-1'), toAddress: '0x0000000000000000000000000000000000000051' } }));
    const wd = await t.call('POST', WITHDRAWAL, { body: withdrawal({ accountNumber: '0000000051' }) });
    made(wd);
    const tr = await t.call('POST', TRANSFERS, { body: { ...transfer('3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f'), destination: { ...transfer('x').destination, accountNumber: '0000000051' } }, headers: SOURCE });
    made(tr);
    const quote = await t.call('POST', INTENT, { body: intent });
    made(quote);
    const tx = await newTrade(t);
    made(await fx(t, 'PUT', `/trades/${tx}/cancellation`, { xml: '<FXTradCxlReq><Rsn>Rate moved</Rsn></FXTradCxlReq>' }));
    await advance(t, 7200);
    const ids = ['handles-wallet_payout.failed', 'handles-withdrawal.failed', 'handles-transfer.failed', 'handles-quote.expired', 'handles-fx_trade.canc'];
    const statuses = async () => {
      const r = await report(t);
      return ids.map((id) => check(r, id).status);
    };
    expect(await statuses()).toEqual(ids.map(() => 'not_exercised'));
    expect((await t.call('GET', `${WALLET}/w-1`)).body.status).toBe('FAILED');
    expect((await t.call('GET', `${WITHDRAWAL}/${wd.body.reference}`)).body.status).toBe('FAILED');
    expect((await t.call('GET', `${TRANSFERS}/${tr.body[0].reference}`, { headers: SOURCE })).body.status).toBe('FAILED');
    expect((await t.call('GET', `${QUOTE}/${quote.body.quoteId}`)).body.status).toBe('expired');
    expect((await fx(t, 'GET', `/trades/${tx}`)).xml.Sts).toBe('CANC');
    expect(await statuses()).toEqual(ids.map(() => 'passed'));
    expect(check(await report(t), 'handles-fx_trade.canc').detail).toBe('Met a cancelled FX trade: the CANC state was read back.');
    // A list's answer is no resource read: the bank list leaves the polling check alone.
    const fresh = await createTestApp();
    expect((await fresh.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    expect(check(await report(fresh), 'polling-moderate').detail).toBe('No resource was read.');
    await fresh.call('GET', '/api/v1/partners/banks?currency=NGN');
    expect(check(await report(fresh), 'polling-moderate').status).toBe('not_exercised');
  });

  it('judges Retry-After on the key clock: too early fails, waiting passes', async () => {
    const t = await createTestApp();
    const limited = { name: 'limited', faults: [{ route: { method: 'POST', path: PAYOUTS }, sequence: [{ kind: 'error', status: 429, retryAfter: 2 }, 'pass', { kind: 'error', status: 429, retryAfter: 2 }, 'pass'] }] };
    await bind(t, limited);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('r-1') })).status).toBe(429);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('r-1') })).status).toBe(201);
    let c = check(await report(t), 'retry-after-honoured');
    expect(c.status).toBe('failed');
    expect(c.evidence.at(-1)!.note).toBe('came 2 s before the 2 s of Retry-After had passed');
    expect(check(await report(t), 'handles-429').status).toBe('passed');
    // A fresh run: the next 429 is waited for.
    await t.call('DELETE', '/_sandbox/report');
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('r-2') })).status).toBe(429);
    t.clock.advance(2000);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('r-2') })).status).toBe(201);
    c = check(await report(t), 'retry-after-honoured');
    expect(c.status).toBe('passed');
  });

  it('fails no-blind-retry-of-4xx when the same refused request is sent three times in a row', async () => {
    const t = await createTestApp();
    const bad = { ...payoutRequest('bad-1'), amount: -5 };
    for (let i = 0; i < 2; i++) expect((await t.call('POST', PAYOUTS, { body: bad })).status).toBe(400);
    expect(check(await report(t), 'no-blind-retry-of-4xx').status).toBe('passed');
    expect((await t.call('POST', PAYOUTS, { body: bad })).status).toBe(400);
    const c = check(await report(t), 'no-blind-retry-of-4xx');
    expect(c.status).toBe('failed');
    expect(c.evidence.at(-1)!.note).toBe('sent unchanged 3 times in a row, each refused');
  });

  it('answers Markdown and JUnit, and DELETE forgets what was observed', async () => {
    const t = await createTestApp();
    await bind(t, failFirstPayout);
    await t.call('POST', PAYOUTS, { body: payoutRequest('order-1', 5000) });
    await t.call('POST', PAYOUTS, { body: payoutRequest('order-2', 5000) });
    const md = await t.call('GET', '/_sandbox/report?format=markdown');
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(md.text).toMatch(/^# Readiness report: not ready for live\n/);
    expect(md.text).toContain('| `retry-reuses-reference` | A create retried after a failure reuses its reference | **failed** | yes |');
    // Row by row, the Markdown says what the JSON says: id, title, status, required and detail.
    const json = await report(t);
    const rows = md.text.split('\n').filter((l) => l.startsWith('| `'));
    const unescape = (s: string) => s.replace(/\\\|/g, '|');
    const status = { passed: 'passed', failed: '**failed**', not_exercised: 'not exercised' } as Record<string, string>;
    expect(rows.map((l) => l.slice(2, -2).split(' | ').map(unescape))).toEqual(
      json.checks.map((c) => [`\`${c.id}\``, c.title, status[c.status], c.required ? 'yes' : 'no', c.detail]),
    );
    expect(md.text).toContain('### retry-reuses-reference');
    const junit = await t.call('GET', '/_sandbox/report?format=junit');
    expect(junit.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(junit.text).toContain('<testsuite name="payments-sandbox readiness" tests="20" failures="1" errors="0"');
    expect(junitProblems(junit.text)).toEqual([]);
    expect(junitProblems('<testsuite name="x"/>')).not.toEqual([]);
    expect(junit.text).toMatch(/<testcase classname="readiness" name="retry-reuses-reference" time="0">\n {4}<failure message="After a create failed/);
    expect(junit.text).toMatch(/<testcase classname="readiness" name="handles-drop" time="0">\n {4}<skipped message="not exercised: /);
    // A reset of the key's resources keeps the verdicts; DELETE /_sandbox/report forgets them.
    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect(check(await report(t), 'handles-5xx').status).toBe('passed');
    const forgotten = await t.call('DELETE', '/_sandbox/report');
    expect(forgotten.status).toBe(200);
    expect(check(forgotten.body, 'retry-reuses-reference').status).toBe('not_exercised');
    expect(check(forgotten.body, 'handles-5xx').status).toBe('not_exercised');
  });

  it('keeps its verdicts in the store: a restart with --data reads them back', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'readiness-'));
    const first = await createTestApp({ store: await LowdbStore.open(dir) });
    await bind(first, failFirstPayout);
    await first.call('POST', PAYOUTS, { body: payoutRequest('order-1', 5000) });
    await first.call('POST', PAYOUTS, { body: payoutRequest('order-2', 5000) });
    await first.store.close();
    const again = await createTestApp({ store: await LowdbStore.open(dir) });
    const c = check(await report(again), 'retry-reuses-reference');
    expect(c.status).toBe('failed');
    expect(c.evidence.at(-1)).toMatchObject({ reference: 'order-2' });
    await again.store.close();
  });

  it('keeps the count of FX requests since a refused one across a restart with --data, so the refusal leaves the last 100', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'readiness-fx-'));
    const first = await createTestApp({ store: await LowdbStore.open(dir) });
    expect((await fx(first, 'POST', '/trades', { xml: '<FXTradInstr>' })).status).toBe(400);
    for (let i = 0; i < 99; i++) await newTrade(first);
    const failed = check(await report(first), 'xml-valid');
    expect(failed).toMatchObject({ status: 'failed', detail: "1 of the last 100 FX requests were refused for their XML: not well formed, or not as the message's XSD says (GET /xsd/{file})." });
    expect(failed.evidence).toEqual([expect.objectContaining({ id: 'req_1', method: 'POST', path: '/api/v1/partners/fx/trades', sent: 400 })]);
    await newTrade(first);
    // The refusal has left the last 100: it is no longer shown as evidence of a check that passed.
    expect(check(await report(first), 'xml-valid')).toMatchObject({ status: 'passed', detail: 'None of the last 100 FX requests was refused for its XML.', evidence: [] });
    await first.store.close();
    const again = await createTestApp({ store: await LowdbStore.open(dir) });
    expect(check(await report(again), 'xml-valid')).toMatchObject({ status: 'passed', detail: 'None of the last 100 FX requests was refused for its XML.' });
    await again.store.close();
  });

  it('passes handles-drift once a drifted answer was met, and fails a fault hammered unchanged less than a second apart', async () => {
    // Faults hold nothing here: the timeout answers at once.
    const t = await createTestApp({ sleep: async () => undefined });
    await bind(t, { name: 'drifting', faults: [{ route: { method: 'GET', path: `${PAYOUTS}/{reference}` }, fault: { kind: 'drift', form: 'unknown-enum' } }] });
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('d-1') })).status).toBe(201);
    // null-field finds nothing to change in a payout without narration (its one nullable field is
    // null already): the answer goes out as it was, and no drift was met.
    await bind(t, { name: 'no-field', faults: [{ route: { method: 'GET', path: `${PAYOUTS}/{reference}` }, fault: { kind: 'drift', form: 'null-field' } }] });
    const unchanged = await t.call('GET', `${PAYOUTS}/d-1`);
    expect([unchanged.status, unchanged.headers.get('x-sandbox-fault')]).toEqual([200, null]);
    expect(check(await report(t), 'handles-drift')).toMatchObject({ status: 'not_exercised' });
    await bind(t, { name: 'drifting', faults: [{ route: { method: 'GET', path: `${PAYOUTS}/{reference}` }, fault: { kind: 'drift', form: 'unknown-enum' } }] });
    const drifted = await t.call('GET', `${PAYOUTS}/d-1`, { unchecked: true });
    expect(drifted.headers.get('x-sandbox-fault')).toBe('drift unknown-enum');
    expect(check(await report(t), 'handles-drift')).toMatchObject({ status: 'passed' });
    // A timeout answered, then the same create resent three times within a second each: hammering.
    await bind(t, { name: 'timing-out', faults: [{ route: { method: 'POST', path: PAYOUTS }, sequence: [{ kind: 'timeout' }, { kind: 'timeout' }, { kind: 'timeout' }, { kind: 'timeout' }] }] });
    // In process a timed-out answer's body fails, as the connection would close.
    for (let i = 0; i < 4; i++) await t.call('POST', PAYOUTS, { body: payoutRequest('h-1'), unchecked: true }).catch(() => undefined);
    const hammered = check(await report(t), 'handles-timeout');
    expect(hammered.status).toBe('failed');
    expect(hammered.detail).toContain('three times or more');
  });
});

describe('the readiness report judges only what the partner was shown', () => {
  const failing = () => ({ ...payoutRequest('fail-1'), destination: { ...payoutRequest('x').destination, accountNumber: '0000000051' } });

  it('does not count a FAILED payout read back through a malformed or drifted answer as the failure met', async () => {
    const t = await createTestApp();
    expect((await t.call('POST', PAYOUTS, { body: failing() })).status).toBe(201);
    await advance(t, 3600);
    for (const fault of [{ kind: 'malformed', form: 'html' }, { kind: 'drift', form: 'unknown-enum' }]) {
      await bind(t, { name: 'garbled', faults: [{ route: { method: 'GET', path: `${PAYOUTS}/{reference}` }, fault }] });
      const read = await t.call('GET', `${PAYOUTS}/fail-1`, { unchecked: true });
      expect(read.headers.get('x-sandbox-fault')).toBe(`${fault.kind} ${fault.form}`);
      expect(read.text).not.toContain('"FAILED"');
      expect(check(await report(t), 'handles-payout.failed').status).toBe('not_exercised');
    }
    // A drift of another field left the state shown: the read counts.
    await bind(t, { name: 'extra', faults: [{ route: { method: 'GET', path: `${PAYOUTS}/{reference}` }, fault: { kind: 'drift', form: 'extra-field' } }] });
    const extra = await t.call('GET', `${PAYOUTS}/fail-1`, { unchecked: true });
    expect([extra.headers.get('x-sandbox-fault'), JSON.parse(extra.text).data.status]).toEqual(['drift extra-field', 'FAILED']);
    const c = check(await report(t), 'handles-payout.failed');
    expect(c.status).toBe('passed');
    expect(c.evidence).toHaveLength(1);
    expect(c.evidence[0]).toMatchObject({ method: 'GET', path: `${PAYOUTS}/fail-1`, sent: 200 });
    // The same on the FX interface: a cancelled trade read with its Sts drifted is no cancellation met.
    const tx = await newTrade(t);
    expect((await fx(t, 'PUT', `/trades/${tx}/cancellation`, { xml: '<FXTradCxlReq><Rsn>Rate moved</Rsn></FXTradCxlReq>' })).status).toBeLessThan(300);
    await advance(t, 7200);
    await bind(t, { name: 'fx-drift', faults: [{ route: { method: 'GET', path: '/api/v1/partners/fx/trades/{txId}' }, fault: { kind: 'drift', form: 'unknown-enum' } }] });
    const drifted = await t.call('GET', `/api/v1/partners/fx/trades/${tx}`, { unchecked: true });
    expect(drifted.headers.get('x-sandbox-fault')).toBe('drift unknown-enum');
    expect(drifted.text).not.toContain('<Sts>CANC</Sts>');
    expect(check(await report(t), 'handles-fx_trade.canc').status).toBe('not_exercised');
    await t.call('DELETE', '/_sandbox/scenario');
    expect((await fx(t, 'GET', `/trades/${tx}`)).xml.Sts).toBe('CANC');
    expect(check(await report(t), 'handles-fx_trade.canc').status).toBe('passed');
  });

  it('fails xml-valid only for a refusal of the XML itself, not for an FX request refused for another reason', async () => {
    const t = await createTestApp();
    const accept = await fx(t, 'POST', '/trades', { xml: instruction(), headers: { accept: 'application/json' } });
    expect(accept.status).toBe(400);
    expect(check(await report(t), 'xml-valid')).toMatchObject({ status: 'passed', detail: 'None of the last 1 FX requests was refused for its XML.', evidence: [] });
    // The wrong root is a refusal of the XML: the check fails, naming the request.
    expect((await fx(t, 'POST', '/trades', { xml: '<FXTradCxlReq><Rsn>x</Rsn></FXTradCxlReq>' })).status).toBe(400);
    const c = check(await report(t), 'xml-valid');
    expect(c).toMatchObject({ status: 'failed', detail: '1 of the last 2 FX requests were refused for their XML: not well formed, or not as the message\'s XSD says (GET /xsd/{file}).' });
    expect(c.evidence).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/partners/fx/trades', sent: 400, note: 'refused for its XML: not well formed, or not as its XSD says' })]);
  });

  it('judges xml-valid by the refusal the sandbox made, not by a reject text a scenario answered with', async () => {
    const t = await createTestApp();
    const TRADES = '/api/v1/partners/fx/trades';
    const refusals = [
      { kind: 'error', code: 'VALIDATION_ERROR', message: 'Invalid request body: CcyPair is required: send BaseCcy and QtdCcy.' },
      { kind: 'error', code: 'MALFORMED_XML' },
    ];
    await bind(t, { name: 'refusing', faults: [{ route: { method: 'POST', path: TRADES }, sequence: refusals }] });
    const first = await fx(t, 'POST', '/trades', { xml: instruction() });
    expect(rejection(first)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', text: 'Invalid request body: CcyPair is required: send BaseCcy and QtdCcy.' });
    expect(rejection(await fx(t, 'POST', '/trades', { xml: instruction() }))).toMatchObject({ status: 400, code: 'MALFORMED_XML' });
    // The XML sent was valid: the faults were the scenario's.
    expect(check(await report(t), 'xml-valid')).toMatchObject({ status: 'passed', detail: 'None of the last 2 FX requests was refused for its XML.', evidence: [] });
    // The sandbox's own refusal of a message its XSD does not allow (no CcyPair) is one.
    await t.call('DELETE', '/_sandbox/scenario');
    const missing = await fx(t, 'POST', '/trades', { xml: '<FXTradInstr><TradAmts><TradgCcyAmt>1000</TradgCcyAmt></TradAmts><AmtDrctn>BUY</AmtDrctn></FXTradInstr>' });
    expect(rejection(missing)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(rejection(missing).text).toMatch(/^Invalid request body: /);
    const c = check(await report(t), 'xml-valid');
    expect([c.status, c.detail, c.evidence.length]).toEqual(['failed', "1 of the last 3 FX requests were refused for their XML: not well formed, or not as the message's XSD says (GET /xsd/{file}).", 1]);
  });

  it('takes a wallet payout or a withdrawal to another destination after a failed one as another payment, not a retry', async () => {
    const other = '0x1111111111111111111111111111111111111111';
    const t = await createTestApp();
    expect((await t.call('POST', '/_sandbox/balances/top-up', { body: { key: 'usdc:base', amount: 1000 } })).status).toBeLessThan(300);
    await bind(t, { name: 'fail-first', faults: [{ route: { method: 'POST', path: WALLET }, sequence: [{ kind: 'error', status: 503 }, 'pass', 'pass'] }] });
    expect((await t.call('POST', WALLET, { body: walletPayout('w-1') })).status).toBe(503);
    expect((await t.call('POST', WALLET, { body: { ...walletPayout('w-2'), toAddress: other } })).status).toBe(201);
    expect(check(await report(t), 'retry-reuses-reference').status).toBe('not_exercised');
    // The same address and amount under a new reference is the double payout.
    expect((await t.call('POST', WALLET, { body: walletPayout('w-3') })).status).toBe(201);
    const c = check(await report(t), 'retry-reuses-reference');
    expect(c.status).toBe('failed');
    expect(c.evidence.at(-1)).toMatchObject({ method: 'POST', path: WALLET, sent: 201, reference: 'w-3' });

    const w = await createTestApp();
    await bind(w, { name: 'fail-first', faults: [{ route: { method: 'POST', path: WITHDRAWAL }, sequence: [{ kind: 'error', status: 503 }, 'pass'] }] });
    expect((await w.call('POST', WITHDRAWAL, { body: withdrawal(), headers: { 'idempotency-key': 'settle-1' } })).status).toBe(503);
    expect((await w.call('POST', WITHDRAWAL, { body: withdrawal({ accountNumber: '0123456780' }), headers: { 'idempotency-key': 'settle-2' } })).status).toBe(201);
    expect(check(await report(w), 'retry-reuses-reference').status).toBe('not_exercised');

    // An FX trade has no retry to judge, even sent with an Idempotency-Key the FX interface does not read.
    const f = await createTestApp();
    await bind(f, { name: 'fail-first', faults: [{ route: { method: 'POST', path: '/api/v1/partners/fx/trades' }, sequence: [{ kind: 'error', status: 503 }, 'pass'] }] });
    expect((await fx(f, 'POST', '/trades', { xml: instruction(), headers: { 'idempotency-key': 'trade-1' } })).status).toBe(503);
    expect((await fx(f, 'POST', '/trades', { xml: instruction(), headers: { 'idempotency-key': 'trade-2' } })).status).toBe(201);
    expect(check(await report(f), 'retry-reuses-reference').status).toBe('not_exercised');
    expect(check(await report(f), 'handles-5xx').status).toBe('passed');
  });
});

describe('polling-moderate and the keys apart', () => {
  it('counts only the reads made while a webhook is set', async () => {
    const t = await createTestApp();
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('poll-1') })).status).toBe(201);
    // A polling integration, before any webhook is set: reading back is how it learns the state.
    for (let i = 0; i < 61; i++) expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    expect(check(await report(t), 'polling-moderate').status).toBe('not_exercised');
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    expect(check(await report(t), 'polling-moderate')).toMatchObject({ status: 'not_exercised', detail: 'No resource was read.' });
    for (let i = 0; i < 60; i++) expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    expect(check(await report(t), 'polling-moderate').status).toBe('passed');
    // Removed, then set again: the reads meanwhile do not count either.
    expect((await t.call('DELETE', '/_sandbox/webhooks')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    expect(check(await report(t), 'polling-moderate').status).toBe('passed');
  });

  it('counts the reads of any 60 s, wherever a minute begins: 61 reads within 21 s fail, though 61 s after the first read', async () => {
    const t = await createTestApp();
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('poll-1') })).status).toBe(201);
    const reads = async (n: number) => {
      for (let i = 0; i < n; i++) expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    };
    await reads(1);
    await advance(t, 40);
    await reads(35);
    // 61 s after the first read, in the minute a fixed window would begin there: 60 reads within 21 s
    // pass, the 61st fails.
    await advance(t, 21);
    await reads(25);
    expect(check(await report(t), 'polling-moderate').status).toBe('passed');
    await reads(1);
    const c = check(await report(t), 'polling-moderate');
    expect(c.status).toBe('failed');
    expect(c.detail).toBe('A resource was read more than 60 times within 60 s while a webhook was set: rely on the webhook, and poll with backoff at most.');
    expect(c.evidence.at(-1)).toMatchObject({ method: 'GET', path: `${PAYOUTS}/poll-1`, sent: 200, note: 'read 61 times within 21 s' });

    // 60 reads, then 60 more a minute later: never more than 60 within 60 s.
    const u = await createTestApp();
    expect((await u.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    expect((await u.call('POST', PAYOUTS, { body: payoutRequest('poll-2') })).status).toBe(201);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 60; i++) expect((await u.call('GET', `${PAYOUTS}/poll-2`)).status).toBe(200);
      await advance(u, 60);
    }
    expect(check(await report(u), 'polling-moderate').status).toBe('passed');
  });

  it('keeps the polling verdict of the reads made while a webhook was set after it is removed', async () => {
    const t = await createTestApp();
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('poll-1') })).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    expect((await t.call('DELETE', '/_sandbox/webhooks')).status).toBe(200);
    expect(check(await report(t), 'polling-moderate')).toMatchObject({ status: 'passed', detail: 'With a webhook set, no resource was read more than 60 times within any 60 s.' });
    // Hammered while set, then removed: the failure stands, and reads after it still do not count.
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    for (let i = 0; i < 61; i++) expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    expect((await t.call('DELETE', '/_sandbox/webhooks')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    const c = check(await report(t), 'polling-moderate');
    expect(c.status).toBe('failed');
    expect(c.evidence.at(-1)).toMatchObject({ path: `${PAYOUTS}/poll-1`, note: 'read 61 times within 0 s' });
  });

  it('starts afresh after a reset what waited for the next request: the reads counted, a failed create, a Retry-After', async () => {
    const t = await createTestApp();
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    // Two tests of a suite, each with its own order-1, read 40 times: no resource was read 80 times.
    for (let run = 0; run < 2; run++) {
      expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
      expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-1') })).status).toBe(201);
      for (let i = 0; i < 40; i++) expect((await t.call('GET', `${PAYOUTS}/order-1`)).status).toBe(200);
    }
    expect(check(await report(t), 'polling-moderate').status).toBe('passed');
    // A test that met a failed create and a 429, then a reset: the next test's own creates retry nothing.
    const both = {
      name: 'both',
      faults: [
        { route: { method: 'POST', path: PAYOUTS }, sequence: [{ kind: 'error', status: 500 }] },
        { route: { method: 'GET', path: `${PAYOUTS}/{reference}` }, sequence: [{ kind: 'error', status: 429, retryAfter: 30 }] },
      ],
    };
    await bind(t, both);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-2', 5000) })).status).toBe(500);
    expect((await t.call('GET', `${PAYOUTS}/order-9`)).status).toBe(429);
    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect((await t.call('DELETE', '/_sandbox/scenario')).status).toBe(200);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-3', 5000) })).status).toBe(201);
    expect((await t.call('GET', `${PAYOUTS}/order-9`)).status).toBe(404);
    const r = await report(t);
    expect(check(r, 'retry-reuses-reference').status).toBe('not_exercised');
    expect(check(r, 'retry-after-honoured').status).toBe('not_exercised');
    // The verdicts made before the reset stay.
    expect([check(r, 'handles-5xx').status, check(r, 'handles-429').status]).toEqual(['passed', 'passed']);
    expect(check(r, 'retry-after-honoured').status).toBe('not_exercised');
  });

  it('counts the reads of a withdrawal read back in either letter case as reads of one resource', async () => {
    const t = await createTestApp();
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    const made = await t.call('POST', WITHDRAWAL, { body: withdrawal(), headers: { 'idempotency-key': 'wd-poll-1' } });
    expect(made.status).toBe(201);
    const reference = made.body.reference as string;
    for (let i = 0; i < 60; i++) {
      const written = i % 2 ? reference.toLowerCase() : reference;
      expect((await t.call('GET', `${WITHDRAWAL}/${written}`)).status).toBe(200);
    }
    expect(check(await report(t), 'polling-moderate').status).toBe('passed');
    expect((await t.call('GET', `${WITHDRAWAL}/${reference.toLowerCase()}`)).status).toBe(200);
    const c = check(await report(t), 'polling-moderate');
    expect(c.status).toBe('failed');
    expect(c.evidence.at(-1)).toMatchObject({ path: `${WITHDRAWAL}/${reference.toLowerCase()}`, note: 'read 61 times within 0 s' });
  });

  it('passes at 60 reads of a resource within a minute while a webhook is set, fails at the 61st, and judges each key apart', async () => {
    const t = await createTestApp();
    const OTHER = 'sk_test_other_key_of_the_same_partner';
    expect((await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    expect((await t.call('PUT', '/_sandbox/webhooks', { key: OTHER, body: { url: 'https://example.com/hooks' } })).status).toBe(200);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('poll-1') })).status).toBe(201);
    expect(check(await report(t), 'polling-moderate')).toMatchObject({ status: 'not_exercised', detail: 'No resource was read.' });
    for (let i = 0; i < 60; i++) expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    // DELETE /_sandbox/report forgets the reads, not that a webhook is set.
    expect(check((await t.call('DELETE', '/_sandbox/report')).body, 'polling-moderate').status).toBe('not_exercised');
    for (let i = 0; i < 60; i++) expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    expect(check(await report(t), 'polling-moderate')).toMatchObject({ status: 'passed', detail: 'With a webhook set, no resource was read more than 60 times within any 60 s.' });
    expect((await t.call('GET', `${PAYOUTS}/poll-1`)).status).toBe(200);
    const c = check(await report(t), 'polling-moderate');
    expect(c.status).toBe('failed');
    expect(c.evidence.at(-1)).toMatchObject({ method: 'GET', path: `${PAYOUTS}/poll-1`, sent: 200, note: 'read 61 times within 0 s' });
    // Another key's report knows nothing of it; a failed create of this key leaves the other alone too.
    await bind(t, failFirstPayout);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-1', 5000) })).status).toBe(500);
    expect((await t.call('POST', PAYOUTS, { body: payoutRequest('order-2', 5000) })).status).toBe(201);
    expect(check(await report(t), 'retry-reuses-reference').status).toBe('failed');
    expect((await t.call('POST', PAYOUTS, { key: OTHER, body: payoutRequest('order-3', 5000) })).status).toBe(201);
    const other = await report(t, OTHER);
    expect(other.checks.filter((x) => x.status !== 'not_exercised').map((x) => x.id)).toEqual(['key-format']);
  });
});

describe('the fault checks and the three forms of their evidence', () => {
  it('passes handles-malformed and handles-drop once met, fails handles-5xx on hammering, and says the same evidence in JSON, Markdown and JUnit', async () => {
    const t = await createTestApp({ sleep: async () => undefined });
    const faults = [{ kind: 'malformed', form: 'truncated' }, { kind: 'drop' }];
    await bind(t, { name: 'faults', faults: [{ route: { method: 'POST', path: PAYOUTS }, sequence: faults }] });
    expect(check(await report(t), 'handles-malformed').status).toBe('not_exercised');
    await t.call('POST', PAYOUTS, { body: payoutRequest('m-1'), unchecked: true }).catch(() => undefined);
    await t.call('POST', PAYOUTS, { body: payoutRequest('m-2'), unchecked: true }).catch(() => undefined);
    let r = await report(t);
    expect(check(r, 'handles-malformed')).toMatchObject({ status: 'passed', detail: 'Met a malformed answer, and did not hammer the same request after it.' });
    expect(check(r, 'handles-malformed').evidence).toEqual([expect.objectContaining({ method: 'POST', path: PAYOUTS, sent: 201 })]);
    expect(check(r, 'handles-drop').evidence).toEqual([expect.objectContaining({ method: 'POST', path: PAYOUTS, sent: 'dropped' })]);
    // Another payment's 503 resent unchanged four times within a second: hammering.
    await bind(t, { name: 'down', faults: [{ route: { method: 'POST', path: PAYOUTS }, fault: { kind: 'error', status: 503 } }] });
    for (let i = 0; i < 4; i++) expect((await t.call('POST', PAYOUTS, { body: payoutRequest('h-1', 777) })).status).toBe(503);
    r = await report(t);
    const c = check(r, 'handles-5xx');
    expect(c.status).toBe('failed');
    expect(c.evidence.at(-1)).toMatchObject({ method: 'POST', path: PAYOUTS, sent: 503, note: 'resent unchanged 3 times, less than 1 s apart, after the fault' });
    // Each evidence line, as the JSON gives it, is in the Markdown and in the JUnit failure.
    const line = (e: Check['evidence'][number] & { at?: string }) => `${e.id} ${e.at} ${e.method} ${e.path} → ${e.sent}${e.reference ? ` (reference ${e.reference})` : ''}${e.note ? `: ${e.note}` : ''}`;
    const md = (await t.call('GET', '/_sandbox/report?format=markdown')).text;
    const junit = (await t.call('GET', '/_sandbox/report?format=junit')).text;
    const section = md.slice(md.indexOf('### handles-5xx'));
    const failure = /<testcase classname="readiness" name="handles-5xx" time="0">\n {4}<failure [^>]*>([^<]*)<\/failure>/.exec(junit)![1];
    expect(c.evidence.length).toBeGreaterThan(1);
    for (const e of c.evidence) {
      expect(section).toContain(`- ${line(e)}`);
      expect(failure).toContain(line(e));
    }
    expect(junit).toContain('<testsuite name="payments-sandbox readiness" tests="20" failures="1"');
  });
});
