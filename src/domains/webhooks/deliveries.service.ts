// Deliveries: one per event that passes the tenant's filter. Each is tried, retried with backoff on
// the tenant's clock, and kept in a bounded log. Sending is the sender's job (outbox.ts): this file
// only decides what is due and records what happened, synchronously.
import { createHash } from 'node:crypto';
import { SandboxError, notFound } from '../../kernel/errors.js';
import { tenantSeed } from '../../kernel/random.js';
import { eventMatches, payloadOf, type EventCatalog, type SandboxEvent } from '../../engine/registry/events.js';
import { bump, draw } from '../../engine/requests/fault-rules.js';
import type { Job } from '../../engine/scheduler.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import type { ForgedForm } from './forge.js';
import type { Delivery, DeliveryAttempt, Trigger } from './webhooks.schema.js';
import type { PayloadDrift } from './webhooks.drift.js';
import { webhookFaults, type ForgedRule } from './webhooks.scenario.js';
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
  /** How long terminal-first holds a resource's deliveries waiting for its final event (key's clock). */
  terminalHoldSeconds: 3600,
  /** Deliveries terminal-first holds per key; reaching this releases them all, in order. */
  terminalHeldMax: 100,
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
  /** Sent forged this way instead of signed (forge.ts). */
  forged?: ForgedForm;
}

const RETRY = 'webhook.retry';
const RELEASE = 'webhook.release';
const RELEASE_RESOURCE = 'webhook.release_resource';
const deliveries = (t: Tenant) => t.store.collection<Delivery>('webhook_deliveries');
const held = (t: Tenant) => t.store.collection<{ id: string }>('webhook_held');
/** What terminal-first holds, in the order the first attempts fell due: the delivery and its resource. */
const heldForFinal = (t: Tenant) => t.store.collection<{ id: string; resource: string }>('webhook_held_final');

/** Which events end their resource: the app's event catalog. */
type Finals = Pick<EventCatalog, 'isFinal'>;
const NO_FINALS: Finals = { isFinal: () => false };
const iso = (ms: number) => new Date(ms).toISOString();

/** webhook-id: stable for the event, different for another tenant or another event. */
function messageId(t: Tenant, e: SandboxEvent, s: SettingsRecord): string {
  return `msg_${createHash('sha256').update(`${t.id}:${e.id}:${e.createdAt}:${s.createdAt}`).digest('hex').slice(0, 24)}`;
}

/** The delivery faults in force: the settings' options, and the forgeries only a scenario sets. */
export type FaultsInForce = SettingsRecord['faults'] & { forged?: ForgedRule };

/**
 * The delivery faults in force: the webhook settings' own, with each option the key's scenario in
 * force sets (its `webhooks` section) taking the place of the same option. Deliveries follow the
 * key's scenario, not a request's X-Sandbox-Scenario header: they outlive the request.
 */
export function faultsOf(t: Tenant, s: SettingsRecord): FaultsInForce {
  return { ...s.faults, ...webhookFaults(t.behaviour()) };
}

/** An event was recorded: make it a delivery if a webhook is set and its filter lets it through. A
 * final event the filter leaves out still ends its resource's hold (terminal-first), in order.
 * `drift` may change its payload (webhooks.drift.ts). */
export function deliverEvent(t: Tenant, e: SandboxEvent, sender: Sender, finals: Finals, drift?: PayloadDrift): void {
  const s = settingsOf(t);
  if (!s) return;
  if (eventMatches(s.events, e.event)) return void createDelivery(t, e, s, sender, finals, drift);
  if (!finals.isFinal(e.event) || heldForFinal(t).size === 0) return;
  const resource = resourceOf(e.event, payloadOf(e));
  if (resource && holds(t, resource)) releaseResource(t, resource, s, sender);
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
  return deliveries(t).get(createDelivery(t, e, s, sender, NO_FINALS))!;
}

function createDelivery(t: Tenant, e: SandboxEvent, s: SettingsRecord, sender: Sender, finals: Finals, drift?: PayloadDrift): string {
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
  else dispatchFirst(t, id, s, sender, finals);
  return id;
}

/**
 * The resource an event is about, as `<resource>:<its reference>` (an FX trade's `tx_id`), from the
 * event's name and data; undefined for an event about no resource (webhook.test, a probe's).
 */
function resourceOf(event: string, data: Record<string, unknown>): string | undefined {
  const id = data.reference ?? data.tx_id;
  return typeof id === 'string' ? `${event.slice(0, event.indexOf('.'))}:${id}` : undefined;
}

/**
 * A first attempt is due: send it, unless a fault holds it. Under `order: terminal-first` a
 * resource's deliveries are held until its final one, which goes first, then the held ones in order
 * (a final one also releases what an earlier terminal-first held, whatever the order now is); else
 * the out-of-order fault may hold it for the next one.
 */
