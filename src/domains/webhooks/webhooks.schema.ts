// Webhook settings and the delivery log: request, stored shapes and responses of /_sandbox/webhooks*.
import { z } from '@hono/zod-openapi';
import { timestamp, wholeNumberParam } from '../../http/fields.js';
import type { EventCatalog } from '../../engine/registry/events.js';
import { FORGED_FORMS, FORM_DESCRIPTIONS, PROBE_FORMS } from './forge.js';
import { portProblem } from './targets.js';
import { DELIVERY_ORDERS, ORDER_DESCRIPTION } from './webhooks.scenario.js';

function httpUrl(value: string): URL | undefined {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' ? u : undefined;
  } catch {
    return undefined;
  }
}

/** Why a webhook URL can never be delivered to, whatever the target policy; undefined when it can. */
function urlProblem(value: string): string | undefined {
  const url = httpUrl(value);
  if (!url) return 'must be an absolute http:// or https:// URL, e.g. https://example.com/webhooks';
  return portProblem(url);
}

/** whsec_ plus base64 of 24 to 64 bytes: what Standard Webhooks libraries accept as a secret. */
function isSecret(value: string): boolean {
  const b64 = value.slice('whsec_'.length);
  if (!value.startsWith('whsec_') || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return false;
  const bytes = Buffer.from(b64, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/** An events filter: one of the catalog's filters (the events of the app's resources). */
const eventFilter = (catalog: EventCatalog) =>
  z
    .string()
    .superRefine((filter, ctx) => {
      const problem = catalog.problem(filter);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .openapi({
      example: 'payout',
      enum: [...catalog.filters],
      description: `An event name (payout.failed), a resource prefix (payout or payout.*), or * for all. Resources: ${catalog.resources.join(', ')}; a filter that matches no event is refused`,
    });

export const WebhookFaults = z
  .strictObject({
    duplicate: z.boolean().default(false).openapi({ description: 'Send every accepted delivery a second time, with the same webhook-id' }),
    outOfOrder: z.boolean().default(false).openapi({ description: 'Swap deliveries in pairs: each one is held until the next has been sent' }),
    delaySeconds: z
      .number()
      .int()
      .min(0)
      .max(86_400)
      .default(0)
      .openapi({ description: "Hold each first attempt this long on the tenant's clock" }),
    order: z.enum(DELIVERY_ORDERS).default('as-happened').openapi({ description: ORDER_DESCRIPTION }),
  })
  .openapi('WebhookFaults');

export const WebhookSettingsRequest = z
  .strictObject({
    url: z
      .string()
      .max(2048)
      .superRefine((url, ctx) => {
        const problem = urlProblem(url);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .openapi({ example: 'https://example.com/webhooks' }),
    secret: z
      .string()
      .refine(isSecret, { message: 'must be whsec_ followed by the base64 of 24 to 64 random bytes; leave it out to have one generated' })
      .optional()
      .openapi({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
    // Checked against the app's events by settingsRequestOf, which the route uses.
    events: z.array(z.string()).min(1).max(50).optional(),
    faults: WebhookFaults.optional(),
  });

export type WebhookSettingsRequest = z.infer<typeof WebhookSettingsRequest>;

/** The request as the app's routes check it: `events` names only events of the app's resources. */
export const settingsRequestOf = (catalog: EventCatalog) =>
  WebhookSettingsRequest.extend({
    events: z.array(eventFilter(catalog)).min(1).max(50).optional().openapi({ description: 'Which events to deliver; all when left out' }),
  }).openapi('WebhookSettingsRequest');

/** The faults as answered: every one is always sent, with its value in force. */
const WebhookFaultsInForce = z
  .object({ duplicate: z.boolean(), outOfOrder: z.boolean(), delaySeconds: z.number().int(), order: z.enum(DELIVERY_ORDERS) })
  .openapi('WebhookFaultsInForce');

export const WebhookSettings = z
  .object({
    url: z.string(),
    events: z.array(z.string()),
    faults: WebhookFaultsInForce,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('WebhookSettings');

export type WebhookSettings = z.infer<typeof WebhookSettings>;

export const WebhookSettingsWithSecret = WebhookSettings.extend({
  secret: z.string().openapi({ description: 'The signing secret. Shown only in this response; keep it.' }),
}).openapi('WebhookSettingsWithSecret');

export const WebhookStopped = z.object({ status: z.literal('success'), message: z.string() }).openapi('WebhookStopped');

export const DeliveryAttempt = z
  .object({
    at: timestamp.openapi({ description: "When the attempt started, on the tenant's clock" }),
    trigger: z.enum(['initial', 'retry', 'redelivery', 'duplicate']),
    url: z.string(),
    statusCode: z.number().int().nullable().openapi({ description: 'The receiver\'s HTTP status; null when no answer came' }),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    requestHeaders: z
      .record(z.string(), z.string())
      .nullable()
      .openapi({ description: 'The headers the POST carried (webhook-id, webhook-timestamp, webhook-signature, ...); null when it was not sent' }),
    responseBody: z.string().nullable().openapi({ description: "The start of the receiver's answer (500 characters at most); null when no answer came" }),
  })
  .openapi('WebhookDeliveryAttempt');

export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;
export type Trigger = DeliveryAttempt['trigger'];

export const Delivery = z
  .object({
    id: z.string().openapi({ description: 'Sent as webhook-id; the same on every attempt, so receivers can drop duplicates' }),
    eventId: z.string(),
    event: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    tries: z.number().int().openapi({ description: 'Attempts counted against the limit (first attempt and retries)' }),
    nextAttemptAt: timestamp.nullable(),
    failureReason: z.string().nullable(),
    createdAt: timestamp,
    payload: z.object({ event: z.string(), data: z.record(z.string(), z.unknown()) }),
    attempts: z.array(DeliveryAttempt),
    probe: z.literal(true).optional().openapi({ description: 'Set on the deliveries of POST /_sandbox/webhooks/probe: about no resource, never retried' }),
    forged: z
      .enum(FORGED_FORMS)
      .optional()
      .openapi({ description: "How this delivery was forged (a probe's forgery, or one a scenario's webhooks.forged mixed in); the receiver should refuse it, and it is never retried" }),
  })
  .openapi('WebhookDelivery');

export type Delivery = z.infer<typeof Delivery>;

export const DeliveriesQuery = z.object({
  status: z.enum(['pending', 'succeeded', 'failed']).optional().openapi({ param: { name: 'status', in: 'query' } }),
  limit: wholeNumberParam(1, 500, 50).openapi({ param: { name: 'limit', in: 'query' } }),
});

export const DeliveryList = z
  .object({
    data: z.array(Delivery),
    counts: z.object({ pending: z.number().int(), succeeded: z.number().int(), failed: z.number().int() }),
    limits: z.object({
      deliveriesKept: z.number().int(),
      pendingMax: z.number().int(),
      attempts: z.number().int(),
      retryDelaysSeconds: z.array(z.number().int()),
    }),
  })
  .openapi('WebhookDeliveryList');

export const FlushResult = z
  .object({
    settled: z.boolean().openapi({ description: 'false when attempts were still under way after the longest wait (15 s)' }),
    data: z.array(Delivery).openapi({ description: 'Every delivery attempted during the flush, with its attempts, newest first' }),
  })
  .openapi('WebhookFlushResult');

export const DeliveryParam = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' }, example: 'msg_2Zf0c8e1a4b7d9c3e5f6a7b8' }),
});

export const ProbeOutcome = z
  .object({
    form: z.enum(PROBE_FORMS).openapi({ description: Object.entries(FORM_DESCRIPTIONS).map(([f, d]) => `${f}: ${d}`).join('; ') }),
    status: z.number().int().nullable().openapi({ description: "The receiver's HTTP status; null when no answer came (refused, timed out, connection error)" }),
    rejected: z.boolean().openapi({ description: 'true when the answer was not a 2xx (no answer included)' }),
  })
  .openapi('WebhookProbeOutcome');

export const ProbeResult = z
  .object({
    passed: z.boolean().openapi({ description: 'true when the genuine delivery got a 2xx and every forged one did not' }),
    probes: z.array(ProbeOutcome),
  })
  .openapi('WebhookProbeResult');

export type ProbeResult = z.infer<typeof ProbeResult>;
