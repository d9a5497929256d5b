// What the readiness report judges a key's integration by, observed as its requests are answered.
// The journal keeps only a key's last requests, in memory, per replica; this record is small and
// bounded (counters, the latest evidence of each check), kept in the key's store like its settings,
// so verdicts survive a long suite, a reset, a restart and another replica; the times of the last
// reads of the resources read lately are kept beside it, in memory. Each request updates them in
// O(1); a request's body is read only in the rare states that need it (a create after a failed one,
// a request resent after a refusal or a fault). src/readiness/ turns it into verdicts.
import { createHash } from 'node:crypto';
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { Collection } from '../../store/store.js';
import type { FaultKind } from './types.js';

/** Where a verdict came from: the request behind it, as the journal names it. */
export interface Evidence {
  /** The journal entry's id (`req_12`), when the journal gave one. */
  id: string;
  at: string;
  method: string;
  path: string;
  /** What the client got: a status, or `dropped` / `timeout`. */
  sent: number | 'dropped' | 'timeout';
  reference?: string;
  note?: string;
}

export interface CheckState {
  /** Times the check was met (exercised), and the verdict so far. */
  met: number;
  failed: boolean;
  /** The latest evidence, newest last, at most EVIDENCE_KEPT. */
  evidence: Evidence[];
}

export interface ReadinessRecord {
  checks: Record<string, CheckState>;
  /** A create that failed (5xx, timeout or drop), waiting for the partner's next create on its route. */
  pendingRetry?: { route: string; reference: string; fingerprint: string; at: number; evidence: Evidence; readBack: boolean };
  /** A 429 with Retry-After, waiting for the next call to its route. */
  pendingWait?: { route: string; until: number; seconds: number; evidence: Evidence };
  /** The last refused request (4xx but 409 and 429), by fingerprint, and how often it came unchanged in a row. */
  lastRefused?: { fingerprint: string; count: number };
  /** The last fault the key met, while its identical resends are watched. */
  lastFault?: { check: string; fingerprint: string; at: number; quick: number };
  /** The key's FX requests: how many were made, and the numbers of the last XML_KEPT refused for their XML. */
  fx: { seen: number; refused: number[] };
  /** Whether a webhook is set, as the webhooks domain tells it: reads count for polling only while one is. */
  webhookSet?: boolean;
  /** The URL of the webhook set last, kept after it is removed: the receiver the report judges. */
  webhookUrl?: string;
}

/** What the observer is told of one answered request. */
export interface Observed {
  id: string;
  at: string;
  /** The key's clock, ms. */
  now: number;
  method: string;
  path: string;
  sent: number | 'dropped' | 'timeout';
  fault: { kind: FaultKind; form?: string; field?: string | null } | null;
  /** The answer's error code, when it was an error. */
  errorCode: string | undefined;
  /** Whether the error refused the request's body as its schema says (`SandboxError.bodyInvalid`). */
  bodyInvalid: boolean;
  retryAfter: string | undefined;
  /** The request's Idempotency-Key header: what ties a retry to its create where the body has no reference (withdrawals). */
  idempotencyKey?: string;
  /** The answer's body object (JSON answers). */
  response: unknown;
  /** The request's body text, read only when needed. */
  body(): Promise<string | undefined> | undefined;
  /** The request's body as JSON, when it is JSON: the route's own parse, read only when needed. */
  json(): Promise<unknown>;
}

export const EVIDENCE_KEPT = 5;
export const XML_KEPT = 100;
/** A create under a new reference this long after a failed one, with the same amount and destination, is the double-payout bug. */
export const RETRY_WINDOW_MS = 10 * 60_000;
/** Resends of the same request closer together than this, three times after a fault, are blind. */
const QUICK_MS = 1000;
const BLIND_AFTER = 3;
/** Polling: more than READS_ALLOWED reads of one resource within any READ_WINDOW_MS fails; the reads
 * of READS_TRACKED resources at most are kept at once. */
