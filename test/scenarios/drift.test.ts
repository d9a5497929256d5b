// The drift fault: the request is processed as usual and only its answer departs from the API
// document, in one field found from the documented schema of that answer (JSON) or the XSD of its
// root (XML). Drifted answers do not validate against /openapi.json, so they are read unchecked and
// compared with the normal answer.
import { beforeEach, describe, expect, it } from 'vitest';
import { advance } from '../support/app.js';
import { FX, instruction, newTrade } from '../support/fx.js';
import { payout, PAYOUTS, scenarioApp, useScenario } from './support.js';

type App = Awaited<ReturnType<typeof scenarioApp>>;
let t: App;
beforeEach(async () => {
  t = await scenarioApp();
  await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
});

const drift = (form: string, route: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  scenario: { name: 'drifting', faults: [{ route, ...more, fault: { kind: 'drift', form } }] },
});
const POST_PAYOUT = { method: 'POST', path: PAYOUTS };
const GET_PAYOUT = { method: 'GET', path: `${PAYOUTS}/{reference}` };
const create = (ref: string, over: Record<string, unknown> = {}) => t.call('POST', PAYOUTS, { body: payout(ref, over), unchecked: true });
const read = (ref: string) => t.call('GET', `${PAYOUTS}/${ref}`, { unchecked: true });
const lastJournal = async () => (await t.call('GET', '/_sandbox/requests?limit=1')).body.data[0];

