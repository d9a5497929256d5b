// Deliveries: one per event that passes the tenant's filter. Each is tried, retried with backoff on
// the tenant's clock, and kept in a bounded log. Sending is the sender's job (outbox.ts): this file
// only decides what is due and records what happened, synchronously.
import { createHash } from 'node:crypto';
import { SandboxError, notFound } from '../../kernel/errors.js';
import { eventMatches, payloadOf, type SandboxEvent } from '../../engine/registry/events.js';
import type { Job } from '../../engine/scheduler.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import type { Delivery, DeliveryAttempt, Trigger } from './webhooks.schema.js';
import type { PayloadDrift } from './webhooks.drift.js';
import { webhookFaults } from './webhooks.scenario.js';
import { settingsOf, type SettingsRecord } from './webhooks.service.js';

export const LIMITS = {
  /** Deliveries kept per tenant; the oldest go first. */
  deliveriesKept: 500,
  /** Deliveries waiting per tenant; past this the oldest waiting one is given up. */
  pendingMax: 100,
  /** First attempt plus retries. */
  attempts: 6,
  retryDelaysSeconds: [5, 30, 120, 600, 3600],
  /** Attempts kept per delivery (redeliveries add to them). */
  attemptsKept: 20,
  /** How long the out-of-order fault holds a delivery when no later one comes. */
  holdSeconds: 60,
};

/** Hands a delivery to the asynchronous sender. */
export interface Sender {
  send(t: Tenant, id: string, trigger: Trigger, opts?: { first?: boolean }): void;
  forget(t: Tenant, id: string): void;
}

/** What the sender needs for one attempt. */
export interface AttemptPlan {
  id: string;
  url: string;
  secret: string;
  body: string;
  at: string;
}

const RETRY = 'webhook.retry';
const RELEASE = 'webhook.release';
const deliveries = (t: Tenant) => t.store.collection<Delivery>('webhook_deliveries');
const held = (t: Tenant) => t.store.collection<{ id: string }>('webhook_held');
const iso = (ms: number) => new Date(ms).toISOString();

/** webhook-id: stable for the event, different for another tenant or another event. */
function messageId(t: Tenant, e: SandboxEvent, s: SettingsRecord): string {
  return `msg_${createHash('sha256').update(`${t.id}:${e.id}:${e.createdAt}:${s.createdAt}`).digest('hex').slice(0, 24)}`;
}

/**
 * The delivery faults in force: the webhook settings' own, with each option the key's scenario in
 * force sets (its `webhooks` section) taking the place of the same option. Deliveries follow the
 * key's scenario, not a request's X-Sandbox-Scenario header: they outlive the request.
 */
export function faultsOf(t: Tenant, s: SettingsRecord): SettingsRecord['faults'] {
  return { ...s.faults, ...webhookFaults(t.behaviour()) };
}

/** An event was recorded: make it a delivery if a webhook is set and its filter lets it through;
 * `drift` may change its payload (webhooks.drift.ts). */
export function deliverEvent(t: Tenant, e: SandboxEvent, sender: Sender, drift?: PayloadDrift): void {
  const s = settingsOf(t);
  if (!s || !eventMatches(s.events, e.event)) return;
  createDelivery(t, e, s, sender, drift);
}

/** The event named by a test delivery: it belongs to no resource and is in no event log. */
export const TEST_EVENT = 'webhook.test';

/** Send a test delivery now, whatever the webhook's event filter: an event `webhook.test` of the key. */
export function sendTestEvent(t: Tenant, sender: Sender): Delivery {
  const s = settingsOf(t);
  if (!s) {
    throw new SandboxError('INVALID_STATE_TRANSITION', 'No webhook is set for this API key, so nothing can be sent. Set one with PUT /_sandbox/webhooks first.');
  }
  const at = t.nowIso();
  const e: SandboxEvent = { id: `evt_test_${t.random.hex(12)}`, event: TEST_EVENT, createdAt: at, data: { message: 'A test delivery from the sandbox', sentAt: at } };
  return deliveries(t).get(createDelivery(t, e, s, sender))!;
}