const READ_WINDOW_MS = 60_000;
const READS_ALLOWED = 60;
const READS_TRACKED = 64;
/** The first times kept of a resource's reads: most resources are read a few times, so the list
 * grows (to 16, then READS_ALLOWED) only for one read more. */
const READS_FIRST = 4;

/** A resource's reads while a webhook is set: the times of its last READS_ALLOWED reads (a ring: the
 * n-th read, from 0, at n % READS_ALLOWED), how many there were, and when its entry was last made
 * the newest of the map. */
interface Reads {
  times: Float64Array;
  count: number;
  placed: number;
}

const FX_PREFIX = '/api/v1/partners/fx/';
const COLLECTION = 'readiness';

const emptyRecord = (): ReadinessRecord => ({ checks: {}, fx: { seen: 0, refused: [] } });

export class Observations {
  /** The record being updated, read from the store for each request (another replica may have written it). */
  private record: ReadinessRecord = emptyRecord();
  /** The last reads of each resource path; in memory only: the verdict is what is kept. */
  private readonly reads = new BoundedMap<string, Reads>(READS_TRACKED);

  constructor(private readonly store: Collection<ReadinessRecord>) {}

  /** The record as kept. */
  get current(): ReadinessRecord {
    return this.store.get('record') ?? emptyRecord();
  }

  /** Forget every observation (DELETE /_sandbox/report); whether a webhook is set, and which was set last, stay known. */
  clear(): void {
    const { webhookSet, webhookUrl } = this.store.get('record') ?? {};
    this.record = emptyRecord();
    this.reads.clear();
    if (webhookSet === undefined) this.store.remove('record');
    else this.store.put('record', { ...emptyRecord(), webhookSet, ...(webhookUrl !== undefined ? { webhookUrl } : {}) });
  }

  /**
   * A webhook was set to `url`, or removed (undefined) (PUT or DELETE /_sandbox/webhooks): reads are
   * counted for polling only while one is set; the URL set last is kept after it is removed, so the
   * report still judges the receiver the deliveries and probes went to.
   */
  webhook(url: string | undefined): void {
    const r = this.store.get('record') ?? emptyRecord();
    const set = url !== undefined;
    if (!set) this.reads.clear();
    if (r.webhookSet !== set || (set && r.webhookUrl !== url)) this.store.put('record', { ...r, webhookSet: set, webhookUrl: url ?? r.webhookUrl });
  }

  /**
   * A reset of the key (POST /_sandbox/reset): the verdicts stay; what waited for a next request (a
   * failed create's retry, a Retry-After, a refusal or a fault being resent) and the reads counted
   * end, since the resources they concerned are forgotten and the key's clock begins again.
   */
  afterReset(): void {
    this.reads.clear();
    const r = this.store.get('record');
    if (r && (r.pendingRetry || r.pendingWait || r.lastFault || r.lastRefused)) this.store.put('record', { checks: r.checks, fx: r.fx, webhookSet: r.webhookSet, webhookUrl: r.webhookUrl });
  }

  /**
   * Whether an answer may change the record. A successful create or change (not FX), with no
   * failure, wait or refusal pending, changes nothing: most requests of a suite stop here.
   */
  wants(method: string, path: string, sent: Observed['sent'], faulted: boolean): boolean {
    if (faulted || typeof sent !== 'number' || sent >= 300 || method === 'GET' || path.startsWith(FX_PREFIX)) return true;
    const r = this.store.get('record');
    return r !== undefined && (r.pendingRetry !== undefined || r.pendingWait !== undefined || r.lastFault !== undefined || r.lastRefused !== undefined);
  }

