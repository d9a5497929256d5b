import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseCli } from '../../src/cli.js';
import { ScenarioError } from '../../src/engine/scenario/scenario.load.js';
import { bundledDir } from '../../src/engine/scenario/scenario.registry.js';
import { createTestApp } from '../support/app.js';
import { domains } from '../../src/domains/index.js';
import { checkScenario, describeScenarioFormat, loadBundled, loadRegistry, parseScenario, validateScenarioFile } from '../support/scenarios.js';

function problems(input: unknown): string[] {
  try {
    checkScenario(input, 'test.yaml');
  } catch (err) {
    if (err instanceof ScenarioError) return err.issues.map((i) => `${i.path}: ${i.message}`);
    throw err;
  }
  return [];
}

async function tempFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'scenario-'));
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

describe('the scenario schema', () => {
  it('accepts every bundled file, each with a description', () => {
    const bundled = loadBundled();
    expect([...bundled.keys()].sort()).toEqual(
      ['default', 'failures', 'flaky-network', 'instant', 'rate-limited', 'short-ttl', 'slow-settlement', 'two-factor'],
    );
    for (const s of bundled.values()) {
      expect(s.description, s.name).toMatch(/\w.{60,}/);
      expect(s.origin).toBe('bundled');
    }
  });

  it('accepts a document using every part of the format, in YAML and in JSON', () => {
    const doc = {
      name: 'everything',
      description: 'All parts',
      payout: {
        timing: { PENDING: 1, PROCESSING: 2, '*': 3 },
        outcomes: [
          { when: { amount: { min: 100, max: 200 }, currency: ['NGN', 'GHS'], reference: '^fail-', accountNumber: '^000', fields: { 'destination.bankCode': '^058$' } }, status: 'FAILED', reason: 'Closed' },
          { nth: [2, 4], status: 'FAILED' },
          { every: 3, status: 'SUCCESSFUL' },
        ],
      },
      wallet_payout: { outcomes: [{ when: { chain: 'base', token: 'usdc' }, status: 'FAILED' }] },
      withdrawal: { timing: { PROCESSING: 5 }, authCode: { required: true, codes: ['123456'], pattern: '^\\d{6}$' } },
      transfer: { outcomes: [{ status: 'FAILED', reason: 'No' }] },
      quote: { ttl: 5, timing: { awaiting_payment: 10 }, outcomes: [{ status: 'expired' }] },
      fx_trade: { ttl: 5 },
      webhooks: { duplicate: true, outOfOrder: false, delaySeconds: 30 },
      faults: [
        { route: { method: 'POST', path: '/api/v1/partners/payouts' }, probability: 0.5, fault: { kind: 'error', status: 503, retryAfter: 2 } },
        { route: { method: ['GET', 'PUT'], path: '/api/**' }, nth: 3, fault: { kind: 'latency', ms: { min: 1, max: 5 } } },
        { every: 2, fault: { kind: 'timeout', holdMs: 1000, processed: true } },
        { rate: { limit: 10, perSeconds: 60 }, fault: { kind: 'error', status: 429 } },
        { sequence: [{ kind: 'drop' }, 'pass', { kind: 'malformed' }], repeat: true },
      ],
    };
    expect(checkScenario(doc, 'x.json')).toEqual(doc);
    expect(parseScenario(JSON.stringify(doc), 'x.json')).toEqual(doc);
    expect(parseScenario('quote:\n  ttl: 5\n', 'x.yaml')).toEqual({ quote: { ttl: 5 } });
    expect(parseScenario('', 'empty.yaml')).toEqual({});
  });

  it('refuses a bad document, naming each path and what was expected', () => {
    expect(problems({ payout: { timing: { PENDING: -1, DONE: 3 } } })).toEqual([
      'payout.timing.PENDING: must be at least 0',
      'payout.timing.DONE: is not a field here: remove it',
    ]);
    expect(problems({ payout: { outcomes: [{ status: 'COMPLETED' }] } })).toEqual([
      'payout.outcomes[0].status: expected one of "SUCCESSFUL", "FAILED"',
    ]);
    expect(problems({ quote: { ttl: 'soon' }, fx_trade: { ttl: 0 } })).toEqual([
      'quote.ttl: expected number, received string',
      'fx_trade.ttl: must be at least 1',
    ]);
    expect(problems({ payouts: {} })).toEqual(["payouts: is not a field here: did you mean 'payout'?"]);
    expect(problems({ payout: { outcomes: [{ when: { reference: '([' }, status: 'FAILED' }] } })).toEqual([
      'payout.outcomes[0].when.reference: must be a regular expression in RE2 syntax (missing closing ]: [)',
    ]);
    expect(problems({ payout: { outcomes: [{ when: { accountNumber: '(\\d)\\1' }, status: 'FAILED' }] } })).toEqual([
      'payout.outcomes[0].when.accountNumber: must be a regular expression in RE2 syntax (invalid escape sequence: \\1); backreferences (\\1, \\k<name>) are not supported: write the repeated text out',
    ]);
    expect(problems({ payout: { outcomes: [{ nth: 2, every: 3, status: 'FAILED' }] } })).toEqual([
      'payout.outcomes[0].every: give at most one of nth and every',
    ]);
    expect(problems({ withdrawal: { authCode: {} } })).toEqual(['withdrawal.authCode.required: is required (expected boolean)']);
    expect(problems({ name: 'Has Spaces' })).toEqual(['name: must be lower case letters, digits and dashes, at most 60']);
  });

  it('refuses bad fault rules with the path and the expected values', () => {
    expect(problems({ faults: [{ fault: { kind: 'explode' } }] })).toEqual([
      'faults[0].fault.kind: expected kind to be one of error, latency, timeout, drop, malformed, drift',
    ]);
    expect(problems({ faults: [{ fault: { kind: 'error', status: 404 } }] })).toEqual([
      'faults[0].fault.code: status 404 needs a code: one of ROUTE_NOT_FOUND, RESOURCE_NOT_FOUND, ACCOUNT_NOT_FOUND',
    ]);
    const notApi = 'must begin with /api/, since faults apply to /api requests only (for example /api/v1/partners/payouts or /api/**)';
    for (const path of ['api', '/v1/partners/banks', '/_sandbox/**', '/api']) {
      expect(problems({ faults: [{ route: { path }, fault: { kind: 'drop' } }] }), path).toEqual([`faults[0].route.path: ${notApi}`]);
    }
    expect(problems({ faults: [{ probability: 1.5, fault: { kind: 'malformed' } }] })).toEqual(['faults[0].probability: must be at most 1']);
    expect(problems({ faults: [{ probability: 0.5, nth: 2, fault: { kind: 'malformed' } }] })).toEqual([
      'faults[0].nth: give at most one of probability, nth, every or rate (found probability and nth)',
    ]);
    expect(problems({ faults: [{ probability: 0.5 }] })).toEqual(['faults[0].fault: give exactly one of fault or sequence']);
    expect(problems({ faults: [{ fault: { kind: 'latency', ms: { min: 800, max: 200 } } }] })).toEqual(['faults[0].fault.ms: min must not exceed max']);
  });

  it('reports what is wrong with the branch of an either/or field the input meant', () => {
    expect(problems({ faults: [{ sequence: [{ kind: 'error', status: 418 }, 'pas', { kind: 'explode' }] }] })).toEqual([
      'faults[0].sequence[0].status: no error of the API is answered with 418: give a code (its status follows), or 429, 500, 502, 503 or 504',
      'faults[0].sequence[1]: expected one of "pass"',
      'faults[0].sequence[2].kind: expected kind to be one of error, latency, timeout, drop, malformed, drift',
    ]);
    expect(problems({ payout: { outcomes: [{ nth: [1.5, 0], status: 'FAILED' }] } })).toEqual([
      'payout.outcomes[0].nth[0]: must be a whole number',
      'payout.outcomes[0].nth[1]: must be at least 1',
    ]);
    expect(problems({ payout: { outcomes: [{ nth: 'two', status: 'FAILED' }] } })).toEqual([
      'payout.outcomes[0].nth: expected number or array, received string',
    ]);
    expect(problems({ faults: [{ nth: [2.5], fault: { kind: 'latency', ms: { min: 1 } } }] })).toEqual([
      'faults[0].fault.ms.max: is required (expected number)',
      'faults[0].nth[0]: must be a whole number',
    ]);
    expect(problems({ payout: { outcomes: [{ when: { currency: ['NGN', ''] }, status: 'FAILED' }] } })).toEqual([
      'payout.outcomes[0].when.currency[1]: must not be empty',
    ]);
  });

  it('refuses __proto__ keys in a file, which parsing would drop', () => {
    const yaml = '__proto__: { x: 1 }\npayout:\n  outcomes:\n    - when: { fields: { __proto__: x } }\n      status: FAILED\n';
    expect(() => parseScenario(yaml, 'p.yaml')).toThrow(ScenarioError);
    expect(problems(parseYaml(yaml))).toEqual([
      ": must not have a field named '__proto__'",
      "payout.outcomes[0].when.fields: must not have a field named '__proto__'",
    ]);
    expect(problems(JSON.parse('{"webhooks":{"__proto__":{"duplicate":true}}}'))).toEqual(["webhooks: must not have a field named '__proto__'"]);
  });

  it('names the file in errors, for YAML syntax and for content', async () => {
    const syntax = await tempFile('broken.yaml', 'payout: [\n');
    expect(() => loadRegistry(syntax)).toThrow(/^scenario .*broken\.yaml refused: not valid YAML: /);
    const content = await tempFile('wrong.json', '{"quote": {"ttl": -5}}');
    expect(() => loadRegistry(content)).toThrow(`scenario ${content} refused: at quote.ttl: must be at least 1`);
    expect(() => loadRegistry('nope')).toThrow(/scenario nope refused: no bundled scenario has this name \(default, failures, .*\) and no such file exists/);
  });

  it('loads a start default from a file, named by its name field or else its file name', async () => {
    const file = await tempFile('my-team.yaml', 'description: ours\nquote:\n  ttl: 42\n');
    const reg = loadRegistry(file);
    expect(reg.startDefault).toMatchObject({ name: 'my-team', origin: 'file', file, description: 'ours' });
    expect(reg.get('failures')?.origin).toBe('bundled');
    expect(loadRegistry('short-ttl').startDefault.name).toBe('short-ttl');
    expect(bundledDir()).toMatch(/scenarios[\\/]$/);
  });
});