function createDelivery(t: Tenant, e: SandboxEvent, s: SettingsRecord, sender: Sender, drift?: PayloadDrift): string {
  const id = messageId(t, e, s);
  const now = t.now();
  const firstAt = now + faultsOf(t, s).delaySeconds * 1000;
  deliveries(t).put(id, {
    id,
    eventId: e.id,
    event: e.event,
    status: 'pending',
    tries: 0,
    nextAttemptAt: iso(firstAt),
    failureReason: null,
    createdAt: iso(now),
    payload: { event: e.event, data: drift?.(t, e) ?? payloadOf(e) },
    attempts: [],
  });
  keepBounds(t, sender);
  if (firstAt > now) t.scheduler.enqueue(RETRY, id, firstAt, { first: true });
  else dispatchFirst(t, id, s, sender);
  return id;
}

/** A first attempt is due: send it, unless the out-of-order fault holds it for the next one. */
function dispatchFirst(t: Tenant, id: string, s: SettingsRecord, sender: Sender): void {
  if (!faultsOf(t, s).outOfOrder) return sender.send(t, id, 'initial');
  const waiting = held(t).get('held');
  if (waiting && deliveries(t).get(waiting.id)?.status === 'pending') {
    held(t).remove('held');
    t.scheduler.cancelFor(waiting.id, RELEASE);
    sender.send(t, id, 'initial');
    sender.send(t, waiting.id, 'initial');
    return;
  }
  const releaseAt = t.now() + LIMITS.holdSeconds * 1000;
  held(t).put('held', { id });
  update(t, id, { nextAttemptAt: iso(releaseAt) });
  t.scheduler.enqueue(RELEASE, id, releaseAt);
}

function update(t: Tenant, id: string, change: Partial<Delivery>): void {
  const d = deliveries(t).get(id);
  if (d) deliveries(t).put(id, { ...d, ...change });
}

/** Give up a waiting delivery: no more attempts. */
function giveUp(t: Tenant, d: Delivery, reason: string, sender: Sender): void {
  deliveries(t).put(d.id, { ...d, status: 'failed', nextAttemptAt: null, failureReason: reason });
  t.scheduler.cancelFor(d.id);
  sender.forget(t, d.id);
  if (held(t).get('held')?.id === d.id) held(t).remove('held');
}

/** At most pendingMax waiting and deliveriesKept kept; the oldest give way. */
function keepBounds(t: Tenant, sender: Sender): void {
  const col = deliveries(t);
  let pending = 0;
  for (const d of col.values()) if (d.status === 'pending') pending++;
  if (pending > LIMITS.pendingMax) {
    for (const d of [...col.values()]) {
      if (pending <= LIMITS.pendingMax) break;
      if (d.status !== 'pending') continue;
      giveUp(t, d, `Dropped: more than ${LIMITS.pendingMax} deliveries were waiting for this webhook.`, sender);
      pending--;
    }
  }
  while (col.size > LIMITS.deliveriesKept) {
    const oldest = col.get(col.keys().next().value!)!;
    if (oldest.status === 'pending') giveUp(t, oldest, 'Dropped from the delivery log.', sender);
    col.remove(oldest.id);
  }
}

/** The sender is about to try: what to send, or nothing if the attempt is no longer wanted. */
export function planAttempt(t: Tenant, id: string, trigger: Trigger): AttemptPlan | undefined {
  const d = deliveries(t).get(id);
  const s = settingsOf(t);
  if (!d || !s) return undefined;
  if ((trigger === 'initial' || trigger === 'retry') && d.status !== 'pending') return undefined;
  return { id, url: s.url, secret: s.secret, body: JSON.stringify(d.payload), at: t.nowIso() };
}

export const succeeded = (a: DeliveryAttempt) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;