  observe(o: Observed): Promise<void> | void {
    const r = (this.record = this.store.get('record') ?? emptyRecord());
    let changed = false;
    const create = o.method === 'POST' && o.path.startsWith('/api/');
    const failed = o.sent === 'dropped' || o.sent === 'timeout' || (typeof o.sent === 'number' && o.sent >= 500);
    // The body is read only around failures: a failed or faulted answer, a refusal, a create while a
    // failed one waits for its retry, and any request within seconds of a fault.
    const needsBody =
      failed || o.fault !== null || o.sent === 429 || isRefused(o) || (create && r.pendingRetry !== undefined) || (r.lastFault !== undefined && o.now - r.lastFault.at < 10 * QUICK_MS);
    if (needsBody) return this.withBody(o, failed, create);
    if (r.pendingWait && r.pendingWait.route === route(o)) changed = this.judgeWait(o) || changed;
    if (r.lastRefused && o.method !== 'GET') {
      r.lastRefused = undefined;
      changed = true;
    }
    changed = this.judgeAnswer(o) || changed;
    if (changed) this.save();
  }

  private async withBody(o: Observed, failed: boolean, create: boolean): Promise<void> {
    const r = this.record;
    const text = (await o.body()) ?? '';
    // A create's body, read once for what makes it a retry: its reference, amount and destination.
    const body = create ? asBody(await o.json()) : undefined;
    // Another request of the key may have been observed while the body was read: this one goes on
    // with the record it began with.
    this.record = r;
    const fp = fingerprint(o.method, o.path, text);
    if (r.pendingWait && r.pendingWait.route === route(o)) this.judgeWait(o);
    if (create && r.pendingRetry && r.pendingRetry.route === route(o)) this.judgeRetry(o, body);
    if (create && failed) {
      // A create sent with neither (an FX trade, a withdrawal without Idempotency-Key) has no retry to
      // judge; nor has an FX trade sent with an Idempotency-Key, which the FX interface does not read.
      const reference = o.path.startsWith(FX_PREFIX) ? undefined : referenceOf(body, o);
      if (reference !== undefined) r.pendingRetry = { route: route(o), reference, fingerprint: payment(body), at: o.now, evidence: evidenceOf(o, reference), readBack: false };
    }
    // Blind resends: the same refused request again and again, or the same request hammered after a fault.
    if (isRefused(o)) {
      const count = r.lastRefused?.fingerprint === fp ? r.lastRefused.count + 1 : 1;
      r.lastRefused = { fingerprint: fp, count };
      this.met('no-blind-retry-of-4xx', o, count >= BLIND_AFTER, count >= BLIND_AFTER ? `sent unchanged ${count} times in a row, each refused` : undefined);
    } else if (o.method !== 'GET') r.lastRefused = undefined;
    // The same request again within a second of the last, whether or not the fault struck again.
    let hammered: string | undefined;
    if (r.lastFault && r.lastFault.fingerprint === fp) {
      const quick = o.now - r.lastFault.at < QUICK_MS ? r.lastFault.quick + 1 : 0;
      r.lastFault = { ...r.lastFault, at: o.now, quick };
      if (quick >= BLIND_AFTER) this.met((hammered = r.lastFault.check), o, true, `resent unchanged ${quick} times, less than 1 s apart, after the fault`);
    }
    this.judgeAnswer(o, fp, hammered);
    this.save();
  }

