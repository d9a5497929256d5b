// Rules that can never match are refused and rules never reached are reported, both by PUT
// /_sandbox/scenario and by `payments-sandbox validate`; GET /_sandbox/scenario counts firings.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { scenarioFormatOf } from '../../src/app.js';
import { validateScenarioFile } from '../../src/engine/scenario/scenario.load.js';
import { advance, createTestApp, type TestApp } from '../support/app.js';
import { payout, PAYOUTS, useScenario } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});

const put = (scenario: unknown) => t.call('PUT', '/_sandbox/scenario', { body: { scenario } });
const refused = async (scenario: unknown) => {
  const res = await put(scenario);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('INVALID_SCENARIO');
  return res.body.error.details.map((d: { field: string; issue: string }) => `${d.field}: ${d.issue}`);
};

describe('impossible rules are refused', () => {
  it('an unknown currency, with the nearest one', async () => {
    expect(await refused({ payout: { outcomes: [{ when: { currency: 'NGNN' }, status: 'FAILED' }] } })).toEqual([
      "scenario.payout.outcomes[0].when.currency: 'NGNN' is not a currency of a payout: did you mean 'NGN'?",
    ]);
  });

  it('an unknown chain, and a chain on a resource that has none', async () => {
    expect(await refused({ wallet_payout: { outcomes: [{ when: { chain: 'solana' }, status: 'FAILED' }] } })).toEqual([
      "scenario.wallet_payout.outcomes[0].when.chain: 'solana' is not a chain of a wallet_payout: use one of: ethereum, polygon, base, arbitrum, optimism",
    ]);
    expect(await refused({ payout: { outcomes: [{ when: { chain: 'base' }, status: 'FAILED' }] } })).toEqual([
      'scenario.payout.outcomes[0].when.chain: can never match: a payout has no chain',
    ]);
  });

  it('a field path in the wrong case', async () => {
    expect(await refused({ payout: { outcomes: [{ when: { fields: { 'destination.bankcode': '^058$' } }, status: 'FAILED' }] } })).toEqual([
      "scenario.payout.outcomes[0].when.fields.destination.bankcode: is not a field of a payout (names are case-sensitive): did you mean 'destination.bankCode'?",
    ]);
  });

  it("a withdrawal reference rule, since the sandbox draws a withdrawal's reference", async () => {
    const [problem] = await refused({ withdrawal: { outcomes: [{ when: { reference: '^TRF-' }, status: 'FAILED' }] } });
    expect(problem).toMatch(/^scenario\.withdrawal\.outcomes\[0\]\.when\.reference: can never be steered/);
  });

  it('a reason on a successful outcome', async () => {
    expect(await refused({ payout: { outcomes: [{ status: 'SUCCESSFUL', reason: 'ok' }] } })).toEqual([
      'scenario.payout.outcomes[0].reason: a reason applies only to a failing outcome: SUCCESSFUL has none; remove reason or use another status',
    ]);
  });

  it('a fault route that matches no route of the API, or not with that method', async () => {
    expect(await refused({ faults: [{ route: { path: '/api/v1/payouts' }, fault: { kind: 'drop' } }] })).toEqual([
      "scenario.faults[0].route.path: matches no route of the API: did you mean '/api/v1/partners/payouts'? (see /openapi.json for the paths)",
    ]);
    expect(await refused({ faults: [{ route: { method: 'DELETE', path: '/api/v1/partners/payouts' }, fault: { kind: 'drop' } }] })).toEqual([
      'scenario.faults[0].route.method: matches no route of the API on this path, which takes POST',
    ]);
    // A parameter of the route stands for any segment the pattern names.
    expect((await put({ faults: [{ route: { method: 'GET', path: '/api/v1/partners/payouts/fail-*' }, fault: { kind: 'drop' } }] })).status).toBe(200);
  });

  it('misspelt states and fields, with what was meant', async () => {
    expect(await refused({ payout: { outcomes: [{ status: 'FAILD' }] } })).toEqual([
      'scenario.payout.outcomes[0].status: expected one of "SUCCESSFUL", "FAILED": did you mean "FAILED"?',
    ]);
    expect(await refused({ payout: { timming: { PENDING: 1 } } })).toEqual(["scenario.payout.timming: is not a field here: did you mean 'timing'?"]);
  });

  it('the same checks in payments-sandbox validate, which also prints the warnings', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'lint-'));
    const bad = path.join(dir, 'bad.yaml');
    await writeFile(bad, 'payout:\n  outcomes:\n    - when: { currency: NGNN }\n      status: FAILED\n');
    const res = validateScenarioFile(bad, scenarioFormatOf());
    expect(res.code).toBe(1);
    expect(res.message).toContain("payout.outcomes[0].when.currency: 'NGNN' is not a currency of a payout: did you mean 'NGN'?");
    const shadowed = path.join(dir, 'shadowed.yaml');
    await writeFile(shadowed, 'payout:\n  outcomes:\n    - status: FAILED\n    - when: { currency: NGN }\n      status: FAILED\n');
    expect(validateScenarioFile(shadowed, scenarioFormatOf())).toEqual({
      code: 0,
      message: `OK ${shadowed}: scenario 'shadowed' (1 warning)\n  warning: payout.outcomes[1]: is never reached: rule [0] before it matches every payout`,
    });
  });
});

