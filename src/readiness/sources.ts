// What the checks read besides the key's observations, from the webhooks domain: its ordinary
// deliveries (probes and forgeries left out), its last receiver probe, and whether a webhook is set.
import { lastProbe, ordinaryDeliveries, settingsOf } from '../domains/webhooks/index.js';
import type { ReadinessSources } from './readiness.routes.js';

export function webhookSources(attemptTimeoutMs: number): ReadinessSources {
  return (t) => {
    const settings = settingsOf(t);
    const probe = lastProbe(t);
    return {
      deliveries: ordinaryDeliveries(t),
      // A probe of another URL than the webhook now set says nothing of the receiver now in use.
      probe: probe && settings && probe.url === settings.url ? probe : undefined,
      webhookSet: settings !== undefined,
      attemptTimeoutMs,
    };
  };
}