  /** The checks every answer may meet: faults, 429s, reads of a resource's state, FX XML; `judged`, a
   * check this request was already judged for (a fault hammered), is not met again by it. */
  private judgeAnswer(o: Observed, fp?: string, judged?: string): boolean {
    const r = this.record;
    let changed = false;
    const check = faultCheck(o);
    if (check) {
      if (check !== judged) this.met(check, o, false);
      const quick = fp !== undefined && r.lastFault?.fingerprint === fp ? r.lastFault.quick : 0;
      r.lastFault = fp === undefined ? undefined : { check, fingerprint: fp, at: o.now, quick };
      changed = true;
    }
    if (o.sent === 429 && o.retryAfter !== undefined) {
      const seconds = Number(o.retryAfter);
      if (Number.isFinite(seconds) && seconds > 0) {
        r.pendingWait = { route: route(o), until: o.now + seconds * 1000, seconds, evidence: evidenceOf(o) };
        changed = true;
      }
    }
    // Reading the failed create's reference back, whatever the answer (a 404 says it was never made).
    if (o.method === 'GET' && r.pendingRetry && !r.pendingRetry.readBack && names(o.path, r.pendingRetry.reference)) {
      r.pendingRetry.readBack = true;
      changed = true;
    }
    if (o.method === 'GET' && o.sent === 200) changed = this.judgeRead(o) || changed;
    if (o.path.startsWith(FX_PREFIX) && o.method !== 'GET') {
      // Counted in the record as it stands; written only when it matters (the first, a refusal, and
      // each request while a refusal is among the last XML_KEPT, so that the store knows when it
      // leaves them), so a stream of good FX requests after those rewrites nothing.
      const refused = refusedForXml(o);
      if (++r.fx.seen === 1) changed = true;
      const lastRefused = r.fx.refused.at(-1);
      if (lastRefused !== undefined && r.fx.seen - lastRefused <= XML_KEPT) changed = true;
      if (refused) {
        r.fx.refused.push(r.fx.seen);
        if (r.fx.refused.length > XML_KEPT) r.fx.refused.shift();
        this.met('xml-valid', o, true, 'refused for its XML: not well formed, or not as its XSD says');
        changed = true;
      }
    }
    return changed;
  }

  /** A 200 to a read: the state it showed (a failed payout read is the failure met), and how often the resource is read. */
  private judgeRead(o: Observed): boolean {
    const r = this.record;
    let changed = false;
    const shown = stateRead(o.response);
    const status = stateShown(o) ? shown : undefined;
    if (status !== undefined) {
      const key = `read:${o.path.slice(0, o.path.lastIndexOf('/') + 1)}${status}`;
      const state = r.checks[key];
      if (!state || state.met === 0) {
        this.met(key, o, false);
        changed = true;
      }
    }
    if (shown !== undefined && r.webhookSet) {
      // Polling, while a webhook is set: a read of one resource (an answer with a status) less than a
      // minute after the read READS_ALLOWED before it is one too many, wherever the minute begins.
      const read = readKeyOf(o);
      let w = this.reads.get(read);
      if (!w) this.reads.set(read, (w = { times: new Float64Array(READS_FIRST), count: 0, placed: o.now }));
      else if (o.now - w.placed >= READ_WINDOW_MS) {
        // Once a minute a resource still read becomes the newest entry: the one read longest ago goes
        // first when the map is full.
        this.reads.delete(read);
        this.reads.set(read, w);
        w.placed = o.now;
      }
      const slot = w.count % READS_ALLOWED;
      const earlier = w.count >= READS_ALLOWED ? w.times[slot] : undefined;
      if (slot === w.times.length) w.times = grown(w.times);
      w.times[slot] = o.now;
      w.count++;
      if (!r.checks['polling-moderate']) {
        this.met('polling-moderate', o, false);
        changed = true;
      }
      if (earlier !== undefined && o.now - earlier < READ_WINDOW_MS && !r.checks['polling-moderate']!.failed) {
        this.met('polling-moderate', o, true, `read ${READS_ALLOWED + 1} times within ${Math.round((o.now - earlier) / 100) / 10} s`);
        changed = true;
      }
    }
    return changed;
  }

  private judgeWait(o: Observed): boolean {
    const w = this.record.pendingWait!;
    this.record.pendingWait = undefined;
    const waited = o.now >= w.until;
    this.met('retry-after-honoured', o, !waited, waited ? undefined : `came ${Math.round((w.until - o.now) / 100) / 10} s before the ${w.seconds} s of Retry-After had passed`);
    return true;
  }

