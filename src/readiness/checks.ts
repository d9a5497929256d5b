// The go-live checks: each reads what the key already keeps (its readiness observations, its
// webhook deliveries, its last receiver probe) and gives a verdict with the evidence behind it.
// Nothing here runs on the request path: a report is built when it is asked for.
import { XML_KEPT, type CheckState, type Evidence, type ReadinessRecord } from '../engine/requests/observations.js';

export type CheckStatus = 'passed' | 'failed' | 'not_exercised';

export interface Check {
  id: string;
  title: string;
  status: CheckStatus;
  required: boolean;
  detail: string;
  evidence: Evidence[];
}

/** What a delivery shows the checks: its event, and each attempt's answer. */
export interface DeliverySeen {
  id: string;
  event: string;
  createdAt: string;
  /** The resource it is about, when its data names one. */
  reference?: string;
  attempts: readonly { at: string; statusCode: number | null; durationMs: number }[];
}

export interface ProbeSeen {
  at: string;
  passed: boolean;
  probes: readonly { form: string; status: number | null; rejected: boolean }[];
}

export interface CheckInputs {
  record: ReadinessRecord;
  /** The key's ordinary deliveries of real events: probes, forged ones and test deliveries (`webhook.test`), the sandbox's tests of the receiver, left out. */
  deliveries: readonly DeliverySeen[];
  /** How many test deliveries were attempted, which the checks do not count. */
  testDeliveries: number;
  probe: ProbeSeen | undefined;
  /** Whether a webhook is set now. */
  webhookSet: boolean;
  /** How long a webhook attempt may take before it counts as unanswered, ms. */
  attemptTimeoutMs: number;
  liveFormatKey: boolean;
}

/** The checks a key must pass, all of them exercised, to be ready. */
export const REQUIRED = ['retry-reuses-reference', 'webhook-signatures-verified', 'webhooks-acknowledged', 'handles-payout.failed'] as const;

/** A failure a partner meets by its event or by reading the state: the event, where it is read, and the state read. */
const FAILURES = [
  { event: 'payout.failed', read: '/api/v1/partners/payouts/', state: 'FAILED', what: 'a failed fiat payout' },
  { event: 'wallet_payout.failed', read: '/api/v1/partners/wallets/payouts/', state: 'FAILED', what: 'a failed wallet payout' },
  { event: 'withdrawal.failed', read: '/api/v1/partners/withdrawal/', state: 'FAILED', what: 'a failed bank withdrawal' },
  { event: 'transfer.failed', read: '/api/v1/transfers/', state: 'FAILED', what: 'a failed transfer' },
  { event: 'quote.expired', read: '/api/v1/partners/marketplace/quote/', state: 'expired', what: 'an expired quote' },
  { event: 'fx_trade.canc', read: '/api/v1/partners/fx/trades/', state: 'CANC', what: 'a cancelled FX trade' },
] as const;

/** The adversities a scenario's faults produce, by check. */
const FAULTS = [
  { id: 'handles-5xx', what: 'a 5xx answer', how: 'an error fault with a status of 500 or more' },
  { id: 'handles-429', what: 'a 429 answer', how: 'an error fault with status 429 (the rate-limited scenario)' },
  { id: 'handles-timeout', what: 'a request that timed out', how: 'a timeout fault' },
  { id: 'handles-drop', what: 'a dropped connection', how: 'a drop fault' },
  { id: 'handles-malformed', what: 'a malformed answer', how: 'a malformed fault' },
  { id: 'handles-drift', what: 'an answer drifted from the schema', how: 'a drift fault' },
] as const;

const ok = (d: { attempts: DeliverySeen['attempts'] }) => d.attempts.some((a) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300);
const deliveryEvidence = (d: DeliverySeen, note: string): Evidence => ({
  id: d.id,
  at: d.attempts.at(-1)?.at ?? d.createdAt,
  method: 'POST',
  path: '(your webhook URL)',
  sent: d.attempts.at(-1)?.statusCode ?? 'timeout',
  ...(d.reference !== undefined ? { reference: d.reference } : {}),
  note,
});

function fromState(id: string, title: string, state: CheckState | undefined, texts: { passed: string; failed: string; none: string }, required = false): Check {
  if (!state || state.met === 0) return { id, title, status: 'not_exercised', required, detail: texts.none, evidence: [] };
  return { id, title, status: state.failed ? 'failed' : 'passed', required, detail: state.failed ? texts.failed : texts.passed, evidence: state.evidence };
}

