// Webhook payloads that drift: a scenario's `webhooks.drift` picks deliveries as a fault rule picks
// requests (nth, every or probability, counted per key from the scenario's binding) and changes one
// field of the payload's data, found from the documented schema of the resource the data is (the
// API's read-back of it, see http/drift.ts). The delivery keeps the drifted payload: every attempt,
// retry, duplicate and redelivery sends the same signed bytes.
import { BoundedMap } from '../../kernel/bounded-map.js';
import { toSnake } from '../../kernel/json.js';
import { tenantSeed } from '../../kernel/random.js';
import type { SandboxEvent } from '../../engine/registry/events.js';
import { chooseFault, type FaultRequest, type FaultRule } from '../../engine/requests/fault-rules.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { describingSchema, driftJson, type ApiDocument, type Schema } from '../../http/drift.js';
import { webhookFaults, type WebhookDriftRule } from './webhooks.scenario.js';

/** The payload data of an event when the key's scenario drifts it, else undefined. */
export type PayloadDrift = (t: Tenant, e: SandboxEvent) => Record<string, unknown> | undefined;

const NO_REQUEST: FaultRequest = { method: 'POST', path: '', fields: {}, header: () => undefined };

/** Drift read from the app's API document (`document`, built on first use). */
export function payloadDrift(document: () => object): PayloadDrift {
  const seeds = new WeakMap<Tenant, number>();
  const rules = new WeakMap<WebhookDriftRule, FaultRule[]>();
  // The schema describing a payload depends only on its fields' names (describingSchema reads no
  // value), so it is found once per event type and set of fields, not by a scan of every component
  // schema per drifted delivery. null: no schema describes it.
  const schemas = new BoundedMap<string, Schema | null>(256);
  let schemasOf: ApiDocument | undefined;
  const schemaOf = (doc: ApiDocument, event: string, view: Record<string, unknown>): Schema | undefined => {
    if (doc !== schemasOf) {
      schemas.clear();
      schemasOf = doc;
    }
    const key = `${event} ${Object.keys(view).join()}`;
    let schema = schemas.get(key);
    if (schema === undefined) schemas.set(key, (schema = describingSchema(doc, view) ?? null));
    return schema ?? undefined;
  };
  return (t, e) => {
    const b = t.behaviour();
    const drift = webhookFaults(b)?.drift;
    if (!drift) return undefined;
    let rule = rules.get(drift);
    if (!rule) {
      const { form, ...trigger } = drift;
      rules.set(drift, (rule = [{ ...trigger, fault: { kind: 'drift', form } }]));
    }
    let seed = seeds.get(t);
    if (seed === undefined) seeds.set(t, (seed = tenantSeed(t.globalSeed, `webhook-drift:${t.id}`)));
    if (!chooseFault(t, seed, `${b.name}:webhooks`, rule, NO_REQUEST)) return undefined;
    const doc = document() as ApiDocument;
    const view = JSON.parse(JSON.stringify(e.data)) as Record<string, unknown>;
    const { body, field } = driftJson(doc, schemaOf(doc, e.event, view), view, drift.form);
    return field === null ? undefined : (toSnake(body) as Record<string, unknown>);
  };
}