  private judgeRetry(o: Observed, body: Body): void {
    const p = this.record.pendingRetry!;
    const reference = referenceOf(body, o);
    const by = body?.reference === undefined ? 'Idempotency-Key' : 'reference';
    if (reference !== undefined && reference === p.reference) {
      this.met('retry-reuses-reference', o, false, `retried under the same ${by} ${reference}`, reference);
      this.record.pendingRetry = undefined;
    } else if (o.now - p.at > RETRY_WINDOW_MS || payment(body) !== p.fingerprint) {
      // Another payment, or long after: not a retry of the failed one.
      if (o.now - p.at > RETRY_WINDOW_MS) this.record.pendingRetry = undefined;
    } else if (p.readBack) {
      this.met('retry-reuses-reference', o, false, `read ${p.reference} back before creating ${reference ?? 'a new one'}`, reference);
      this.record.pendingRetry = undefined;
    } else {
      this.met('retry-reuses-reference', o, true, `after ${p.reference} failed (${p.evidence.id || p.evidence.at}), the same amount and destination were sent again ${reference === undefined ? `without ${by === 'reference' ? 'a reference' : 'an Idempotency-Key'}` : `as ${reference}`}, and ${p.reference} was not read back first: a double payment on the live service`, reference);
      this.record.pendingRetry = undefined;
    }
  }

  private met(check: string, o: Observed, failed: boolean, note?: string, reference?: string): void {
    const state = (this.record.checks[check] ??= { met: 0, failed: false, evidence: [] });
    state.met++;
    if (failed) state.failed = true;
    state.evidence.push(evidenceOf(o, reference, note));
    if (state.evidence.length > EVIDENCE_KEPT) state.evidence.shift();
  }

  private save(): void {
    this.store.put('record', this.record);
  }
}

/**
 * Whether the answer showed the partner the resource's state as it is: not a malformed one, nor one
 * whose drift changed the status itself (`status`, `data.status`, an FX message's `Sts`); a delay,
 * or a drift of another field, left it shown.
 */
function stateShown(o: Pick<Observed, 'fault'>): boolean {
  if (o.fault === null || o.fault.kind === 'latency') return true;
  if (o.fault.kind !== 'drift') return false;
  return !/(^|[./])(status|Sts)$/.test(o.fault.field ?? 'status');
}

/** The check a fault's answer meets, when it met one. */
function faultCheck(o: Observed): string | undefined {
  if (o.fault) {
    if (o.fault.kind === 'error') return o.sent === 429 ? 'handles-429' : typeof o.sent === 'number' && o.sent >= 500 ? 'handles-5xx' : undefined;
    if (o.fault.kind === 'latency') return undefined;
    return `handles-${o.fault.kind}`;
  }
  if (o.sent === 429) return 'handles-429';
  return typeof o.sent === 'number' && o.sent >= 500 ? 'handles-5xx' : undefined;
}

/** A resource's read times, with room for more (the ring of READS_ALLOWED at most). */
function grown(times: Float64Array): Float64Array {
  const more = new Float64Array(Math.min(READS_ALLOWED, times.length * 4));
  more.set(times);
  return more;
}

/**
 * Whether a read names `reference` as its path's last segment, decoded as the partner's client
 * encoded it (`order%201`, `order%2F1`, `order%2f1`, `100%25`; the router decodes some of it only,
 * which is what the path holds), so that it matches the reference a body gave as text. A segment
 * that is no valid encoding is taken as it is.
 */
function names(path: string, reference: string): boolean {
  const segment = path.slice(path.lastIndexOf('/') + 1);
  if (segment === reference) return true;
  if (!segment.includes('%')) return false;
  try {
    return decodeURIComponent(segment) === reference;
  } catch {
    return false;
  }
}

/** A refused request worth watching for blind resends: one that asks for a change (a read that is refused changes nothing, and writes nothing here). */
const isRefused = (o: Pick<Observed, 'method' | 'sent'>) => o.method !== 'GET' && typeof o.sent === 'number' && o.sent >= 400 && o.sent < 500 && o.sent !== 409 && o.sent !== 429;
const route = (o: Observed) => `${o.method} ${o.path}`;