describe('unreachable rules are bound with a warning', () => {
  it('outcome and fault rules after a catch-all', async () => {
    const res = await put({
      payout: { outcomes: [{ status: 'FAILED', reason: 'all' }, { when: { currency: 'NGN' }, status: 'FAILED' }] },
      faults: [{ fault: { kind: 'error', status: 503 } }, { route: { path: '/api/v1/partners/payouts' }, fault: { kind: 'drop' } }],
    });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([
      { path: 'payout.outcomes[1]', message: 'is never reached: rule [0] before it matches every payout' },
      { path: 'faults[1]', message: 'is never reached: rule [0] before it strikes every request' },
    ]);
    expect((await useScenario(t, { name: 'failures' })).warnings).toEqual([]);
  });
});

describe('GET /_sandbox/scenario counts firings per rule', () => {
  it('counts outcome rules that decided a resource and fault rules that struck', async () => {
    await useScenario(t, {
      scenario: {
        payout: { outcomes: [{ when: { reference: '^fail-' }, status: 'FAILED' }, { when: { currency: 'GHS' }, status: 'FAILED' }] },
        faults: [{ route: { method: 'GET', path: '/api/v1/partners/payouts/{reference}' }, nth: 2, fault: { kind: 'error', status: 503 } }],
      },
    });
    for (const ref of ['fail-1', 'fail-2', 'ok-1']) expect((await t.call('POST', PAYOUTS, { body: payout(ref) })).status).toBe(201);
    await advance(t, 1);
    const reads = [];
    for (const ref of ['fail-1', 'fail-2', 'ok-1']) reads.push((await t.call('GET', `${PAYOUTS}/${ref}`)).status);
    expect(reads).toEqual([200, 503, 200]);
    const res = await t.call('GET', '/_sandbox/scenario');
    expect(res.body.fired).toEqual({ faults: [1], outcomes: { payout: [2, 0] } });
    // Binding again starts the counts afresh.
    await useScenario(t, { name: 'failures' });
    expect((await t.call('GET', '/_sandbox/scenario')).body.fired.outcomes.payout).toEqual([0]);
  });
});

describe('PUT /_sandbox/scenario in YAML', () => {
  it('binds a YAML document sent as application/yaml, and names what is wrong in a bad one', async () => {
    const yaml = 'name: yaml-fail\npayout:\n  outcomes:\n    - when: { reference: "^fail-" }\n      status: FAILED\n      reason: From YAML\n';
    const res = await t.call('PUT', '/_sandbox/scenario', { raw: yaml, headers: { 'content-type': 'application/yaml' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'yaml-fail', origin: 'inline', warnings: [] });
    expect((await t.call('POST', PAYOUTS, { body: payout('fail-y') })).status).toBe(201);
    await advance(t, 600);
    expect((await t.call('GET', `${PAYOUTS}/fail-y`)).body.data).toMatchObject({ status: 'FAILED', failureReason: 'From YAML' });
    const bad = await t.call('PUT', '/_sandbox/scenario', { raw: 'payout: [unclosed', headers: { 'content-type': 'application/yaml' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('body');
    const text = await t.call('PUT', '/_sandbox/scenario', { raw: 'name: x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
  });
});