function dispatchFirst(t: Tenant, id: string, s: SettingsRecord, sender: Sender, finals: Finals): void {
  const faults = faultsOf(t, s);
  const d = deliveries(t).get(id);
  const resource = d && !unusual(d) ? resourceOf(d.event, d.payload.data) : undefined;
  if (resource && finals.isFinal(d!.event)) {
    if (faults.order === 'terminal-first' || holds(t, resource)) return releaseResource(t, resource, s, sender, id);
  } else if (resource && faults.order === 'terminal-first') {
    return holdForFinal(t, id, resource, s, sender);
  }
  if (!faults.outOfOrder) return sendFirst(t, id, s, sender);
  const waiting = held(t).get('held');
  if (waiting && deliveries(t).get(waiting.id)?.status === 'pending') {
    held(t).remove('held');
    t.scheduler.cancelFor(waiting.id, RELEASE);
    sendFirst(t, id, s, sender);
    sendFirst(t, waiting.id, s, sender);
    return;
  }
  const releaseAt = t.now() + LIMITS.holdSeconds * 1000;
  held(t).put('held', { id });
  update(t, id, { nextAttemptAt: iso(releaseAt) });
  t.scheduler.enqueue(RELEASE, id, releaseAt);
}

/** Whether terminal-first holds deliveries of this resource. */
function holds(t: Tenant, resource: string): boolean {
  for (const h of heldForFinal(t).values()) if (h.resource === resource) return true;
  return false;
}

/** Hold a delivery until its resource's final event, an hour at most; a key's 100th releases them all. */
function holdForFinal(t: Tenant, id: string, resource: string, s: SettingsRecord, sender: Sender): void {
  const col = heldForFinal(t);
  const jobRef = `${RELEASE_RESOURCE}:${resource}`;
  const until = t.scheduler.pending(jobRef)[0]?.dueAt ?? t.scheduler.enqueue(RELEASE_RESOURCE, jobRef, t.now() + LIMITS.terminalHoldSeconds * 1000, { resource }).dueAt;
  col.put(id, { id, resource });
  update(t, id, { nextAttemptAt: iso(until) });
  if (col.size < LIMITS.terminalHeldMax) return;
  for (const r of new Set([...col.values()].map((h) => h.resource))) t.scheduler.cancelFor(`${RELEASE_RESOURCE}:${r}`, RELEASE_RESOURCE);
  const all = [...col.values()];
  col.clear();
  for (const h of all) if (deliveries(t).get(h.id)?.status === 'pending') sendFirst(t, h.id, s, sender);
}

/** Send what terminal-first holds of a resource in order, after its final delivery `finalId` when given. */
function releaseResource(t: Tenant, resource: string, s: SettingsRecord, sender: Sender, finalId?: string): void {
  t.scheduler.cancelFor(`${RELEASE_RESOURCE}:${resource}`, RELEASE_RESOURCE);
  if (finalId) sendFirst(t, finalId, s, sender);
  const col = heldForFinal(t);
  for (const h of [...col.values()]) {
    if (h.resource !== resource) continue;
    col.remove(h.id);
    if (deliveries(t).get(h.id)?.status === 'pending') sendFirst(t, h.id, s, sender);
  }
}

/** The count behind `webhooks.forged`: among the scenario's counters, so binding a scenario restarts it. */
const FORGED_COUNTER = 'webhooks.forged';
const forgerySeeds = new WeakMap<Tenant, number>();

/** Whether the scenario's forged rule picks the next first attempt: every N-th, or a draw from the
 * key's seed and the count (so runs repeat under --seed), counted and drawn as a fault rule's. */
function picks(t: Tenant, rule: ForgedRule): boolean {
  const n = bump(t, FORGED_COUNTER);
  if (rule.every !== undefined) return n % rule.every === 0;
  let seed = forgerySeeds.get(t);
  if (seed === undefined) forgerySeeds.set(t, (seed = tenantSeed(t.globalSeed, `webhooks.forged:${t.id}`)));
  return draw(seed, FORGED_COUNTER, n) < (rule.probability ?? 0);
}

/**
 * A first attempt goes out. When the scenario's `webhooks.forged` picks it, a forgery of it goes
 * just before: a delivery of its own (its own webhook-id, the same event and body), marked with its
 * form and never retried. Probes, forgeries and test deliveries are not forged.
 */
function sendFirst(t: Tenant, id: string, s: SettingsRecord, sender: Sender): void {
  const d = deliveries(t).get(id);
  const rule = faultsOf(t, s).forged;
  if (rule && d && !unusual(d) && d.event !== TEST_EVENT && picks(t, rule)) {
    const forgedId = `msg_${createHash('sha256').update(`${d.id}:forged:${rule.form}`).digest('hex').slice(0, 24)}`;
    const now = t.nowIso();
    deliveries(t).put(forgedId, {
      id: forgedId,
      eventId: d.eventId,
      event: d.event,
      status: 'pending',
      tries: 0,
      nextAttemptAt: now,
      failureReason: null,
      createdAt: now,
      payload: d.payload,
      attempts: [],
      forged: rule.form,
    });
    sender.send(t, forgedId, 'initial');
    keepBounds(t, sender);
  }
  sender.send(t, id, 'initial');
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
  const h = heldForFinal(t).get(d.id);
  if (h) {
    heldForFinal(t).remove(d.id);
    if (!holds(t, h.resource)) t.scheduler.cancelFor(`${RELEASE_RESOURCE}:${h.resource}`, RELEASE_RESOURCE);
  }
}