function evidenceOf(o: Observed, reference?: string, note?: string): Evidence {
  const e: Evidence = { id: o.id, at: o.at, method: o.method, path: o.path, sent: o.sent };
  if (reference !== undefined) e.reference = reference;
  if (note !== undefined) e.note = note;
  return e;
}

const fingerprint = (method: string, path: string, body: string) => createHash('sha256').update(`${method} ${path}\n${body}`).digest('base64url').slice(0, 22);

type Body = Record<string, unknown> | undefined;

/**
 * The state a read of one resource showed: the fiat payout's envelope holds it in `data.status`; a
 * wallet payout, withdrawal, transfer or quote is answered as the record itself (`status`); an FX
 * trade's status message carries it in its first `Sts`. A list (`data` an array) shows none.
 */
function stateRead(response: unknown): string | undefined {
  if (typeof response === 'string') {
    return response.includes('<FXTradStsAndDtlsNtfctn') ? /<Sts>([^<]{1,35})<\/Sts>/.exec(response)?.[1] : undefined;
  }
  if (!response || typeof response !== 'object' || Array.isArray(response)) return undefined;
  const answer = response as { status?: unknown; data?: unknown };
  const record = 'data' in answer ? answer.data : answer;
  if (!record || typeof record !== 'object' || Array.isArray(record)) return undefined;
  const status = (record as { status?: unknown }).status;
  return typeof status === 'string' ? status : undefined;
}

/** The resource a read showed, for counting its reads: the path with the id (or reference) its answer
 * gives in place of the last segment, so that an id the sandbox finds in any letter case (a withdrawal's, a
 * bulk file's) is one resource however it is written; the path itself when the answer gives none. */
function readKeyOf(o: Observed): string {
  const answer = o.response;
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return o.path;
  const record = 'data' in answer ? (answer as { data?: unknown }).data : answer;
  const named = record && typeof record === 'object' && !Array.isArray(record) ? (record as { id?: unknown; reference?: unknown }) : undefined;
  const id = typeof named?.id === 'string' ? named.id : named?.reference;
  return typeof id === 'string' ? `${o.path.slice(0, o.path.lastIndexOf('/') + 1)}${id}` : o.path;
}

const asBody = (v: unknown): Body => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** What ties a create to its retries: the body's reference, else the Idempotency-Key header. */
function referenceOf(body: Body, o: Pick<Observed, 'idempotencyKey'>): string | undefined {
  const ref = body?.reference;
  return typeof ref === 'string' ? ref : o.idempotencyKey;
}

/**
 * What makes two creates the same payment: their amount, currency and destination, as each create
 * names them: a payout's or transfer's currency and destination, a wallet payout's asset, chain and
 * toAddress, a withdrawal's account, a quote's currencies.
 */
function payment(body: Body): string {
  const b = body ?? {};
  const account = b.accountId !== undefined || b.accountNumber !== undefined ? [b.accountId, b.accountNumber, b.bankCode] : undefined;
  return JSON.stringify([b.amount, b.currency ?? b.asset ?? b.sourceCurrency ?? null, b.chain ?? b.destinationCurrency ?? null, b.destination ?? b.toAddress ?? b.address ?? account ?? null]);
}

/**
 * An FX request refused for its XML by the sandbox: not well formed (MALFORMED_XML), or not as its
 * message's XSD says (a VALIDATION_ERROR flagged as refusing the body). A refusal for another reason
 * (an Accept header with no XML type, a destination that cannot receive the currency bought), and an
 * error a scenario's fault answered with in place of the route, are no fault of the XML.
 */
function refusedForXml(o: Pick<Observed, 'errorCode' | 'bodyInvalid' | 'fault'>): boolean {
  if (o.fault?.kind === 'error') return false;
  return o.errorCode === 'MALFORMED_XML' || (o.errorCode === 'VALIDATION_ERROR' && o.bodyInvalid);
}

export const OBSERVATIONS_COLLECTION = COLLECTION;
