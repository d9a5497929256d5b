// Webhooks: the module is built around the app's outbox, which its routes (redelivery) and its timed
// moves (retries) hand deliveries to. createApp wires each recorded event to deliverEvent.
import type { EventCatalog, SandboxEvent } from '../../engine/registry/events.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import type { DomainModule } from '../module.js';
import { deliverEvent, deliveryJobs, keepQueued, type Sender } from './deliveries.service.js';
import { Outbox } from './outbox.js';
import type { PayloadDrift } from './webhooks.drift.js';
import { webhookSandbox } from './webhooks.sandbox.js';
import { SETTINGS_COLLECTION } from './webhooks.service.js';
import { PROBE_COLLECTION } from './probe.js';

export { Outbox, type OutboxOptions } from './outbox.js';
export { keepQueued };
export { settingsOf } from './webhooks.service.js';
export { handedOver } from './handoff.js';
export type { TargetPolicy } from './targets.js';

export { webhookScenarioSections } from './webhooks.scenario.js';
export { payloadDrift } from './webhooks.drift.js';

// For the readiness report: the key's last probe, and its ordinary deliveries (no probe, no forgery).
export { forgetProbe, lastProbe, type LastProbe } from './probe.js';
export { ordinaryDeliveries, TEST_EVENT, type OrdinaryAttempt, type OrdinaryDelivery } from './deliveries.service.js';

/** `events`: the app's events, which webhook filters may name. */
export function webhooksModule(
  outbox: Outbox,
  events: EventCatalog,
  /** What deliveries are handed to: the outbox, or (shared store) the outbox writing handoffs down. */
  sender: Sender & Pick<Outbox, 'settled'> = outbox,
  /** Payloads a scenario's webhooks.drift changes. */
  drift?: PayloadDrift,
): DomainModule & { onEvent(t: Tenant, e: SandboxEvent): void } {
  return {
    sandbox: () => webhookSandbox(sender, events, outbox),
    jobs: deliveryJobs(sender, events),
    settings: [SETTINGS_COLLECTION, PROBE_COLLECTION],
    onEvent: (t, e) => deliverEvent(t, e, sender, events, drift),
  };
}
