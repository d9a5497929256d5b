// The `webhooks` section of a scenario: delivery faults that take the place of the same options of
// PUT /_sandbox/webhooks while the scenario is in force, and forgeries mixed into the stream.
import { z } from 'zod';
import type { Behaviour } from '../../engine/registry/behaviour.js';
import { DRIFT_FORMS } from '../../engine/requests/types.js';
import { FORGED_FORMS } from './forge.js';

/** The orders deliveries can be sent in: as their events happened, or each resource's final one first. */
export const DELIVERY_ORDERS = ['as-happened', 'terminal-first'] as const;
export type DeliveryOrder = (typeof DELIVERY_ORDERS)[number];
export const ORDER_DESCRIPTION =
  "terminal-first holds a resource's deliveries until its final event, sends that one first, then the earlier ones in their order; a resource with no final event within an hour of the key's clock, or a key holding 100, has its held ones released in order";

const ForgedRule = z
  .strictObject({
    form: z.enum(FORGED_FORMS).describe('How the forgery is made (as in POST /_sandbox/webhooks/probe)'),
    every: z.number().int().min(1).max(1_000_000).optional().describe('Forge every N-th delivery of the key'),
    probability: z.number().min(0).max(1).optional().describe("Forge each delivery with this probability, drawn from the key's seed"),
  })
  .superRefine((r, ctx) => {
    if (r.every !== undefined && r.probability !== undefined) ctx.addIssue({ code: 'custom', path: ['probability'], message: 'give one of every and probability, not both' });
    if (r.every === undefined && r.probability === undefined) ctx.addIssue({ code: 'custom', path: ['every'], message: 'give every (a whole number) or probability (0 to 1)' });
  })
  .describe('Before the first attempt of a delivery it picks, send a forgery of it (its own webhook-id, the same event), which the receiver should refuse');

const posInt = z.number().int().min(1);

/** Payloads that drift from the API document, picked as a fault rule picks requests. */
const WebhookDrift = z
  .strictObject({
    form: z
      .enum(DRIFT_FORMS)
      .describe(
        "How the payload's data departs from the resource's documented schema: unknown-enum (its status, e.g. ON_HOLD), extra-field (sandbox_drift_field), missing-field (an optional field), null-field (a nullable field)",
      ),
    probability: z.number().min(0).max(1).optional(),
    nth: z.union([posInt, z.array(posInt).min(1).max(100)]).optional().describe('Only these deliveries, counted from the binding of the scenario'),
    every: posInt.optional(),
  })
  .superRefine((d, ctx) => {
    const triggers = (['probability', 'nth', 'every'] as const).filter((k) => d[k] !== undefined);
    if (triggers.length > 1) ctx.addIssue({ code: 'custom', path: [triggers[1]], message: `give at most one of probability, nth or every (found ${triggers.join(' and ')})` });
  })
  .describe('Payloads drift as the drift fault drifts an answer; every delivery of an event, or those the trigger picks');

export const WebhookScenario = z
  .strictObject({
    duplicate: z.boolean().optional().describe('Send every accepted delivery a second time, with the same webhook-id'),
    outOfOrder: z.boolean().optional().describe('Swap deliveries in pairs: each one is held until the next has been sent'),
    delaySeconds: z.number().int().min(0).max(86_400).optional().describe("Hold each first attempt this long on the key's clock"),
    order: z.enum(DELIVERY_ORDERS).optional().describe(`The order deliveries are sent in: as-happened, or ${ORDER_DESCRIPTION}`),
    forged: ForgedRule.optional(),
    drift: WebhookDrift.optional(),
  })
  .optional()
  .describe('Webhook delivery faults; each one set here takes the place of the same option of PUT /_sandbox/webhooks');

/** Webhook delivery faults a scenario sets; an option left out is the webhook settings' own. */
export type WebhookFaultOverrides = NonNullable<z.infer<typeof WebhookScenario>>;
export type ForgedRule = z.infer<typeof ForgedRule>;
export type WebhookDriftRule = z.infer<typeof WebhookDrift>;

/** The scenario sections the webhooks module reads. */
export const webhookScenarioSections = { webhooks: WebhookScenario };

export const webhookFaults = (b: Behaviour) => b.section('webhooks') as WebhookFaultOverrides | undefined;