describe('payments-sandbox validate FILE', () => {
  it('parses the command', () => {
    expect(parseCli(['validate', 'a.yaml'], {})).toEqual({ name: 'validate', file: 'a.yaml' });
    expect(() => parseCli(['validate'], {})).toThrow(/validate takes one scenario file/);
  });

  it('answers one OK line and 0 for a good file, the problems and 1 for a bad one', async () => {
    const good = path.join(bundledDir(), 'failures.yaml');
    expect(validateScenarioFile(good)).toEqual({ code: 0, message: `OK ${good}: scenario 'failures'` });
    const bad = await tempFile('bad.yaml', 'payout:\n  outcomes:\n    - status: LOST\n');
    expect(validateScenarioFile(bad)).toEqual({
      code: 1,
      message: `${bad} is not a valid scenario:\n  payout.outcomes[0].status: expected one of "SUCCESSFUL", "FAILED"`,
    });
    expect(validateScenarioFile('/no/such.yaml')).toEqual({ code: 1, message: '/no/such.yaml is not a valid scenario:\n  (document): cannot be read (ENOENT)' });
  });

  it('refuses a file whose base name is not a scenario name, unless the document sets name', async () => {
    const file = await tempFile('My_Team.yaml', 'quote:\n  ttl: 5\n');
    expect(validateScenarioFile(file)).toEqual({
      code: 1,
      message: `${file} is not a valid scenario:\n  (document): the file name 'My_Team' is not a scenario name (lower case letters, digits and dashes, at most 60): rename the file or set name`,
    });
    const named = await tempFile('My_Team.yaml', 'name: my-team\nquote:\n  ttl: 5\n');
    expect(validateScenarioFile(named)).toEqual({ code: 0, message: `OK ${named}: scenario 'my-team'` });
  });
});

describe('GET /_sandbox/scenario.schema.json', () => {
  it('publishes the schema as JSON Schema without a key', async () => {
    const t = await createTestApp();
    const res = await t.call('GET', '/_sandbox/scenario.schema.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false });
    expect(res.body.properties.payout.properties.outcomes.items.properties.status.enum).toEqual(['SUCCESSFUL', 'FAILED']);
  });
});

// The bundled files, default.yaml's defaults and the published sections, from the domain list.
describeScenarioFormat('the scenario format of the domain list', domains);
