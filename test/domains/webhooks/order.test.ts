// `order: terminal-first`, from the webhook settings and from a scenario, with a real receiver on
// port 0 whose every request is verified with the standardwebhooks package: a resource's deliveries
// are held until its final event, which is sent first, then the held ones in order; an hour without
// a final event, or a key holding 100, releases them in order.
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../../../src/engine/scenario/scenario.load.js';
import { advance, createTestApp } from '../../support/app.js';
import { newTrade } from '../../support/fx.js';
import { checkScenario } from '../../support/scenarios.js';
import { setup, verifyAll } from '../../support/webhooks.js';
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

const refsOf = (msgs: { event: string; data: Record<string, unknown> }[]) => msgs.map((m) => `${m.event} ${m.data.reference ?? m.data.tx_id}`);

describe('order: terminal-first', () => {
  it('from the settings: a payout\'s final delivery first, then the earlier ones in their order', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    const secret = await hook({ faults: { order: 'terminal-first' } });
    expect((await t.call('GET', '/_sandbox/webhooks')).body.faults).toEqual({ duplicate: false, outOfOrder: false, delaySeconds: 0, order: 'terminal-first' });
    await pay('tf-1');
    await advance(t, 30);
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    // held until the final event, an hour at most
    expect((await deliveries()).data.map((d: { event: string; status: string; nextAttemptAt: string }) => [d.event, d.status, d.nextAttemptAt])).toEqual([
      ['payout.processing', 'pending', '2026-01-15T10:00:00.000Z'],
      ['payout.pending', 'pending', '2026-01-15T10:00:00.000Z'],
    ]);
    await advance(t, 270);
    await outbox.idle();
    expect(refsOf(verifyAll(r, secret))).toEqual(['payout.successful tf-1', 'payout.pending tf-1', 'payout.processing tf-1']);
    expect((await deliveries()).counts).toEqual({ pending: 0, succeeded: 3, failed: 0 });
  });

  it('holds per resource: each payout is released by its own final event', async () => {
    const { t, outbox, r, hook, pay } = await setup();
    const secret = await hook({ faults: { order: 'terminal-first' } });
    await useScenario(t, { scenario: { payout: { timing: { PENDING: 10, PROCESSING: 10 } } } });
    await pay('a-1');
    await advance(t, 5);
    await pay('b-1');
    await advance(t, 15);
    await outbox.idle();
    expect(refsOf(verifyAll(r, secret))).toEqual(['payout.successful a-1', 'payout.pending a-1', 'payout.processing a-1']);
    await advance(t, 5);
    await outbox.idle();
    expect(refsOf(verifyAll(r, secret)).slice(3)).toEqual(['payout.successful b-1', 'payout.pending b-1', 'payout.processing b-1']);
  });

  it('from a scenario: an FX trade left in SETT has its deliveries released in order after an hour', async () => {
    const { t, outbox, r, hook } = await setup();
    const secret = await hook({ events: ['fx_trade'] });
    await useScenario(t, { scenario: { webhooks: { order: 'terminal-first' } } });
    const id = await newTrade(t);
    await advance(t, 60);
    expect((await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/accept`, { body: {} })).status).toBe(200);
    await advance(t, 3539);
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    await advance(t, 1);
    await outbox.idle();
    expect(refsOf(verifyAll(r, secret))).toEqual([`fx_trade.newt ${id}`, `fx_trade.sett ${id}`]);
    // its final event, later, goes at once: nothing is held any more
    expect((await t.call('POST', `/_sandbox/simulate/fx-trades/${id}/confirm`, { body: {} })).status).toBe(200);
    await outbox.idle();
    expect(refsOf(verifyAll(r, secret))).toEqual([`fx_trade.newt ${id}`, `fx_trade.sett ${id}`, `fx_trade.comp ${id}`]);
  });

  it('a key holding 100 deliveries has them all released, in order', async () => {
    const { t, outbox, r, hook, pay } = await setup();
    const secret = await hook({ events: ['payout.pending', 'payout.successful'] });
    await useScenario(t, { scenario: { webhooks: { order: 'terminal-first' } } });
    for (let i = 0; i < 99; i++) await pay(`h-${i}`);
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    await pay('h-99');
    await outbox.idle();
    expect(refsOf(verifyAll(r, secret))).toEqual(Array.from({ length: 100 }, (_, i) => `payout.pending h-${i}`));
    // released: their final events, later, are sent as they come
    await advance(t, 300);
    await outbox.idle();
    expect(r.got).toHaveLength(200);
  });

  it('a final event the filter leaves out still ends the hold; the scenario can turn the order off', async () => {
    const { t, outbox, r, hook, pay } = await setup();
    const secret = await hook({ events: ['payout.pending', 'payout.processing'], faults: { order: 'terminal-first' } });
    await pay('nf-1');
    await advance(t, 299);
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    await advance(t, 1);
    await outbox.idle();
    expect(refsOf(verifyAll(r, secret))).toEqual(['payout.pending nf-1', 'payout.processing nf-1']);

    await useScenario(t, { scenario: { webhooks: { order: 'as-happened' } } });
    await pay('nf-2');
    await outbox.idle();
    expect(refsOf(verifyAll(r, secret)).at(-1)).toBe('payout.pending nf-2');
  });

  it('is checked, with "did you mean", in a scenario and in PUT /_sandbox/webhooks', async () => {
    expect(problems({ webhooks: { order: 'terminal-frist' } })).toEqual([
      'webhooks.order: expected one of "as-happened", "terminal-first": did you mean "terminal-first"?',
    ]);
    expect(problems({ webhooks: { ordre: 'terminal-first' } })).toEqual(["webhooks.ordre: is not a field here: did you mean 'order'?"]);
    const t = await createTestApp();
    const schema = (await t.call('GET', '/_sandbox/scenario.schema.json', { key: null })).body;
    expect(schema.properties.webhooks.properties.order.enum).toEqual(['as-happened', 'terminal-first']);
    const bad = await t.call('PUT', '/_sandbox/webhooks', { body: { url: 'https://example.com/h', faults: { order: 'last-first' } } });
    expect([bad.status, bad.body.error.details[0].field]).toEqual([400, 'faults.order']);
  });
});
