// /_sandbox/webhooks*: the tenant's webhook settings and its delivery log. Thin: validate, call the
// service, present. Nothing here waits for the network: attempts go through the outbox.
import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonResponse, newRouter, security } from '../../http/openapi.js';
import { streamedList } from '../../http/json-list.js';
import { nextTurn } from '../../kernel/turns.js';
import { deliveriesOf, listDeliveries, redeliver, sendTestEvent, stopAll, type Sender } from './deliveries.service.js';
import type { Outbox } from './outbox.js';
import type { EventCatalog } from '../../engine/registry/events.js';
import { prober } from './probe.js';
import {
  DeliveriesQuery,
  Delivery,
  DeliveryList,
  DeliveryParam,
  FlushResult,
  ProbeResult,
  WebhookSettings,
  WebhookSettingsWithSecret,
  WebhookStopped,
  settingsRequestOf,
} from './webhooks.schema.js';
import { getSettings, present, putSettings, removeSettings } from './webhooks.service.js';

const tags = ['Sandbox webhooks'];

const put = (catalog: EventCatalog) =>
  createRoute({
    method: 'put',
    path: '/_sandbox/webhooks',
    operationId: 'setWebhook',
    tags,
    security,
    summary: 'Set the webhook: where every event of this key is sent, and how it is signed',
    description:
      'Replaces the settings. Without `secret`, a new whsec_ secret is generated. The response is the only place the secret is shown. ' +
      'A URL on a port HTTP clients refuse (the Fetch standard\'s bad ports) is a 400; so is a private, loopback or link-local address when the sandbox runs with --webhook-targets public.',
    request: { body: jsonBody(settingsRequestOf(catalog)) },
    responses: { 200: jsonResponse(WebhookSettingsWithSecret, 'The settings, with the signing secret'), ...errorResponses(400, 413, 415) },
  });

const get = createRoute({
  method: 'get',
  path: '/_sandbox/webhooks',
  operationId: 'getWebhook',
  tags,
  security,
  summary: 'Read the webhook settings (without the secret)',
  responses: { 200: jsonResponse(WebhookSettings, 'The settings'), ...errorResponses(404) },
});

const del = createRoute({
  method: 'delete',
  path: '/_sandbox/webhooks',
  operationId: 'deleteWebhook',
  tags,
  security,
  summary: 'Remove the webhook: no more deliveries; waiting ones are given up',
  responses: { 200: jsonResponse(WebhookStopped, 'Deliveries stopped'), ...errorResponses() },
});

const list = createRoute({
  method: 'get',
  path: '/_sandbox/webhooks/deliveries',
  operationId: 'listWebhookDeliveries',
  tags,
  security,
  summary: 'The delivery log, newest first, with every attempt',
  request: { query: DeliveriesQuery },
  responses: { 200: jsonResponse(DeliveryList, 'Deliveries'), ...errorResponses(400) },
});

const resend = createRoute({
  method: 'post',
  path: '/_sandbox/webhooks/deliveries/{id}/redeliver',
  operationId: 'redeliverWebhookDelivery',
  tags,
  security,
  summary: 'Send a delivery once more, with the same webhook-id',
  description: 'The attempt is made in the background and added to the delivery\'s attempts; it is not retried.',
  request: { params: DeliveryParam },
  responses: { 202: jsonResponse(Delivery, 'Redelivery queued'), ...errorResponses(400, 404, 409) },
});

const test = createRoute({
  method: 'post',
  path: '/_sandbox/webhooks/test',
  operationId: 'sendTestWebhook',
  tags,
  security,
  summary: 'Send a test delivery to the webhook now: event webhook.test, whatever the event filter',
  description: 'Signed and logged as every delivery is (retried on failure, under the delivery faults in force); the event is in no event log.',
  responses: { 202: jsonResponse(Delivery, 'Test delivery queued'), ...errorResponses(409) },
});

/** The longest a flush waits for attempts in flight, in real time. */
const FLUSH_WAIT_MS = 15_000;

