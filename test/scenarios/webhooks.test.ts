// Webhook delivery faults from a scenario's `webhooks` section, merged with the webhook settings'
// own: each option the scenario sets takes the place of the settings' one. Checked with a real
// receiver, every request verified with the standardwebhooks package.
import { describe, expect, it } from 'vitest';
import { advance, KEY_B } from '../support/app.js';
import { setup, verifyAll } from '../support/webhooks.js';
import { useScenario } from './support.js';

describe('webhook delivery faults from a scenario', () => {
  it('duplicate, out-of-order and delay come from the scenario when the settings set none', async () => {
    const { t, outbox, r, hook, pay, deliveries } = await setup();
    const secret = await hook({ events: ['payout'] });
    await useScenario(t, { scenario: { webhooks: { duplicate: true, outOfOrder: true, delaySeconds: 30 } } });
    await pay('sc-1');
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    expect((await deliveries()).data[0]).toMatchObject({ event: 'payout.pending', status: 'pending', nextAttemptAt: '2026-01-15T09:00:30.000Z' });
    // At 30 s the pending delivery is due and held; payout.processing (at 30 s) is due at 60 s and overtakes it.
    await advance(t, 30);
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    await advance(t, 30);
    await outbox.idle();
    const got = verifyAll(r, secret).map((m) => m.event);
    expect(got).toEqual(['payout.processing', 'payout.processing', 'payout.pending', 'payout.pending']);
    expect(r.got[0].headers['webhook-id']).toBe(r.got[1].headers['webhook-id']);
    expect(r.got[2].headers['webhook-id']).toBe(r.got[3].headers['webhook-id']);
    // Another key's deliveries follow its own (default) scenario: no faults.
    const other = await setup();
    await other.hook({ events: ['payout.pending'] }, KEY_B);
    await other.pay('sc-b', KEY_B);
    await other.outbox.idle();
    expect(other.r.events()).toEqual(['payout.pending']);
  });

  it('an option the scenario sets wins over the settings; one it leaves out is the settings\' own', async () => {
    const { t, outbox, r, hook, pay } = await setup();
    await hook({ events: ['payout.pending'], faults: { duplicate: true, delaySeconds: 10 } });
    await useScenario(t, { scenario: { webhooks: { duplicate: false } } });
    await pay('sc-2');
    await advance(t, 9);
    await outbox.idle();
    expect(r.got).toHaveLength(0);
    await advance(t, 1);
    await outbox.idle();
    expect(r.events()).toEqual(['payout.pending']);
    // Back to the start default: the settings' duplicate is in force again.
    await t.call('DELETE', '/_sandbox/scenario');
    await pay('sc-3');
    await advance(t, 10);
    await outbox.idle();
    expect(r.events()).toEqual(['payout.pending', 'payout.pending', 'payout.pending']);
    expect((await t.call('GET', '/_sandbox/webhooks')).body.faults).toEqual({ duplicate: true, outOfOrder: false, delaySeconds: 10, order: 'as-happened' });
  });
});
