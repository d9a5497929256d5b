// Probes of the partner's receiver (POST /_sandbox/webhooks/probe): one genuine signed delivery and
// one of each forgery (forge.ts), all sent at once to the key's URL, outside the outbox's queue but
// under its target policy and timeout. The receiver passes when it accepts the genuine one (a
// receiver that refuses everything proves nothing) and refuses every forgery. Each probe is logged
// as a delivery marked `probe` (and `forged`), never retried; the key's last result is kept across
// a reset, for the readiness report.
//
// A probe is planned in the request's session (its ids drawn, the plan written, so the key's next
// session draws others) and its result recorded in another: on a shared store the key's lock is let
// go while the receiver is posted to (up to the attempt timeout), so a receiver that calls the
// sandbox back with the same key is answered meanwhile, as the outbox's attempts allow.
import { SandboxError } from '../../kernel/errors.js';
import type { EventCatalog } from '../../engine/registry/events.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { attemptedReason, logAttempted, succeeded, type Sender } from './deliveries.service.js';
import { PROBE_FORMS, type ProbeForm } from './forge.js';
import type { Outbox } from './outbox.js';
import type { Delivery, DeliveryAttempt, ProbeResult } from './webhooks.schema.js';
import { settingsOf } from './webhooks.service.js';

/** The collection the key's last probe result is kept in; a reset keeps it, as it keeps the settings. */
export const PROBE_COLLECTION = 'webhook_probe';
const probes = (t: Tenant) => t.store.collection<LastProbe | PlannedProbe>(PROBE_COLLECTION);

/** A probe being sent (until its result is recorded): when, its deliveries' ids, and the base
 * clock's instant its attempts have all timed out by (a replica may probe while another sends one). */
interface PlannedProbe {
  at: string;
  ids: string[];
  until?: number;
}

/** The key's last probe: when (the key's clock), the URL probed, and what it answered. */
export interface LastProbe extends ProbeResult {
  at: string;
  url: string;
}

/** The key's last probe result, or undefined when it never probed its receiver. */
export function lastProbe(t: Tenant): LastProbe | undefined {
  return probes(t).get('last') as LastProbe | undefined;
}

/** Forget the key's last probe result (DELETE /_sandbox/report judges a new run from nothing). */
export function forgetProbe(t: Tenant): void {
  probes(t).remove('last');
}

/** The event a probe carries: a real event of the API, about a payout that does not exist. */
const PROBE_EVENT = 'payout.successful';

function probePayload(t: Tenant, catalog: EventCatalog, reference: string, at: string): Delivery['payload'] {
  if (!catalog.names.get('payout')?.includes(PROBE_EVENT)) {
    // An app without fiat payouts (a test's own domain list): the last event of its first resource.
    const first = catalog.names.get(catalog.resources[0]);
    return { event: first?.at(-1) ?? PROBE_EVENT, data: { reference, created_at: at, updated_at: at } };
  }
  return {
    event: PROBE_EVENT,
    data: {
      reference,
      amount: 2500,
      currency: 'NGN',
      status: 'SUCCESSFUL',
      fee: 10,
      destination: { account_number: '0123456789', account_name: 'John Doe', bank_code: '058', bank_name: 'Guaranty Trust Bank' },
      narration: 'Webhook receiver probe',
      transaction_reference: `HPR-TRSF-${t.random.hex(24, 'upper')}`,
      failure_reason: null,
      created_at: at,
      updated_at: at,
      estimated_completion_at: at,
    },
  };
}

const noWebhook = () =>
  new SandboxError('INVALID_STATE_TRANSITION', 'No webhook is set for this API key, so there is no receiver to probe. Set one with PUT /_sandbox/webhooks first.');

/** Probes in flight at once for all keys: each sends seven requests outside the outbox's queues. */
export const MAX_PROBES = 8;

/** Probes for one app: one in flight per key at a time, MAX_PROBES for all keys. */
export function prober(outbox: Outbox, sender: Sender, catalog: EventCatalog) {
  const inFlight = new Set<string>();
  /** `outside` runs the posts with the key's tenant let go (see http/types.ts); by default they run
   * within the request. */
  return async function probe(t: Tenant, outside: <T>(work: () => Promise<T>) => Promise<T> = (work) => work()): Promise<ProbeResult> {
    const s = settingsOf(t);
    if (!s) throw noWebhook();
    const planned = probes(t).get('planned') as PlannedProbe | undefined;
    // One in flight per key: in this process, or on another replica (its plan is in the tenant
    // until its result is; a plan past its attempts' timeout was cut short and is replaced).
    if (inFlight.has(t.id) || (planned?.until !== undefined && planned.until > t.baseNow())) {
      const wait = String(Math.ceil(outbox.options.timeoutMs / 1000));
      throw new SandboxError('RATE_LIMITED', 'A probe of this key is already under way; one runs at a time. Try again once it has answered.', [], { 'Retry-After': wait });
    }
    if (inFlight.size >= MAX_PROBES) {
      const wait = String(Math.ceil(outbox.options.timeoutMs / 1000));
      throw new SandboxError('SERVICE_UNAVAILABLE', `This sandbox has ${MAX_PROBES} receiver probes under way for all keys, the most it runs at once. Retry after ${wait} s.`, [], { 'Retry-After': wait });
    }
    inFlight.add(t.id);
    try {
      const at = t.nowIso();
      const reference = `probe-${t.random.hex(16)}`;
      const payload = probePayload(t, catalog, reference, at);
      const body = JSON.stringify(payload);
      const sent = PROBE_FORMS.map((form) => ({ form, id: `msg_${t.random.hex(24)}` }));
      probes(t).put('planned', { at, ids: sent.map((x) => x.id), until: t.baseNow() + outbox.options.timeoutMs + 1000 });
      const results = await outside(() =>
        Promise.all(sent.map(({ form, id }) => outbox.postAtOnce({ id, url: s.url, secret: s.secret, body, at, ...(form === 'genuine' ? {} : { forged: form }) }))),
      );
      // This probe's plan only: past its deadline another replica's probe may have put its own.
      if ((probes(t).get('planned') as PlannedProbe | undefined)?.ids[0] === sent[0].id) probes(t).remove('planned');
      const logged: Delivery[] = sent.map(({ form, id }, i) => {
        const r = results[i];
        const attempt: DeliveryAttempt = { at, trigger: 'initial', url: s.url, ...r };
        const d: Delivery = {
          id,
          eventId: `evt_probe_${reference.slice('probe-'.length)}`,
          event: payload.event,
          status: succeeded(attempt) ? 'succeeded' : 'failed',
          tries: 1,
          nextAttemptAt: null,
          failureReason: null,
          createdAt: at,
          payload,
          attempts: [attempt],
          probe: true,
          ...(form === 'genuine' ? {} : { forged: form }),
        };
        return { ...d, failureReason: attemptedReason(d, attempt) };
      });
      logAttempted(t, logged, sender);
      const outcomes = sent.map(({ form }, i) => ({ form, status: results[i].statusCode, rejected: !succeeded(logged[i].attempts[0]) }));
      const passed = outcomes.every((o) => o.rejected === (o.form !== ('genuine' satisfies ProbeForm)));
      probes(t).put('last', { at, url: s.url, passed, probes: outcomes });
      return { passed, probes: outcomes };
    } finally {
      inFlight.delete(t.id);
    }
  };
}