describe('drift on JSON answers', () => {
  it('unknown-enum: a payout create answers 201 with status ON_HOLD; the payout itself is PENDING', async () => {
    await useScenario(t, drift('unknown-enum', POST_PAYOUT));
    const created = await create('d-1');
    expect([created.status, created.headers.get('x-sandbox-fault')]).toEqual([201, 'drift unknown-enum']);
    expect(created.body.data.status).toBe('ON_HOLD');
    const after = await read('d-1');
    expect([after.status, after.headers.get('x-sandbox-fault'), after.body.data.status]).toEqual([200, null, 'PENDING']);
    // Nothing else changed: the answer is the payout as read back, with its status drifted.
    expect(created.body.data).toEqual({ ...after.body.data, status: 'ON_HOLD' });
    expect(created.text).toBe(JSON.stringify({ ...created.body, data: { ...after.body.data, status: 'ON_HOLD' } }));
  });

  it('journals the drift with its form and the field it changed; the answer kept is the sandbox\'s own', async () => {
    await useScenario(t, drift('unknown-enum', POST_PAYOUT));
    await create('d-2');
    const entry = await lastJournal();
    expect(entry.fault).toEqual({ kind: 'drift', rule: 0, scenario: 'drifting', form: 'unknown-enum', field: 'data.status' });
    expect([entry.status, entry.sent, entry.responseBody.data.status]).toEqual([201, 201, 'PENDING']);
    expect((await t.call('GET', '/_sandbox/scenario')).body.fired.faults).toEqual([1]);
  });

  it('is exactly the normal answer with the one drift applied, byte for byte', async () => {
    expect((await create('d-3', { narration: 'Invoice 42' })).status).toBe(201);
    const cases: [string, (normal: string) => string][] = [
      ['unknown-enum', (n) => n.replace('"status":"PENDING"', '"status":"ON_HOLD"')],
      ['extra-field', (n) => n.replace(/}}$/, ',"sandboxDriftField":"drift"}}')],
      ['missing-field', (n) => n.replace('"narration":"Invoice 42",', '')],
    ];
    for (const [form, expected] of cases) {
      await useScenario(t, drift(form, GET_PAYOUT, { nth: 1 }));
      const drifted = await read('d-3');
      const normal = await read('d-3');
      expect(normal.headers.get('x-sandbox-fault'), form).toBeNull();
      expect(drifted.headers.get('x-sandbox-fault'), form).toBe(`drift ${form}`);
      expect(drifted.text, form).toBe(expected(normal.text));
      expect(drifted.text, form).not.toBe(normal.text);
    }
    expect((await lastJournal()).fault).toBeNull();
  });

  it('extra-field adds sandboxDriftField to the record; missing-field leaves out narration, which the document makes optional', async () => {
    await useScenario(t, drift('extra-field', POST_PAYOUT));
    const extra = await create('d-4');
    expect(extra.body.data.sandboxDriftField).toBe('drift');
    expect(extra.body.sandboxDriftField).toBeUndefined();
    expect((await lastJournal()).fault.field).toBe('data.sandboxDriftField');
    await useScenario(t, drift('missing-field', POST_PAYOUT));
    const missing = await create('d-5', { narration: 'Invoice 42' });
    expect([missing.status, 'narration' in missing.body.data]).toEqual([201, false]);
    expect((await lastJournal()).fault.field).toBe('data.narration');
    expect((await read('d-5')).body.data.narration).toBe('Invoice 42');
  });

  it('an answer with no field the form can change goes out as it is, without X-Sandbox-Fault; the journal says field null', async () => {
    // Every field of a payout without narration is required, and its only nullable one (failureReason) is null.
    for (const [form, ref] of [['missing-field', 'd-6'], ['null-field', 'd-7']]) {
      await useScenario(t, drift(form, POST_PAYOUT));
      const res = await t.call('POST', PAYOUTS, { body: payout(ref) });
      expect([res.status, res.headers.get('x-sandbox-fault')]).toEqual([201, null]);
      expect((await lastJournal()).fault).toEqual({ kind: 'drift', rule: 0, scenario: 'drifting', form, field: null });
    }
  });

  it('null-field: a failed payout\'s failureReason, nullable in the document, is null', async () => {
    await useScenario(t, {
      scenario: {
        name: 'drifting',
        payout: { outcomes: [{ status: 'FAILED', reason: 'Account closed' }] },
        faults: [{ route: GET_PAYOUT, fault: { kind: 'drift', form: 'null-field' } }],
      },
    });
    expect((await create('d-8')).status).toBe(201);
    await advance(t, 600);
    const res = await read('d-8');
    expect([res.headers.get('x-sandbox-fault'), res.body.data.status, res.body.data.failureReason]).toEqual(['drift null-field', 'FAILED', null]);
    expect((await lastJournal()).fault.field).toBe('data.failureReason');
  });

  it('reads each answer\'s own schema: the status before other enums, in the enum\'s case; list items; the error envelope', async () => {
    await useScenario(t, drift('unknown-enum', { path: '/api/**' }));
    // A wallet payout's chain and token are enums too; its status is taken first.
    const wallet = await t.call('POST', '/api/v1/partners/wallets/payouts', {
      body: { reference: 'w-1', chain: 'base', asset: 'usdc', amount: 10, toAddress: '0x52908400098527886E0F7030069857D2E4169EE7' },
      unchecked: true,
    });
    expect([wallet.status, wallet.body.status, wallet.body.chain]).toEqual([201, 'ON_HOLD', 'base']);
    // A quote's states are lower case.
    const quote = await t.call('POST', '/api/v1/partners/marketplace/intent', {
      body: { sourceCurrency: 'NGN', destinationCurrency: 'USDT', amount: 50000, amountDirection: 'source' },
      unchecked: true,
    });
    expect([quote.status, quote.body.status]).toEqual([201, 'on_hold']);
    // A transfer create answers a list: its first item's status.
    const transfers = await t.call('POST', '/api/v1/transfers', {
      body: {
        reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f', amount: 25000, currency: 'NGN', type: 'BANK', source: { accountNumber: '1000200030' },
        destination: { accountNumber: '0123456789', accountName: 'Ada Obi', bankCode: '058', branchCode: '001' },
      },
      headers: { 'x-service-source': 'payroll-service' },
      unchecked: true,
    });
    expect([transfers.status, transfers.body[0].status]).toEqual([201, 'ON_HOLD']);
    expect((await lastJournal()).fault.field).toBe('[0].status');
    // An error answer drifts too: the envelope's status is a constant, its error type an enum.
    const missing = await read('nobody');
    expect([missing.status, missing.body.error.type, missing.body.error.code]).toEqual([404, 'on_hold', 'RESOURCE_NOT_FOUND']);
    expect((await lastJournal()).fault.field).toBe('error.type');
  });

  it('takes every trigger of a fault rule: when, nth, every, sequence, probability', async () => {
    const statuses = async (n: number, prefix: string) => {
      const out = [];
      for (let i = 1; i <= n; i++) out.push((await create(`${prefix}-${i}`)).body.data.status);
      return out.map((s) => (s === 'ON_HOLD' ? 'x' : '.')).join('');
    };
    await useScenario(t, drift('unknown-enum', POST_PAYOUT, { when: { reference: '^w-[24]$' } }));
    expect(await statuses(4, 'w')).toBe('.x.x');
    await useScenario(t, drift('unknown-enum', POST_PAYOUT, { nth: [1, 3] }));
    expect(await statuses(4, 'n')).toBe('x.x.');
    await useScenario(t, drift('unknown-enum', POST_PAYOUT, { every: 3 }));
    expect(await statuses(6, 'e')).toBe('..x..x');
    await useScenario(t, { scenario: { faults: [{ route: POST_PAYOUT, sequence: ['pass', { kind: 'drift', form: 'unknown-enum' }] }] } });
    expect(await statuses(3, 's')).toBe('.x.');
    await useScenario(t, drift('unknown-enum', POST_PAYOUT, { probability: 0.5 }));
    const drawn = await statuses(20, 'p');
    expect(drawn).toMatch(/x/);
    expect(drawn).toMatch(/\./);
    // The same seed draws the same calls in another run.
    t = await scenarioApp();
    await useScenario(t, drift('unknown-enum', POST_PAYOUT, { probability: 0.5 }));
    expect(await statuses(20, 'p')).toBe(drawn);
  });
});

