// Choosing a scenario: start default, tenant (PUT/GET/DELETE), header; their precedence; and that a
// change applies from the next request, to one tenant only.
import { beforeEach, describe, expect, it } from 'vitest';
import { advance, createTestApp, KEY, KEY_B, type TestApp } from '../support/app.js';
import { payout, PAYOUTS, status, useScenario } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const settle = async (key = KEY) => advance(t, 3600, key);

describe('GET /_sandbox/scenarios', () => {
  it('lists the bundled scenarios with descriptions and marks the start default', async () => {
    const res = await t.call('GET', '/_sandbox/scenarios');
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { name: string }) => s.name)).toEqual([
      'default', 'failures', 'flaky-network', 'instant', 'rate-limited', 'short-ttl', 'slow-settlement', 'two-factor',
    ]);
    const failures = res.body.data.find((s: { name: string }) => s.name === 'failures');
    expect(failures).toMatchObject({ origin: 'bundled', startDefault: false });
    expect(failures.description).toMatch(/^Everything that can fail does\./);
    expect(res.body.data.find((s: { name: string }) => s.name === 'default').startDefault).toBe(true);
  });
});

describe('the tenant scenario', () => {
  it('starts as the start default and says so', async () => {
    const res = await t.call('GET', '/_sandbox/scenario');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'default', source: 'start', origin: 'bundled', file: null });
    expect(res.body.document.payout).toEqual({ timing: { PENDING: 30, PROCESSING: 270 } });
  });

  it('PUT by name applies from the next request without a restart, and only to that key', async () => {
    const put = await t.call('PUT', '/_sandbox/scenario', { body: { name: 'failures' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'failures', source: 'tenant', origin: 'bundled' });
    expect((await t.call('GET', '/_sandbox/scenario')).body).toMatchObject({ name: 'failures', source: 'tenant' });
    expect((await t.call('GET', '/_sandbox/scenario', { key: KEY_B })).body).toMatchObject({ name: 'default', source: 'start' });

    expect((await t.call('POST', PAYOUTS, { body: payout('a-1') })).status).toBe(201);
    expect((await t.call('POST', PAYOUTS, { key: KEY_B, body: payout('b-1') })).status).toBe(201);
    await settle(KEY);
    await settle(KEY_B);
    const a = await t.call('GET', `${PAYOUTS}/a-1`);
    expect(a.body.data).toMatchObject({ status: 'FAILED', failureReason: 'Beneficiary bank declined the transfer' });
    expect(await status(t, 'b-1', KEY_B)).toBe('SUCCESSFUL');
  });

  it('PUT inline binds a document of the tenant’s own', async () => {
    const scenario = { name: 'big-fail', description: 'Large payouts fail', payout: { outcomes: [{ when: { amount: { min: 50000 } }, status: 'FAILED', reason: 'Over the limit' }] } };
    const put = await t.call('PUT', '/_sandbox/scenario', { body: { scenario } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      name: 'big-fail',
      description: 'Large payouts fail',
      source: 'tenant',
      origin: 'inline',
      file: null,
      document: scenario,
      fired: { faults: [], outcomes: { payout: [0] } },
      warnings: [],
    });
    await t.call('POST', PAYOUTS, { body: payout('small', { amount: 49999.99 }) });
    await t.call('POST', PAYOUTS, { body: payout('large', { amount: 50000 }) });
    await settle();
    expect(await status(t, 'small')).toBe('SUCCESSFUL');
    expect((await t.call('GET', `${PAYOUTS}/large`)).body.data).toMatchObject({ status: 'FAILED', failureReason: 'Over the limit' });
    const unnamed = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { quote: { ttl: 9 } } } });
    expect(unnamed.body).toMatchObject({ name: 'inline', description: null, origin: 'inline' });
  });

  it('refuses a bad inline document with 400 INVALID_SCENARIO naming the path, and keeps the old one', async () => {
    await useScenario(t, { name: 'instant' });
    const res = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { payout: { timing: { PENDING: 'soon' } }, faults: [{ fault: { kind: 'error', status: 418 } }] } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'error',
      message: 'The scenario is not valid: scenario.payout.timing.PENDING expected number, received string. See /_sandbox/scenario.schema.json for the format.',
      error: {
        type: 'invalid_request_error',
        code: 'INVALID_SCENARIO',
        details: [
          { field: 'scenario.payout.timing.PENDING', issue: 'expected number, received string' },
          { field: 'scenario.faults[0].fault.status', issue: 'no error of the API is answered with 418: give a code (its status follows), or 429, 500, 502, 503 or 504' },
        ],
      },
    });
    expect((await t.call('GET', '/_sandbox/scenario')).body.name).toBe('instant');
  });

  it('names what is wrong inside an either/or field, not its first alternative', async () => {
    const res = await t.call('PUT', '/_sandbox/scenario', {
      body: { scenario: { faults: [{ sequence: [{ kind: 'error', status: 418 }] }], payout: { outcomes: [{ nth: [1.5], status: 'FAILED' }] } } },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'The scenario is not valid: scenario.payout.outcomes[0].nth[0] must be a whole number. See /_sandbox/scenario.schema.json for the format.',
    );
    expect(res.body.error.details).toEqual([
      { field: 'scenario.payout.outcomes[0].nth[0]', issue: 'must be a whole number' },
      { field: 'scenario.faults[0].sequence[0].status', issue: 'no error of the API is answered with 418: give a code (its status follows), or 429, 500, 502, 503 or 504' },
    ]);
  });

  it('refuses an unknown name, and a body with both or neither of name and scenario', async () => {
    const unknown = await t.call('PUT', '/_sandbox/scenario', { body: { name: 'chaos' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'INVALID_SCENARIO', details: [{ field: 'name', issue: expect.stringMatching(/^must be one of: default, failures, /) }] });
    expect(unknown.body.message).toMatch(/^No scenario named 'chaos'\. Use one of: default, failures, flaky-network, /);
    for (const body of [{}, { name: 'instant', scenario: {} }]) {
      const res = await t.call('PUT', '/_sandbox/scenario', { body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Send exactly one of name (a bundled scenario) or scenario (an inline document).');
    }
  });

  it('names an unknown field of the body', async () => {
    const res = await t.call('PUT', '/_sandbox/scenario', { body: { nme: 'failures' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Unknown field 'nme'. Send exactly one of name (a bundled scenario) or scenario (an inline document).");
    expect(res.body.error).toMatchObject({ code: 'INVALID_SCENARIO', details: [{ field: 'nme', issue: 'is not a field of this request; send name or scenario' }] });
    const both = await t.call('PUT', '/_sandbox/scenario', { body: { name: 'failures', nme: 'x', scenrio: {} } });
    expect(both.body.error.details.map((d: { field: string }) => d.field)).toEqual(['nme', 'scenrio']);
    expect((await t.call('GET', '/_sandbox/scenario')).body.name).toBe('default');
  });

  it('refuses __proto__ keys, which a parsed document would drop', async () => {
    const top = await t.call('PUT', '/_sandbox/scenario', { raw: '{"scenario":{"__proto__":{"x":1}}}', headers: { 'content-type': 'application/json' } });
    expect(top.status).toBe(400);
    expect(top.body.error.details).toEqual([{ field: 'scenario', issue: "must not have a field named '__proto__'" }]);
    const fields = await t.call('PUT', '/_sandbox/scenario', {
      raw: '{"scenario":{"payout":{"outcomes":[{"when":{"fields":{"__proto__":"x"}},"status":"FAILED"}]}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(fields.status).toBe(400);
    expect(fields.body.error.details).toEqual([{ field: 'scenario.payout.outcomes[0].when.fields', issue: "must not have a field named '__proto__'" }]);
    expect((await t.call('GET', '/_sandbox/scenario')).body.name).toBe('default');
  });

  it('DELETE goes back to the start default', async () => {
    await useScenario(t, { name: 'failures' });
    const del = await t.call('DELETE', '/_sandbox/scenario');
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ name: 'default', source: 'start' });
    await t.call('POST', PAYOUTS, { body: payout('after-delete') });
    await settle();
    expect(await status(t, 'after-delete')).toBe('SUCCESSFUL');
  });

  it('survives a reset, which forgets data but not settings; its counters restart', async () => {
    await useScenario(t, { scenario: { name: 'first-fails', faults: [{ nth: 1, fault: { kind: 'error', status: 503 } }] } });
    expect((await t.call('GET', `${PAYOUTS}/x`)).status).toBe(503);
    expect((await t.call('GET', `${PAYOUTS}/x`)).status).toBe(404);
    expect((await t.call('POST', '/_sandbox/reset')).status).toBe(200);
    expect((await t.call('GET', '/_sandbox/scenario')).body).toMatchObject({ name: 'first-fails', source: 'tenant', origin: 'inline' });
    expect((await t.call('GET', `${PAYOUTS}/x`)).status).toBe(503);
  });
});

describe('X-Sandbox-Scenario', () => {
  it('picks a scenario for one request, and the payout keeps it for its whole lifecycle', async () => {
    const res = await t.call('POST', PAYOUTS, { body: payout('hdr-1'), headers: { 'X-Sandbox-Scenario': 'slow-settlement' } });
    expect(res.status).toBe(201);
    expect(res.body.data.estimatedCompletionAt).toBe('2026-01-15T12:30:00.000Z');
    await t.call('POST', PAYOUTS, { body: payout('plain-1') });
    await advance(t, 1799);
    expect(await status(t, 'hdr-1')).toBe('PENDING');
    expect(await status(t, 'plain-1')).toBe('SUCCESSFUL');
    await advance(t, 1);
    expect(await status(t, 'hdr-1')).toBe('PROCESSING');
    await advance(t, 10799);
    expect(await status(t, 'hdr-1')).toBe('PROCESSING');
    await advance(t, 1);
    expect(await status(t, 'hdr-1')).toBe('SUCCESSFUL');
  });

  it('answers 400 INVALID_SCENARIO for an unknown name, and creates nothing', async () => {
    const res = await t.call('POST', PAYOUTS, { body: payout('hdr-bad'), headers: { 'X-Sandbox-Scenario': 'chaos' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_SCENARIO');
    expect(res.body.error.details[0].field).toBe('X-Sandbox-Scenario');
    expect((await t.call('GET', `${PAYOUTS}/hdr-bad`)).status).toBe(404);
  });
});

describe('precedence: header, then tenant, then start default', () => {
  it('follows that order for outcomes', async () => {
    const s = await createTestApp({ config: { scenario: 'failures' } });
    const create = (ref: string, headers: Record<string, string> = {}) => s.call('POST', PAYOUTS, { body: payout(ref), headers });
    expect((await s.call('GET', '/_sandbox/scenario')).body).toMatchObject({ name: 'failures', source: 'start' });
    await create('start-default');
    await s.call('PUT', '/_sandbox/scenario', { body: { name: 'default' } });
    await create('tenant');
    await create('header', { 'X-Sandbox-Scenario': 'failures' });
    await advance(s, 3600);
    const st = async (ref: string) => (await s.call('GET', `${PAYOUTS}/${ref}`)).body.data.status;
    expect(await st('start-default')).toBe('FAILED');
    expect(await st('tenant')).toBe('SUCCESSFUL');
    expect(await st('header')).toBe('FAILED');
    // Another key still has the start default.
    await s.call('POST', PAYOUTS, { key: KEY_B, body: payout('other') });
    await advance(s, 3600, KEY_B);
    expect((await s.call('GET', `${PAYOUTS}/other`, { key: KEY_B })).body.data.status).toBe('FAILED');
  });

  it('follows that order for faults', async () => {
    await useScenario(t, { scenario: { faults: [{ fault: { kind: 'error', status: 502 } }] } });
    expect((await t.call('GET', `${PAYOUTS}/x`)).status).toBe(502);
    expect((await t.call('GET', `${PAYOUTS}/x`, { headers: { 'X-Sandbox-Scenario': 'default' } })).status).toBe(404);
    expect((await t.call('GET', `${PAYOUTS}/x`, { key: KEY_B })).status).toBe(404);
    // The control API is never faulted, so the tenant can always get out.
    expect((await t.call('DELETE', '/_sandbox/scenario')).status).toBe(200);
    expect((await t.call('GET', `${PAYOUTS}/x`)).status).toBe(404);
  });
});
