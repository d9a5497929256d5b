// What the checks read besides the key's observations, from the webhooks domain: its ordinary
// deliveries of real events (probes, forgeries and test deliveries left out), its last receiver
// probe, and whether a webhook is set. DELETE /_sandbox/report forgets the probe and sets aside the
// deliveries made so far, so the report then judges only what comes after.
import { forgetProbe, lastProbe, ordinaryDeliveries, settingsOf, TEST_EVENT } from '../domains/webhooks/index.js';
import { OBSERVATIONS_COLLECTION } from '../engine/requests/observations.js';
import type { Tenant } from '../engine/tenancy/tenant.js';
import type { ReadinessSources } from './readiness.routes.js';

/** The deliveries made before the last DELETE /_sandbox/report, by id; kept beside the observations,
 * across a reset as they are (a reset forgets the deliveries themselves). */
interface SetAside {
  deliveries: string[];
}
const setAside = (t: Tenant) => t.store.collection<SetAside>(OBSERVATIONS_COLLECTION);
const SET_ASIDE = 'set-aside';

export function webhookSources(attemptTimeoutMs: number): ReadinessSources {
  return {
    read(t) {
      const settings = settingsOf(t);
      const probe = lastProbe(t);
      const before = setAside(t).get(SET_ASIDE);
      const aside = new Set(before?.deliveries);
      // The receiver judged is the one set last: the webhook now set, or after it was removed the one
      // it had, so what was seen while it was set stands. Attempts sent to a URL set before it (a
      // placeholder early in a suite), and a probe of another URL, say nothing of it.
      const receiver = settings?.url ?? t.observations.current.webhookUrl;
      const deliveries = ordinaryDeliveries(t)
        .filter((d) => !aside.has(d.id))
        .map((d) => (receiver !== undefined && d.attempts.some((a) => a.url !== receiver) ? { ...d, attempts: d.attempts.filter((a) => a.url === receiver) } : d));
      // A test delivery (POST /_sandbox/webhooks/test) carries no event the integration must take: it
      // is counted apart, only to say so when nothing else was delivered.
      const real = deliveries.filter((d) => d.event !== TEST_EVENT);
      return {
        deliveries: real,
        testDeliveries: deliveries.filter((d) => d.event === TEST_EVENT && d.attempts.length > 0).length,
        probe: probe && (receiver === undefined || probe.url === receiver) ? probe : undefined,
        webhookSet: settings !== undefined,
        attemptTimeoutMs,
      };
    },
    forget(t) {
      forgetProbe(t);
      setAside(t).put(SET_ASIDE, { deliveries: ordinaryDeliveries(t).map((d) => d.id) });
    },
  };
}
