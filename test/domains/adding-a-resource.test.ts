// docs/adding-a-resource.md, proved: a resource defined only here (a refund: REQUESTED → SENT →
// SETTLED | RETURNED), in a domain of its own added to the domain list given to createApp, is picked
// up by scenarios, timed moves, the event log, webhook filters, simulate and /_sandbox/resources with
// no other edit.
import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { domains } from '../../src/domains/index.js';
import type { DomainModule } from '../../src/domains/module.js';
import type { Outcome } from '../../src/engine/registry/behaviour.js';
import { defineLifecycle } from '../../src/engine/registry/lifecycle.js';
import { recordResource } from '../../src/engine/registry/resource.js';
import type { Tenant } from '../../src/engine/tenancy/tenant.js';
import { notFound } from '../../src/kernel/errors.js';
import { defineMachine } from '../../src/kernel/machine.js';
import { errorResponses, jsonBody, jsonResponse, newRouter, security } from '../../src/http/openapi.js';
import { created, requestScenario } from '../../src/http/respond.js';
import { advance, createTestApp } from '../support/app.js';

// refunds.machine.ts
const STATUSES = ['REQUESTED', 'SENT', 'SETTLED', 'RETURNED'] as const;
const machine = defineMachine('refund', STATUSES, {
  send: { from: ['REQUESTED'], to: 'SENT' },
  settle: { from: ['SENT'], to: 'SETTLED' },
  return: { from: ['SENT'], to: 'RETURNED' },
});
const refund = defineLifecycle({
  name: 'refund',
  machine,
  timed: ['REQUESTED', 'SENT'],
  outcomes: { states: ['SETTLED', 'RETURNED'], success: 'SETTLED' },
  durations: { REQUESTED: 10, SENT: 20 },
  timedMoves: { REQUESTED: 'send', SENT: { succeed: 'settle', fail: 'return' } },
});

// refunds.schema.ts
const CreateRefund = z.object({ reference: z.string().min(1).max(50), amount: z.number().positive() }).openapi('CreateRefundRequest');
const Refund = z
  .object({ reference: z.string(), amount: z.number(), status: z.enum(STATUSES), createdAt: z.string(), updatedAt: z.string() })
  .openapi('Refund');
type Refund = z.infer<typeof Refund>;

// refunds.service.ts
interface RefundRecord extends Refund {
  outcome: Outcome;
  scenario?: string;
}
const refunds = (t: Tenant) => t.store.collection<RefundRecord>(refund.collection);
const present = ({ outcome: _o, scenario: _s, ...view }: RefundRecord): Refund => view;

function createRefund(t: Tenant, req: z.infer<typeof CreateRefund>, scenario?: string): RefundRecord {
  const b = t.behaviour(scenario);
  const now = t.nowIso();
  const record: RefundRecord = { ...req, status: 'REQUESTED', createdAt: now, updatedAt: now, outcome: refund.outcome(b, req), scenario };
  refunds(t).put(record.reference, record);
  refund.retime(t, record.reference, 'REQUESTED', b);
  refund.emit(t, 'REQUESTED', present(record));
  return record;
}

function getRefund(t: Tenant, reference: string): RefundRecord {
  const r = refunds(t).get(reference);
  if (!r) throw notFound('refund', reference);
  return r;
}

function moveRefund(t: Tenant, reference: string, event: (typeof machine.events)[number]): RefundRecord {
  const r = getRefund(t, reference);
  const next: RefundRecord = { ...r, status: machine.next(r.status, event, reference), updatedAt: t.nowIso() };
  refunds(t).put(reference, next);
  refund.retime(t, reference, next.status, t.behaviour(r.scenario));
  refund.emit(t, next.status, present(next));
  return next;
}

// refunds.routes.ts
const create = createRoute({
  method: 'post',
  path: '/api/v1/refunds',
  tags: ['Refunds'],
  security,
  summary: 'Create a refund',
  request: { body: jsonBody(CreateRefund) },
  responses: { 201: jsonResponse(Refund, 'Refund requested'), ...errorResponses(400, 409) },
});

// index.ts
const refundsDomain: DomainModule = {
  routes: newRouter().openapi(create, (c) => {
    const t = c.get('tenant');
    const body = c.req.valid('json');
    return created(c, {
      resource: refund.name,
      key: body.reference,
      body,
      create: () => createRefund(t, body, requestScenario(c)),
      read: (ref) => getRefund(t, ref),
      present,
    });
  }),
  resources: [recordResource(refund, { present, move: moveRefund, jobs: refund.timerJobs((t, ref) => refunds(t).get(ref), moveRefund) })],
};

// src/domains/index.ts, with the one line added.
const withRefunds = [...domains, refundsDomain];

