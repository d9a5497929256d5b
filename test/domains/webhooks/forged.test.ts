// Forgeries mixed into the ordinary stream by a scenario's `webhooks.forged`, with a real receiver
// that verifies every request with the standardwebhooks package: each forgery goes just before the
// delivery it forges, is refused, is marked in the log and is never retried; the genuine stream is
// delivered as usual. And the section's checks, with "did you mean".
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../../src/engine/scenario/scenario.load.js';
import { advance, createTestApp } from '../../support/app.js';
import { checkScenario } from '../../support/scenarios.js';
import { setup } from '../../support/webhooks.js';
import { useScenario } from '../../scenarios/support.js';

function problems(input: unknown): string[] {
  try {
    checkScenario(input, 'test.yaml');
  } catch (err) {
    if (err instanceof ScenarioError) return err.issues.map((i) => `${i.path}: ${i.message}`);
    throw err;
  }
  return [];
}

/** The setup's receiver, answering 204 to what verifies with the secret and 401 to the rest. */
async function verifying() {
  const w = await setup();
  const secret = await w.hook({ events: ['payout'] });
  const verifies = (i: number) => {
    try {
      new Webhook(secret).verify(w.r.got[i].body, w.r.got[i].headers);
      return true;
    } catch {
      return false;
    }
  };
  return { ...w, secret, verifies };
}

