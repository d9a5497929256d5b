// Handoffs, for a sandbox of several replicas on a shared store: an attempt handed to a replica's
// outbox lives in that replica's memory until it is sent and recorded. So that a replica dying
// first does not lose it, each handoff is written down (in the session that hands it over) with a
// deadline in real time. A handoff whose deadline passed with no attempt recorded since is handed
// over again by whichever replica's tick opens the tenant: attempts are sent at least once.
import type { Tenant } from '../../engine/tenancy/tenant.js';
import type { Sender } from './deliveries.service.js';
import type { Outbox } from './outbox.js';
import type { Delivery, Trigger } from './webhooks.schema.js';

/** Real time an attempt may stay unrecorded before another replica sends it (attempts time out
 * after 5 s; the rest is room for a queue). */
export const HANDOFF_MS = 60_000;

interface Handoff {
  id: string;
  trigger: Trigger;
  /** The delivery's attempts when handed over, and its last one: a change means it was recorded. */
  attempts: number;
  last: string;
  /** Base-clock ms. */
  until: number;
}

const handoffs = (t: Tenant) => t.store.collection<Handoff>('webhook_handoffs');
const deliveries = (t: Tenant) => t.store.collection<Delivery>('webhook_deliveries');

const lastOf = (d: Delivery) => JSON.stringify(d.attempts.at(-1) ?? null);

/** The outbox as a sender that writes each handoff down, and what the tick needs to resume them. */
export function handedOver(outbox: Outbox, now: () => number) {
  const sender: Sender & Pick<Outbox, 'settled'> = {
    settled: (t, maxMs) => outbox.settled(t, maxMs),
    send(t, id, trigger, opts) {
      const d = deliveries(t).get(id);
      if (d) handoffs(t).put(id, { id, trigger, attempts: d.attempts.length, last: lastOf(d), until: now() + HANDOFF_MS });
      outbox.send(t, id, trigger, opts);
    },
    forget(t, id) {
      handoffs(t).remove(id);
      outbox.forget(t, id);
    },
  };
  return {
    sender,
    overdue: {
      /** The earliest deadline of the tenant's handoffs (base-clock ms). */
      next(t: Tenant): number | undefined {
        let next: number | undefined;
        for (const h of handoffs(t).values()) if (next === undefined || h.until < next) next = h.until;
        return next;
      },
      /** Forget handoffs that were recorded; hand over again those past their deadline. Skipped while
       * this replica's outbox still holds something of the tenant (it is sending it). */
      resume(t: Tenant): void {
        if (outbox.has(t)) return;
        const at = now();
        for (const h of [...handoffs(t).values()]) {
          if (h.until > at) continue;
          const d = deliveries(t).get(h.id);
          const recorded = !d || d.attempts.length !== h.attempts || lastOf(d) !== h.last || ((h.trigger === 'initial' || h.trigger === 'retry') && d.status !== 'pending');
          if (recorded) handoffs(t).remove(h.id);
          else sender.send(t, h.id, h.trigger);
        }
      },
    },
  };
}