describe('drift on the FX interface (XML)', () => {
  const raw = (method: string, path: string, xml?: string) =>
    t.call<string>(method, `${FX}${path}`, { raw: xml, headers: xml ? { 'content-type': 'application/xml' } : {}, unchecked: true });

  it('unknown-enum: a trade create answers an unknown Sts code; the trade is NEWT', async () => {
    await useScenario(t, drift('unknown-enum', { method: 'POST', path: `${FX}/trades` }));
    const res = await raw('POST', '/trades', instruction());
    expect([res.status, res.headers.get('x-sandbox-fault')]).toEqual([201, 'drift unknown-enum']);
    expect(res.text).toContain('<TradSts>\n    <Sts>HOLD</Sts>\n  </TradSts>');
    expect((await lastJournal()).fault).toEqual({ kind: 'drift', rule: 0, scenario: 'drifting', form: 'unknown-enum', field: 'FXTradInstrRspn/TradSts/Sts' });
    const id = /<TxId>([^<]+)<\/TxId>/.exec(res.text)![1];
    expect((await raw('GET', `/trades/${id}`)).text).toContain('<Sts>NEWT</Sts>');
  });

  it('each form is the normal answer with one change: an unknown code, an unknown element, an optional element left out', async () => {
    const id = await newTrade(t);
    const cases: [string, string, (normal: string) => string][] = [
      ['unknown-enum', `/trades/${id}`, (n) => n.replace('<Sts>NEWT</Sts>', '<Sts>HOLD</Sts>')],
      ['extra-field', `/trades/${id}`, (n) => n.replace('\n</FXTradStsAndDtlsNtfctn>', '\n  <SandboxDriftField>drift</SandboxDriftField>\n</FXTradStsAndDtlsNtfctn>')],
      // A reject's OprgMd is optional in MsgRjct.xsd.
      ['missing-field', '/trades/00000000-0000-4000-8000-000000000000', (n) => n.replace('\n  <OprgMd>sandbox</OprgMd>', '')],
    ];
    for (const [form, path, expected] of cases) {
      await useScenario(t, drift(form, { path: `${FX}/**` }, { nth: 1 }));
      const drifted = await raw('GET', path);
      const normal = await raw('GET', path);
      expect(drifted.headers.get('x-sandbox-fault'), form).toBe(`drift ${form}`);
      expect(drifted.text, form).toBe(expected(normal.text));
      expect(drifted.text, form).not.toBe(normal.text);
    }
    expect((await t.call('GET', '/_sandbox/requests?limit=2')).body.data[1].fault.field).toBe('MsgRjct/OprgMd');
  });

  it('null-field leaves XML as it is (XML has no null, and no element of the XSDs is nillable)', async () => {
    const id = await newTrade(t);
    await useScenario(t, drift('null-field', { path: `${FX}/**` }));
    const res = await raw('GET', `/trades/${id}`);
    expect([res.status, res.headers.get('x-sandbox-fault')]).toEqual([200, null]);
    expect((await lastJournal()).fault).toMatchObject({ kind: 'drift', form: 'null-field', field: null });
  });
});

describe('the drift fault in the scenario format', () => {
  it('is described in the JSON Schema with its forms, and a misspelt form gets "did you mean"', async () => {
    const schema = JSON.stringify((await t.call('GET', '/_sandbox/scenario.schema.json', { key: null })).body);
    for (const word of ['"drift"', '"unknown-enum"', '"extra-field"', '"missing-field"', '"null-field"', 'sandboxDriftField']) expect(schema).toContain(word);
    const res = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { faults: [{ fault: { kind: 'drift', form: 'unkown-enum' } }] } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      {
        field: 'scenario.faults[0].fault.form',
        issue: 'expected one of "unknown-enum", "extra-field", "missing-field", "null-field": did you mean "unknown-enum"?',
      },
    ]);
    const none = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { faults: [{ fault: { kind: 'drift' } }] } } });
    expect([none.status, none.body.error.details[0].field]).toEqual([400, 'scenario.faults[0].fault.form']);
  });
});