describe('webhooks.forged in a scenario', () => {
  it('every: 2 sends a forgery just before every second delivery; the genuine stream is intact', async () => {
    const { t, outbox, r, verifies, deliveries } = await verifying();
    await useScenario(t, { scenario: { webhooks: { forged: { form: 'stale-timestamp', every: 2 } } } });
    await t.call('POST', '/api/v1/partners/payouts', { body: { reference: 'fg-1', amount: 2500, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } } });
    await advance(t, 300);
    await outbox.idle();
    expect(r.events()).toEqual(['payout.pending', 'payout.processing', 'payout.processing', 'payout.successful']);
    expect(r.got.map((_, i) => verifies(i))).toEqual([true, false, true, true]);
    // the forgery is its own message: another webhook-id, the same body, a timestamp ten minutes old
    expect(r.got[1].headers['webhook-id']).not.toBe(r.got[2].headers['webhook-id']);
    expect(r.got[1].body).toBe(r.got[2].body);
    expect(Number(r.got[2].headers['webhook-timestamp']) - Number(r.got[1].headers['webhook-timestamp'])).toBeCloseTo(600, -1);

    const log = (await deliveries()).data;
    expect(log.map((d: { event: string; forged?: string }) => [d.event, d.forged ?? null])).toEqual([
      ['payout.successful', null],
      ['payout.processing', 'stale-timestamp'],
      ['payout.processing', null],
      ['payout.pending', null],
    ]);
    // the receiver here accepts it (plan: 200): an accepted forgery is logged as succeeded, once
    expect(log[1]).toMatchObject({ id: r.got[1].headers['webhook-id'], status: 'succeeded', tries: 1, nextAttemptAt: null, failureReason: null });
    expect(log[1].probe).toBeUndefined();
  });

  it('a refused forgery is failed at once, never retried, and the delivery it forged still succeeds', async () => {
    const { t, outbox, r, verifies, deliveries } = await verifying();
    await useScenario(t, { scenario: { webhooks: { forged: { form: 'wrong-secret', probability: 1 } } } });
    r.plan.push(401);
    await t.call('POST', '/api/v1/partners/payouts', { body: { reference: 'fg-2', amount: 2500, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } } });
    await outbox.idle();
    expect(r.got.map((_, i) => verifies(i))).toEqual([false, true]);
    const [forged, genuine] = (await deliveries()).data;
    expect(forged).toMatchObject({
      event: 'payout.pending',
      forged: 'wrong-secret',
      status: 'failed',
      tries: 1,
      nextAttemptAt: null,
      failureReason: 'Refused, as a forgery (wrong-secret) should be: HTTP 401. Forgeries are never retried.',
    });
    expect(genuine).toMatchObject({ event: 'payout.pending', status: 'succeeded', tries: 1 });
    expect(genuine.forged).toBeUndefined();
    await advance(t, 3600 * 2);
    await outbox.idle();
    // two more events (processing, successful), each after its forgery; the first forgery is never sent again
    expect(r.got).toHaveLength(6);
    expect((await deliveries()).data.filter((d: { forged?: string; status: string }) => d.forged && d.status === 'failed')).toHaveLength(1);
  });

  it('probability 0 forges nothing, and test deliveries are never forged', async () => {
    const { t, outbox, r } = await verifying();
    await useScenario(t, { scenario: { webhooks: { forged: { form: 'bad-signature', probability: 0 } } } });
    await t.call('POST', '/api/v1/partners/payouts', { body: { reference: 'fg-3', amount: 2500, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } } });
    await useScenario(t, { scenario: { webhooks: { forged: { form: 'bad-signature', every: 1 } } } });
    await t.call('POST', '/_sandbox/webhooks/test');
    await outbox.idle();
    expect(r.events()).toEqual(['payout.pending', 'webhook.test']);
  });

  it('probability draws from the seed: the same run forges the same deliveries', async () => {
    const run = async () => {
      const { t, outbox, r } = await verifying();
      await useScenario(t, { scenario: { webhooks: { forged: { form: 'missing-signature', probability: 0.5 } } } });
      for (let i = 0; i < 8; i++) {
        await t.call('POST', '/api/v1/partners/payouts', { body: { reference: `fp-${i}`, amount: 2500, currency: 'NGN', destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' } } });
      }
      await outbox.idle();
      return r.got.map((g) => (g.headers['webhook-signature'] ? 'signed' : 'forged'));
    };
    const first = await run();
    expect(first.filter((x) => x === 'forged').length).toBeGreaterThan(0);
    expect(first.filter((x) => x === 'signed')).toHaveLength(8);
    expect(await run()).toEqual(first);
  });

  it('is checked: one of every and probability, forms by name with "did you mean"', async () => {
    expect(problems({ webhooks: { forged: { form: 'bad-signatur', every: 2 } } })).toEqual([
      'webhooks.forged.form: expected one of "bad-signature", "wrong-secret", "stale-timestamp", "future-timestamp", "tampered-body", "missing-signature": did you mean "bad-signature"?',
    ]);
    expect(problems({ webhooks: { forged: { form: 'genuine', every: 2 } } })[0]).toMatch(/^webhooks\.forged\.form: expected one of "bad-signature"/);
    expect(problems({ webhooks: { forged: { form: 'tampered-body' } } })).toEqual(['webhooks.forged.every: give every (a whole number) or probability (0 to 1)']);
    expect(problems({ webhooks: { forged: { form: 'tampered-body', every: 2, probability: 0.1 } } })).toEqual(['webhooks.forged.probability: give one of every and probability, not both']);
    expect(problems({ webhooks: { forged: { form: 'tampered-body', evrey: 2 } } })).toEqual([
      "webhooks.forged.evrey: is not a field here: did you mean 'every'?",
      'webhooks.forged.every: give every (a whole number) or probability (0 to 1)',
    ]);
    expect(problems({ webhooks: { froged: { form: 'tampered-body', every: 2 } } })).toEqual(["webhooks.froged: is not a field here: did you mean 'forged'?"]);
    expect(problems({ webhooks: { forged: { form: 'tampered-body', probability: 1.5 } } })).toEqual(['webhooks.forged.probability: must be at most 1']);
    const schema = (await (await createTestApp()).call('GET', '/_sandbox/scenario.schema.json', { key: null })).body;
    const forged = schema.properties.webhooks.properties.forged;
    expect(forged.properties.form.enum).toEqual(['bad-signature', 'wrong-secret', 'stale-timestamp', 'future-timestamp', 'tampered-body', 'missing-signature']);
    expect(forged.additionalProperties).toBe(false);
    expect(Object.keys(forged.properties)).toEqual(['form', 'every', 'probability']);
  });
});