/** Record what an attempt got, and plan the next one (retry, duplicate) or give up. */
export function recordAttempt(t: Tenant, id: string, attempt: DeliveryAttempt, sender: Sender): void {
  const d = deliveries(t).get(id);
  if (!d) return;
  const counted = attempt.trigger === 'initial' || attempt.trigger === 'retry';
  const next: Delivery = {
    ...d,
    tries: d.tries + (counted ? 1 : 0),
    attempts: [...d.attempts, attempt].slice(-LIMITS.attemptsKept),
  };
  if (succeeded(attempt)) {
    if (d.status === 'pending') t.scheduler.cancelFor(id, RETRY);
    deliveries(t).put(id, { ...next, status: 'succeeded', nextAttemptAt: null, failureReason: null });
    const s = settingsOf(t);
    if (counted && s && faultsOf(t, s).duplicate) sender.send(t, id, 'duplicate', { first: true });
    return;
  }
  if (!counted || d.status !== 'pending') return deliveries(t).put(id, next);
  if (next.tries >= LIMITS.attempts) {
    const reason = `No 2xx answer after ${next.tries} attempts; the last one got ${attempt.error ?? `HTTP ${attempt.statusCode}`}.`;
    return deliveries(t).put(id, { ...next, status: 'failed', nextAttemptAt: null, failureReason: reason });
  }
  const dueAt = t.now() + LIMITS.retryDelaysSeconds[next.tries - 1] * 1000;
  deliveries(t).put(id, { ...next, nextAttemptAt: iso(dueAt) });
  t.scheduler.enqueue(RETRY, id, dueAt);
}

/** An attempt queued but not sent when the server stopped: due again at once, from the stored jobs. */
export function keepQueued(t: Tenant, id: string, trigger: Trigger): void {
  if (deliveries(t).get(id)?.status !== 'pending' || (trigger !== 'initial' && trigger !== 'retry')) return;
  t.scheduler.cancelFor(id, RETRY);
  t.scheduler.enqueue(RETRY, id, t.now(), trigger === 'initial' ? { first: true } : undefined);
}

/** Every delivery kept, oldest first. */
export function deliveriesOf(t: Tenant): Iterable<Delivery> {
  return deliveries(t).values();
}

/** Deliveries newest first, with counts by status. */
export function listDeliveries(t: Tenant, opts: { status?: Delivery['status']; limit: number }) {
  const all = [...deliveries(t).values()].reverse();
  const counts = { pending: 0, succeeded: 0, failed: 0 };
  for (const d of all) counts[d.status]++;
  const data = all.filter((d) => !opts.status || d.status === opts.status).slice(0, opts.limit);
  return { data, counts, limits: { ...pick(LIMITS) } };
}

const pick = (l: typeof LIMITS) => ({
  deliveriesKept: l.deliveriesKept,
  pendingMax: l.pendingMax,
  attempts: l.attempts,
  retryDelaysSeconds: l.retryDelaysSeconds,
});

/** Send a delivery once more, now, with the same webhook-id and body. */
export function redeliver(t: Tenant, id: string, sender: Sender): Delivery {
  const d = deliveries(t).get(id);
  if (!d) throw notFound('webhook delivery', id, 'id');
  if (!settingsOf(t)) {
    throw new SandboxError('INVALID_STATE_TRANSITION', 'No webhook is set for this API key, so nothing can be sent. Set one with PUT /_sandbox/webhooks first.');
  }
  sender.send(t, id, 'redelivery');
  return d;
}

/** The webhook was removed: every waiting delivery is given up. */
export function stopAll(t: Tenant, sender: Sender): void {
  for (const d of [...deliveries(t).values()]) {
    if (d.status === 'pending') giveUp(t, d, 'The webhook was removed before this delivery succeeded.', sender);
  }
}

export function deliveryJobs(sender: Sender) {
  return {
    [RETRY]: (t: Tenant, job: Job) => {
      const d = deliveries(t).get(job.ref);
      const s = settingsOf(t);
      if (!d || d.status !== 'pending' || !s) return;
      if (job.data?.first) dispatchFirst(t, d.id, s, sender);
      else sender.send(t, d.id, 'retry');
    },
    [RELEASE]: (t: Tenant, job: Job) => {
      if (held(t).get('held')?.id !== job.ref) return;
      held(t).remove('held');
      if (deliveries(t).get(job.ref)?.status === 'pending') sender.send(t, job.ref, 'initial');
    },
  };
}