const flush = createRoute({
  method: 'post',
  path: '/_sandbox/webhooks/flush',
  tags,
  security,
  summary: "Make every delivery due on the tenant's clock now, and wait (at most 15 s) until each was attempted",
  description: 'Answers the deliveries attempted meanwhile with their results, so a test need not sleep and poll. Retries not yet due wait for the clock.',
  responses: { 200: jsonResponse(FlushResult, 'The deliveries attempted'), ...errorResponses() },
});

const probe = createRoute({
  method: 'post',
  path: '/_sandbox/webhooks/probe',
  operationId: 'probeWebhookReceiver',
  tags,
  security,
  summary: "Probe the webhook receiver: one genuine delivery and six forged ones at once; does it accept the first and refuse the rest?",
  description:
    'Sends to the key\'s URL, at once, one genuine signed delivery and one of each forgery: bad-signature, wrong-secret, stale-timestamp and future-timestamp (correctly signed, ten minutes off), ' +
    'tampered-body (the signature of another body) and missing-signature. `passed` is true when the genuine one got a 2xx and no forged one did. ' +
    'Each carries event payout.successful about a payout that does not exist, whatever the event filter; each is logged as a delivery marked `probe` (and `forged`), never retried. ' +
    'Sent under --webhook-targets as deliveries are. Without a webhook set it is 409; while a probe of the key is under way, 429.',
  responses: {
    200: jsonResponse(ProbeResult, 'What the receiver answered to each'),
    ...errorResponses(409, 429, 503),
    409: { ...errorResponses(409)['409'], description: 'No webhook is set for this key' },
    429: { ...errorResponses(429)['429'], description: 'A probe of this key is already under way; Retry-After says when to try again' },
    503: { ...errorResponses(503)['503'], description: 'The sandbox runs its most receiver probes at once for all keys (8); Retry-After says when to try again' },
  },
});

export function webhookSandbox(sender: Sender & Pick<Outbox, 'settled'>, catalog: EventCatalog, outbox: Outbox) {
  const targets = outbox.options.targets;
  const probeReceiver = prober(outbox, sender, catalog);
  return newRouter()
    .openapi(put(catalog), (c) => {
      const s = putSettings(c.get('tenant'), c.req.valid('json'), targets);
      return c.json({ ...present(s), secret: s.secret }, 200);
    })
    .openapi(get, (c) => c.json(present(getSettings(c.get('tenant'))), 200))
    .openapi(del, (c) => {
      const t = c.get('tenant');
      const had = removeSettings(t);
      stopAll(t, sender);
      const message = had ? 'The webhook was removed; no more deliveries will be sent.' : 'No webhook was set; nothing to stop.';
      return c.json({ status: 'success' as const, message }, 200);
    })
    .openapi(list, async (c) => {
      // Up to 500 deliveries of 20 attempts each, 5 MB: written a slice at a time (http/json-list.ts),
      // from a turn of its own; twenty such listings of one key at once held every key 450 ms.
      await nextTurn();
      const { data, ...rest } = listDeliveries(c.get('tenant'), c.req.valid('query'));
      return streamedList(c, 'data', data, rest) as never;
    })
    .openapi(resend, (c) => c.json(redeliver(c.get('tenant'), c.req.valid('param').id, sender), 202))
    .openapi(test, (c) => c.json(sendTestEvent(c.get('tenant'), sender), 202))
    .openapi(probe, async (c) => c.json(await probeReceiver(c.get('tenant'), c.get('outside')), 200))
    .openapi(flush, async (c) => {
      const t = c.get('tenant');
      const before = new Map([...deliveriesOf(t)].map((d) => [d.id, d.attempts.length + d.tries]));
      t.catchUp();
      const settled = await sender.settled(t, FLUSH_WAIT_MS);
      const data = [...deliveriesOf(t)].filter((d) => before.get(d.id) !== d.attempts.length + d.tries).reverse();
      return c.json({ settled, data }, 200);
    });
}
