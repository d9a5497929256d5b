// What the checks read besides the key's observations, from the webhooks domain: the key's delivery
// log (probe and forged deliveries marked as tests of the receiver), its last probe, its settings.
import type { Tenant } from '../engine/tenancy/tenant.js';
import { deliveriesOf, settingsOf } from '../domains/webhooks/index.js';
import type { DeliverySeen, ProbeSeen } from './checks.js';
import type { ReadinessSources } from './readiness.routes.js';

type Marked = { probe?: boolean; forged?: string };

export function webhookSources(attemptTimeoutMs: number, lastProbe: (t: Tenant) => ProbeSeen | undefined = () => undefined): ReadinessSources {
  return (t) => ({
    deliveries: [...deliveriesOf(t)].map(
      (d): DeliverySeen => ({ id: d.id, event: d.event, createdAt: d.createdAt, attempts: d.attempts, test: Boolean((d as Marked).probe || (d as Marked).forged) }),
    ),
    probe: lastProbe(t),
    webhookSet: settingsOf(t) !== undefined,
    attemptTimeoutMs,
  });
}
