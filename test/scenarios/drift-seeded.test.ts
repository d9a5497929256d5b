// Drift picked by probability is seeded: the same seed drifts the same deliveries and answers, in the
// same fields, run after run. These are the figures of seed 7.
import { describe, expect, it } from 'vitest';
import { payloadDrift } from '../../src/domains/webhooks/index.js';
import { advance, KEY } from '../support/app.js';
import { FX } from '../support/fx.js';
import { payout, setup, verifyAll } from '../support/webhooks.js';
import { scenarioApp, useScenario } from './support.js';

describe('seeded drift', () => {
  it('webhook payloads: the same deliveries drift in the same fields for seed 7', async () => {
    const { t, outbox, r, hook } = await setup();
    const pay = async (ref: string) =>
      expect((await t.call('POST', '/api/v1/partners/payouts', { body: { ...payout(ref), narration: 'Invoice 42' } })).status).toBe(201);
    const secret = await hook({ events: ['payout'] });
    await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    const sent = async () => {
      await outbox.idle();
      return verifyAll(r, secret);
    };
    const log = async () => (await t.call('GET', '/_sandbox/events?type=payout&limit=100')).body.data as { event: string; data: Record<string, unknown> }[];
    /** Each delivery as [event, reference, what differs from the event log's data]. */
    const differences = async (from: number) => {
      const events = await log();
      return (await sent()).slice(from).map((m) => {
        const truth = events.find((e) => e.event === m.event && e.data.reference === m.data.reference)!.data;
        const changed = [...new Set([...Object.keys(truth), ...Object.keys(m.data)])].filter((k) => JSON.stringify(truth[k]) !== JSON.stringify(m.data[k]));
        return `${m.event} ${String(m.data.reference)}: ${changed.map((k) => `${k}=${JSON.stringify(m.data[k]) ?? 'missing'}`).join(' ')}`;
      });
    };
    await useScenario(t, { scenario: { webhooks: { drift: { form: 'missing-field', probability: 0.5 } } } });
    for (let n = 0; n < 4; n++) await pay(`seeded-${n}`);
    await advance(t, 600);
    const missing = await differences(0);
    expect(missing).toEqual([
      'payout.pending seeded-0: narration=missing',
      'payout.pending seeded-1: ',
      'payout.pending seeded-2: ',
      'payout.pending seeded-3: ',
      'payout.processing seeded-0: ',
      'payout.processing seeded-1: ',
      'payout.processing seeded-2: narration=missing',
      'payout.processing seeded-3: narration=missing',
      'payout.successful seeded-0: narration=missing',
      'payout.successful seeded-1: narration=missing',
      'payout.successful seeded-2: ',
      'payout.successful seeded-3: ',
    ]);
    await useScenario(t, { scenario: { webhooks: { drift: { form: 'unknown-enum', probability: 0.5 } } } });
    for (let n = 4; n < 7; n++) await pay(`seeded-${n}`);
    await advance(t, 600);
    expect(await differences(missing.length)).toEqual([
      'payout.pending seeded-4: status="ON_HOLD"',
      'payout.pending seeded-5: ',
      'payout.pending seeded-6: ',
      'payout.processing seeded-4: ',
      'payout.processing seeded-5: ',
      'payout.processing seeded-6: ',
      'payout.successful seeded-4: status="ON_HOLD"',
      'payout.successful seeded-5: status="ON_HOLD"',
      'payout.successful seeded-6: status="ON_HOLD"',
    ]);
  });

  it('XML answers: missing-field leaves out every Listgs of a 40-pool page, on the requests seed 7 picks', async () => {
    const t = await scenarioApp();
    await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    const read = () => t.call<string>('GET', `${FX}/listings?pageSize=40`, { unchecked: true });
    const normal = (await read()).text;
    expect(normal.match(/<Listgs>/g)?.length).toBe(40);
    const without = normal.replace(/\n {2}<Listgs>[\s\S]*?<\/Listgs>/g, '');
    await useScenario(t, { scenario: { name: 'drifting', faults: [{ route: { path: `${FX}/listings` }, probability: 0.5, fault: { kind: 'drift', form: 'missing-field' } }] } });
    const picked: boolean[] = [];
    for (let n = 0; n < 8; n++) {
      const res = await read();
      const drifted = res.headers.get('x-sandbox-fault') === 'drift missing-field';
      expect(res.text).toBe(drifted ? without : normal);
      picked.push(drifted);
    }
    expect(picked).toEqual([false, true, true, false, false, true, false, false]);
    expect(without).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<FndPrcgPsptRpt>\n  <Pgntn>\n    <PageNumber>0</PageNumber>\n    <PageSize>40</PageSize>\n    <TotalElements>40</TotalElements>\n  </Pgntn>\n  <OprgMd>sandbox</OprgMd>\n</FndPrcgPsptRpt>');
  });

  it('webhook payloads: the schema describing a payload is found once per event type and fields, not per drifted delivery', async () => {
    const t = await scenarioApp();
    await useScenario(t, { scenario: { webhooks: { drift: { form: 'unknown-enum' } } } });
    const tenant = await t.tenants.get(KEY, 'sandbox');
    // The served document, its component schemas counting how often they are listed.
    const served = await (await t.app.request('/openapi.json')).json();
    let scans = 0;
    const schemas = new Proxy(served.components.schemas, { ownKeys: (target) => (scans++, Reflect.ownKeys(target)) });
    const doc = { ...served, components: { ...served.components, schemas } };
    const drift = payloadDrift(() => doc);
    // Payout events as they are emitted (the data as the API reads the payout back).
    const event = (n: number, status: string) => ({
      id: `evt_000000000${n}`,
      event: `payout.${status.toLowerCase()}`,
      createdAt: '2026-01-15T09:00:00.000Z',
      data: {
        reference: `once-${n}`, amount: 2500, currency: 'NGN', status, fee: 10,
        destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058', bankName: 'Guaranty Trust Bank' },
        narration: 'Invoice 42', transactionReference: `HPR-TRSF-${n}`, failureReason: null,
        createdAt: '2026-01-15T09:00:00.000Z', updatedAt: '2026-01-15T09:00:00.000Z', estimatedCompletionAt: '2026-01-15T09:05:00.000Z',
      },
    });
    const drifted = [event(1, 'PENDING'), event(2, 'PENDING'), event(3, 'PENDING'), event(4, 'PROCESSING'), event(5, 'PROCESSING')].map((e) => drift(tenant, e));
    expect(drifted.map((d) => [d?.reference, d?.status, d?.transaction_reference])).toEqual([
      ['once-1', 'ON_HOLD', 'HPR-TRSF-1'],
      ['once-2', 'ON_HOLD', 'HPR-TRSF-2'],
      ['once-3', 'ON_HOLD', 'HPR-TRSF-3'],
      ['once-4', 'ON_HOLD', 'HPR-TRSF-4'],
      ['once-5', 'ON_HOLD', 'HPR-TRSF-5'],
    ]);
    // Once for payout.pending, once for payout.processing.
    expect(scans).toBe(2);
  });
});