const app = () => createTestApp({ domains: withRefunds });

describe('a resource defined only in this test', () => {
  it('has a scenario section of its own, checked and published', async () => {
    const t = await app();
    const schema = await t.call('GET', '/_sandbox/scenario.schema.json', { key: null });
    expect(Object.keys(schema.body.properties.refund.properties)).toEqual(['timing', 'outcomes']);
    expect(Object.keys(schema.body.properties.refund.properties.timing.properties)).toEqual(['REQUESTED', 'SENT', '*']);
    const wrong = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { refund: { outcomes: [{ status: 'LOST' }] } } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0]).toEqual({ field: 'scenario.refund.outcomes[0].status', issue: 'expected one of "SETTLED", "RETURNED"' });
    const ok = await t.call('PUT', '/_sandbox/scenario', {
      body: { scenario: { refund: { timing: { SENT: 5 }, outcomes: [{ when: { amount: { min: 100 } }, status: 'RETURNED' }] } } },
    });
    expect(ok.status).toBe(200);
  });

  it('moves on its timers when the clock advances, as its lifecycle and the scenario say', async () => {
    const t = await app();
    await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { refund: { timing: { SENT: 5 }, outcomes: [{ when: { amount: { min: 100 } }, status: 'RETURNED' }] } } } });
    const small = await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-1', amount: 50 } });
    expect(small.status).toBe(201);
    expect(small.body).toMatchObject({ reference: 'rf-1', status: 'REQUESTED' });
    const replay = await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-1', amount: 50 } });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-2', amount: 500 } });
    await advance(t, 10);
    const sent = await t.call('GET', '/_sandbox/resources?kind=refunds');
    expect(sent.body.data.map((r: { status: string }) => r.status)).toEqual(['SENT', 'SENT']);
    await advance(t, 5);
    const done = await t.call('GET', '/_sandbox/resources?kind=refunds');
    expect(done.body.counts).toEqual({ refunds: 2 });
    expect(done.body.data.map((r: { id: string; status: string; eventPrefix: string }) => [r.id, r.status, r.eventPrefix])).toEqual([
      ['rf-2', 'RETURNED', 'refund'],
      ['rf-1', 'SETTLED', 'refund'],
    ]);
  });

  it('records its events in the event log, which filters by it', async () => {
    const t = await app();
    await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-1', amount: 50 } });
    await advance(t, 30);
    const log = await t.call('GET', '/_sandbox/events?type=refund');
    expect(log.body.data.map((e: { event: string }) => e.event)).toEqual(['refund.requested', 'refund.sent', 'refund.settled']);
    expect(log.body.data[2].data).toMatchObject({ reference: 'rf-1', status: 'SETTLED' });
    const unknown = await t.call('GET', '/_sandbox/events?type=refund.lost');
    expect(unknown.body.error.details[0].issue).toBe(
      'matches no refund event: send refund, refund.* or one of: refund.requested, refund.sent, refund.settled, refund.returned',
    );
  });

  it('takes its events in webhook filters', async () => {
    const t = await app();
    const ok = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks', events: ['refund.settled', 'refund.*'] } });
    expect([ok.status, ok.body.events]).toEqual([200, ['refund.settled', 'refund.*']]);
    const wrong = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/hooks', events: ['refunds'] } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0].issue).toContain('a resource (payout, wallet_payout, withdrawal, transfer, quote, order, fx_trade, refund)');
  });

  it('is pushed along its machine by simulate', async () => {
    const t = await app();
    await t.call('POST', '/api/v1/refunds', { body: { reference: 'rf-1', amount: 50 } });
    const sent = await t.call('POST', '/_sandbox/simulate/refunds/rf-1/send');
    expect(sent.body).toMatchObject({ resource: 'refunds', id: 'rf-1', event: 'send', state: { status: 'SENT' } });
    const back = await t.call('POST', '/_sandbox/simulate/refunds/rf-1/return');
    expect(back.body.state.status).toBe('RETURNED');
    const refused = await t.call('POST', '/_sandbox/simulate/refunds/rf-1/settle');
    expect([refused.status, refused.body.error.code]).toEqual([409, 'INVALID_STATE_TRANSITION']);
    const unknown = await t.call('POST', '/_sandbox/simulate/refunds/rf-1/lose');
    expect(unknown.body.error.details[0]).toEqual({ field: 'event', issue: 'must be one of: send, settle, return' });
  });

  it('leaves the app without it as it was', async () => {
    const t = await createTestApp();
    expect((await t.call('POST', '/_sandbox/simulate/refunds/rf-1/send')).status).toBe(404);
    expect((await t.call('GET', '/_sandbox/events?type=refund')).status).toBe(400);
  });
});
