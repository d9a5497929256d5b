// Webhook payloads drift as answers do: a scenario's webhooks.drift picks deliveries and changes one
// field of the payload's data, found from the documented schema of the resource it shows. Checked
// with a real receiver, every request verified with the standardwebhooks package.
import { describe, expect, it } from 'vitest';
import { advance } from '../support/app.js';
import { payout, setup, verifyAll } from '../support/webhooks.js';
import { useScenario } from './support.js';

type Payload = { event: string; data: Record<string, unknown> };

async function events(t: Awaited<ReturnType<typeof setup>>['t'], type: string): Promise<Payload[]> {
  return (await t.call('GET', `/_sandbox/events?type=${type}`)).body.data.map((e: Payload) => ({ event: e.event, data: e.data }));
}

describe('webhook payloads drift', () => {
  it('unknown-enum on the first delivery: status ON_HOLD, signed as sent; the others and the event log are true', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    const secret = await hook({ events: ['payout'] });
    await useScenario(t, { scenario: { webhooks: { drift: { form: 'unknown-enum', nth: 1 } } } });
    await t.call('PUT', '/_sandbox/clock', { body: { frozen: true } });
    await pay('wd-1');
    await advance(t, 30);
    await outbox.idle();
    const sent = verifyAll(r, secret);
    const log = await events(t, 'payout');
    expect(sent.map((m) => [m.event, m.data.status])).toEqual([['payout.pending', 'ON_HOLD'], ['payout.processing', 'PROCESSING']]);
    expect(sent[0]).toEqual({ event: 'payout.pending', data: { ...log[0].data, status: 'ON_HOLD' } });
    expect(sent[1]).toEqual(log[1]);
    // The delivery log shows the payload as sent.
    const kept = (await deliveries()).data.find((d: { event: string }) => d.event === 'payout.pending');
    expect(kept.payload.data.status).toBe('ON_HOLD');
  });

  it('extra-field, missing-field and null-field on every delivery, by the resource\'s documented schema', async () => {
    const { t, outbox, r, hook } = await setup();
    const secret = await hook({ events: ['payout.pending', 'payout.failed'] });
    const create = async (ref: string) =>
      expect((await t.call('POST', '/api/v1/partners/payouts', { body: { ...payout(ref), narration: 'Invoice 42' } })).status).toBe(201);
    const last = async () => {
      await outbox.idle();
      return verifyAll(r, secret).at(-1)!;
    };
    await useScenario(t, { scenario: { webhooks: { drift: { form: 'extra-field' } } } });
    await create('wx-1');
    expect((await last()).data).toMatchObject({ reference: 'wx-1', status: 'PENDING', sandbox_drift_field: 'drift' });
    await useScenario(t, { scenario: { webhooks: { drift: { form: 'missing-field' } } } });
    await create('wx-2');
    const missing = await last();
    expect([missing.data.reference, 'narration' in missing.data]).toEqual(['wx-2', false]);
    await useScenario(t, {
      scenario: { payout: { outcomes: [{ status: 'FAILED', reason: 'Account closed' }] }, webhooks: { drift: { form: 'null-field', every: 2 } } },
    });
    await create('wx-3');
    await advance(t, 600);
    const failed = await last();
    expect([failed.event, failed.data.status, failed.data.failure_reason]).toEqual(['payout.failed', 'FAILED', null]);
    const log = (await events(t, 'payout.failed'))[0];
    expect(log.data.failure_reason).toBe('Account closed');
    expect(failed.data).toEqual({ ...log.data, failure_reason: null });
  });

  it('refuses a misspelt form with "did you mean", and two triggers at once', async () => {
    const { t } = await setup();
    const res = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { webhooks: { drift: { form: 'extra-feild' } } } } });
    expect(res.body.error.details).toEqual([
      { field: 'scenario.webhooks.drift.form', issue: 'expected one of "unknown-enum", "extra-field", "missing-field", "null-field": did you mean "extra-field"?' },
    ]);
    const two = await t.call('PUT', '/_sandbox/scenario', { body: { scenario: { webhooks: { drift: { form: 'null-field', nth: 1, every: 2 } } } } });
    expect(two.body.error.details).toEqual([{ field: 'scenario.webhooks.drift.every', issue: 'give at most one of probability, nth or every (found nth and every)' }]);
  });
});