export function runChecks(i: CheckInputs): Check[] {
  const c = i.record.checks;
  const ordinary = i.deliveries.filter((d) => d.attempts.length > 0);
  const checks: Check[] = [];

  checks.push(
    fromState('retry-reuses-reference', 'A create retried after a failure reuses its reference', c['retry-reuses-reference'], {
      passed: 'After a create failed (5xx, timeout or dropped connection), the next create on that route reused its reference, or read the original back first.',
      failed: 'After a create failed, the same amount and destination were sent again under a new reference without reading the original back: on the live service that pays twice. Retry with the same reference; the sandbox answers a replay with the original result.',
      none: 'No create failed, so no retry was seen. Bind a scenario with a 5xx, timeout or drop fault on a create route (docs/scenario-recipes.md) and run your create flow.',
    }, true),
  );

  const probe = i.probe;
  checks.push({
    id: 'webhook-signatures-verified',
    title: 'The webhook receiver accepts genuine deliveries and refuses forged ones',
    required: true,
    status: !probe ? 'not_exercised' : probe.passed ? 'passed' : 'failed',
    detail: !probe
      ? 'No receiver probe was run. Set a webhook, then POST /_sandbox/webhooks/probe.'
      : probe.passed
        ? `The last probe (${probe.at}) was accepted genuine and refused every forgery.`
        : `The last probe (${probe.at}) failed: ${probe.probes.filter((p) => (p.form === 'genuine' ? p.rejected : !p.rejected)).map((p) => (p.form === 'genuine' ? `the genuine delivery was refused (${p.status ?? 'no answer'})` : `${p.form} was accepted (${p.status})`)).join('; ')}. Verify each delivery's signature and timestamp as Standard Webhooks says.`,
    evidence: probe ? probe.probes.map((p) => ({ id: 'probe', at: probe.at, method: 'POST', path: '(your webhook URL)', sent: p.status ?? 'timeout', note: `${p.form}: ${p.rejected ? 'refused' : 'accepted'}` })) : [],
  });

  const answered = ordinary.filter((d) => d.attempts.some((a) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300 && a.durationMs <= i.attemptTimeoutMs));
  const acknowledged = new Set(answered);
  const share = ordinary.length ? answered.length / ordinary.length : 0;
  const slowest = ordinary.flatMap((d) => d.attempts.map((a) => ({ d, a }))).reduce<{ d: DeliverySeen; a: DeliverySeen['attempts'][number] } | undefined>((w, x) => (!w || x.a.durationMs > w.a.durationMs ? x : w), undefined);
  checks.push({
    id: 'webhooks-acknowledged',
    title: 'Webhook deliveries are acknowledged with a 2xx in time',
    required: true,
    status: ordinary.length === 0 ? 'not_exercised' : share >= 0.95 ? 'passed' : 'failed',
    detail:
      ordinary.length === 0
        ? i.testDeliveries > 0
          ? `Only test deliveries (webhook.test, ${i.testDeliveries}) were sent, which show the receiver answers but not that it takes the events of a flow: they are not counted. Run a flow that records events (a payout, a transfer) with the webhook set.`
          : 'No webhook was delivered. Set a webhook (PUT /_sandbox/webhooks) and run a flow that records events.'
        : `${answered.length} of ${ordinary.length} deliveries (${Math.round(share * 1000) / 10} %) got a 2xx within ${i.attemptTimeoutMs / 1000} s; 95 % are needed. The slowest answer took ${slowest!.a.durationMs} ms (${slowest!.d.event}, ${slowest!.d.id}).`,
    // The deliveries left unacknowledged; when there are none, the slowest answer the detail names.
    evidence: answered.length < ordinary.length
      ? ordinary.filter((d) => !acknowledged.has(d)).slice(-5).map((d) => deliveryEvidence(d, `${d.event}: no 2xx in time`))
      : slowest
        ? [{ ...deliveryEvidence(slowest.d, `${slowest.d.event}: the slowest answer, ${slowest.a.durationMs} ms`), at: slowest.a.at, sent: slowest.a.statusCode ?? 'timeout' }]
        : [],
  });

  for (const f of FAILURES) {
    const delivered = ordinary.filter((d) => d.event === f.event && ok(d));
    const read = c[`read:${f.read}${f.state}`];
    const met = delivered.length > 0 || (read !== undefined && read.met > 0);
    checks.push({
      id: `handles-${f.event}`,
      title: `Meets ${f.what}`,
      required: (REQUIRED as readonly string[]).includes(`handles-${f.event}`),
      status: met ? 'passed' : 'not_exercised',
      detail: met
        ? `Met ${f.what}: ${delivered.length ? `the ${f.event} webhook was acknowledged with a 2xx` : `the ${f.state} state was read back`}.`
        : `Never met ${f.what}. Make one fail (a scenario's outcome rule or a test value, docs/magic-values.md) and take its ${f.event} webhook or read its state.`,
      evidence: [...delivered.slice(-3).map((d) => deliveryEvidence(d, `${f.event} acknowledged`)), ...(read?.evidence.slice(-2) ?? [])],
    });
  }

  for (const f of FAULTS) {
    checks.push(
      fromState(f.id, `Survives ${f.what}`, c[f.id], {
        passed: `Met ${f.what}, and did not hammer the same request after it.`,
        failed: `After ${f.what}, the same request was resent unchanged, less than a second apart, three times or more: back off before retrying.`,
        none: `Never met ${f.what}. Bind a scenario with ${f.how} (docs/scenario-recipes.md).`,
      }),
    );
  }

  checks.push(
    fromState('retry-after-honoured', 'Retry-After is waited for', c['retry-after-honoured'], {
      passed: 'After a 429 with Retry-After, the next call to that route waited at least that long.',
      failed: 'After a 429 with Retry-After, the next call to that route came before the time it gave: wait at least Retry-After seconds.',
      none: 'No 429 with Retry-After was answered, or no call followed it. Bind the rate-limited scenario.',
    }),
    fromState('no-blind-retry-of-4xx', 'A refused request is not resent unchanged', c['no-blind-retry-of-4xx'], {
      passed: 'No refused request (a 4xx other than 409 and 429) was sent unchanged three times in a row.',
      failed: 'The same refused request was sent unchanged three times or more in a row: a 4xx will not change on its own; fix the request.',
      none: 'No request was refused.',
    }),
  );

  // Reads count only while a webhook is set; what they showed then stands after it is removed.
  const polling = c['polling-moderate'];
  checks.push(
    !i.webhookSet && (!polling || polling.met === 0)
      ? { id: 'polling-moderate', title: 'Resources are not polled harder than once a second', required: false, status: 'not_exercised', detail: 'No webhook is set, so reading resources back is how this integration learns their state.', evidence: [] }
      : fromState('polling-moderate', 'Resources are not polled harder than once a second', polling, {
          passed: 'With a webhook set, no resource was read more than 60 times within any 60 s.',
          failed: 'A resource was read more than 60 times within 60 s while a webhook was set: rely on the webhook, and poll with backoff at most.',
          none: 'No resource was read.',
        }),
  );

  const { seen, refused: refusedAt } = i.record.fx;
  const last = Math.min(seen, XML_KEPT);
  const refused = refusedAt.filter((n) => seen - n < XML_KEPT).length;
  checks.push({
    id: 'xml-valid',
    title: 'FX requests are valid XML of their message',
    required: false,
    status: seen === 0 ? 'not_exercised' : refused === 0 ? 'passed' : 'failed',
    detail:
      seen === 0
        ? 'No FX request was made.'
        : refused === 0
          ? `None of the last ${last} FX requests was refused for its XML.`
          : `${refused} of the last ${last} FX requests were refused for their XML: not well formed, or not as the message's XSD says (GET /xsd/{file}).`,
    // The refusals among the last XML_KEPT: an older one decides nothing.
    evidence: refused === 0 ? [] : (c['xml-valid']?.evidence ?? []).slice(-refused),
  });

  checks.push({
    id: 'key-format',
    title: "The key has the live service's format",
    required: false,
    status: 'passed',
    detail: i.liveFormatKey
      ? "The key has the live service's format (sk_test_ or sk_live_ and 32 lowercase hex characters)."
      : "Advisory: the key is a readable sandbox key, not of the live service's format (sk_test_ or sk_live_ and 32 lowercase hex characters). Readable keys are welcome here; make sure your configuration takes the live format.",
    evidence: [],
  });
  return checks;
}

/** Ready: no check failed, and every required check was exercised. */
export const isReady = (checks: readonly Check[]) => checks.every((c) => c.status !== 'failed' && (!c.required || c.status === 'passed'));
