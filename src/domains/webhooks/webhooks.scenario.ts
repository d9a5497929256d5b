// The `webhooks` section of a scenario: delivery faults that take the place of the same options of
// PUT /_sandbox/webhooks while the scenario is in force.
import { z } from 'zod';
import type { Behaviour } from '../../engine/registry/behaviour.js';

export const WebhookScenario = z
  .strictObject({
    duplicate: z.boolean().optional().describe('Send every accepted delivery a second time, with the same webhook-id'),
    outOfOrder: z.boolean().optional().describe('Swap deliveries in pairs: each one is held until the next has been sent'),
    delaySeconds: z.number().int().min(0).max(86_400).optional().describe("Hold each first attempt this long on the key's clock"),
  })
  .optional()
  .describe('Webhook delivery faults; each one set here takes the place of the same option of PUT /_sandbox/webhooks');

/** Webhook delivery faults a scenario sets; an option left out is the webhook settings' own. */
export type WebhookFaultOverrides = NonNullable<z.infer<typeof WebhookScenario>>;

/** The scenario sections the webhooks module reads. */
export const webhookScenarioSections = { webhooks: WebhookScenario };

export const webhookFaults = (b: Behaviour) => b.section('webhooks') as WebhookFaultOverrides | undefined;