/** At most pendingMax waiting and deliveriesKept kept; the oldest give way. It runs at every
 * delivery made, so it reads the log once: a year's advance makes one for each of thousands of moves,
 * and reading it twice and copying it each time made most of the advance's slices last 10 to 100 ms. */
function keepBounds(t: Tenant, sender: Sender): void {
  const col = deliveries(t);
  const pending: Delivery[] = [];
  for (const d of col.values()) if (d.status === 'pending') pending.push(d);
  for (let i = 0; pending.length - i > LIMITS.pendingMax; i++) {
    giveUp(t, pending[i], `Dropped: more than ${LIMITS.pendingMax} deliveries were waiting for this webhook.`, sender);
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
  return { id, url: s.url, secret: s.secret, body: JSON.stringify(d.payload), at: t.nowIso(), ...(d.forged ? { forged: d.forged } : {}) };
}

export const succeeded = (a: DeliveryAttempt) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;

/** Whether a delivery is a probe's or a forgery: marked in the log, never retried nor duplicated. */
const unusual = (d: Delivery) => d.probe === true || d.forged !== undefined;

/** Why a probe or a forgery ended as it did; null when it was a genuine one accepted. */
function unusualReason(d: Delivery, a: DeliveryAttempt): string | null {
  const got = a.error ?? `HTTP ${a.statusCode}`;
  if (d.forged) return succeeded(a) ? null : `Refused, as a forgery (${d.forged}) should be: ${got}. Forgeries are never retried.`;
  return succeeded(a) ? null : `No 2xx answer to a probe's genuine delivery: ${got}. Probes are never retried.`;
}

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
  if (unusual(d)) {
    // One attempt decides: a forgery refused is what should happen, and neither kind is tried again.
    const status = succeeded(attempt) ? 'succeeded' : 'failed';
    return deliveries(t).put(id, { ...next, status, nextAttemptAt: null, failureReason: unusualReason(d, attempt) });
  }
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

/** One attempt of an ordinary delivery, as statistics of the receiver read it. */
export interface OrdinaryAttempt {
  /** When it started, on the key's clock. */
  at: string;
  trigger: Trigger;
  /** Where it was sent: the webhook URL set at the time. */
  url: string;
  /** The receiver's HTTP status; null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface OrdinaryDelivery {
  id: string;
  event: string;
  status: Delivery['status'];
  createdAt: string;
  /** The reference of the resource it is about (an FX trade's tx_id), when its data names one. */
  reference?: string;
  attempts: OrdinaryAttempt[];
}

/**
 * The key's ordinary deliveries, oldest first: every delivery kept in the log but probes and
 * forgeries, which test the receiver rather than carry its traffic (test deliveries, event
 * `webhook.test`, are included), with each attempt's status and duration.
 */
export function ordinaryDeliveries(t: Tenant): OrdinaryDelivery[] {
  const out: OrdinaryDelivery[] = [];
  for (const d of deliveries(t).values()) {
    if (unusual(d)) continue;
    const attempts = d.attempts.map((a) => ({ at: a.at, trigger: a.trigger, url: a.url, statusCode: a.statusCode, durationMs: a.durationMs, error: a.error }));
    const reference = d.payload.data.reference ?? d.payload.data.tx_id;
    out.push({ id: d.id, event: d.event, status: d.status, createdAt: d.createdAt, ...(typeof reference === 'string' ? { reference } : {}), attempts });
  }
  return out;
}

/** Put deliveries already attempted (a probe's) in the log, within its bounds. */
export function logAttempted(t: Tenant, list: readonly Delivery[], sender: Sender): void {
  for (const d of list) deliveries(t).put(d.id, d);
  keepBounds(t, sender);
}

/** Why an attempted probe or forgery ended as it did (for deliveries logged already attempted). */
export const attemptedReason = unusualReason;

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
  if (!d) throw notFound('webhook delivery', id, 'id', `Send an id GET /_sandbox/webhooks/deliveries lists (the ${LIMITS.deliveriesKept} latest are kept).`);
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

export function deliveryJobs(sender: Sender, finals: Finals) {
  return {
    [RETRY]: (t: Tenant, job: Job) => {
      const d = deliveries(t).get(job.ref);
      const s = settingsOf(t);
      if (!d || d.status !== 'pending' || !s) return;
      if (job.data?.first) dispatchFirst(t, d.id, s, sender, finals);
      else sender.send(t, d.id, 'retry');
    },
    /** An hour passed with no final event of the resource: what was held goes, in order. */
    [RELEASE_RESOURCE]: (t: Tenant, job: Job) => {
      const s = settingsOf(t);
      if (s && typeof job.data?.resource === 'string') releaseResource(t, job.data.resource, s, sender);
    },
    [RELEASE]: (t: Tenant, job: Job) => {
      if (held(t).get('held')?.id !== job.ref) return;
      held(t).remove('held');
      const s = settingsOf(t);
      if (s && deliveries(t).get(job.ref)?.status === 'pending') sendFirst(t, job.ref, s, sender);
    },
  };
}
