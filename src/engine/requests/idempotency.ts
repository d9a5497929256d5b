// References are unique per tenant and resource type. The same reference with the same body
// replays the stored response and creates nothing; with a different body it is a 409.
// create() runs synchronously from the check to the write, so concurrent requests with one
// reference make exactly one resource.
//
// Bounded: the fingerprint of every reference is kept (until a reset), so a reuse is always caught,
// but the full response is kept only for the newest LIMITS.responsesKept creations of each resource
// kind of the tenant. A replay of an older one is answered from the resource itself (`reread`): same
// status, same shape, the resource as it stands now. A route that passes no `reread` keeps its
// responses inline. A route whose response is a pure view of a record that is replaced, never
// changed, on each move keeps that record as created (`kept`) instead of the response: while the
// resource has not moved it is the very object the resource collection holds, so a kept response
// costs no memory of its own.
//
// The format: one collection per resource kind (`idempotency:<scope>`), keyed by the reference as
// sent, which the created record holds too, so no key is kept as text of its own. A creation whose
// resource id is the reference (201, re-read by it) is kept as its fingerprint alone, a number; any
// other as an object. The records as created go to `idempotency_kept:<scope>`, by reference too.
// What an earlier version wrote (`idempotency`, `idempotency_kept` and `idempotency_responses`, keyed
// `<scope>:<reference>`, fingerprints as text) is read as it is.
import { SandboxError } from '../../kernel/errors.js';
import { fingerprint, fingerprintNumber } from '../../kernel/json.js';
import type { Tenant } from '../tenancy/tenant.js';

export const LIMITS = {
  /** Full responses kept per tenant and resource kind for replays; older replays are re-read from the resource. */
  responsesKept: 1000,
};

export interface StoredResponse {
  status: number;
  body: unknown;
  /** What the body is a view of (the record as created), kept instead of the body when the reread can rebuild it. */
  kept?: unknown;
}

/** How a route re-presents a created resource whose stored response has been dropped. */
export interface Reread {
  /** The resource's id within the created response (what `body` is given later). */
  id(body: unknown): string;
  /** The creation response's body, built from the resource as it stands now. */
  body(id: string): unknown;
  /** The creation response's body rebuilt, byte for byte, from what `create` kept. */
  rebuild(kept: unknown): unknown;
}

/** A creation as kept: its fingerprint alone when it answered 201 with the reference as the
 * resource's id, else the object. */
type IdempotencyRecord = number | FullRecord;

interface FullRecord {
  /** The request's fingerprint: a number (text in what an earlier version wrote). */
  fp: number | string;
  status: number;
  /** The response, in records an earlier version wrote (this one re-reads or rebuilds it). */
  body?: unknown;
  /** The resource id, for routes with a reread. */
  id?: string;
}

/** The creations of one resource kind, by reference. */
export const idempotencyRecords = (t: Tenant, scope: string) => t.store.collection<IdempotencyRecord>(`idempotency:${scope}`);
/** The records as created that kept responses are rebuilt from, by reference. */
export const keptSources = (t: Tenant, scope: string) => t.store.collection<unknown>(`idempotency_kept:${scope}`);
/** What an earlier version wrote, keyed `<scope>:<reference>`: read, and dropped with its resource. */
export const earlierRecords = (t: Tenant) => t.store.collection<FullRecord>('idempotency');
export const earlierResponses = (t: Tenant) => t.store.collection<unknown>('idempotency_responses');
export const earlierKept = (t: Tenant) => t.store.collection<unknown>('idempotency_kept');

/** The resource id a creation names: its own, else the reference it was created with. */
export const recordId = (r: IdempotencyRecord, reference: string): string | undefined =>
  typeof r === 'number' ? reference : r.id;

export function idempotent(
  tenant: Tenant,
  scope: string,
  reference: string,
  request: unknown,
  create: () => StoredResponse,
  reread: Reread,
  /** What the partner sent the reference as: a body field, or the Idempotency-Key header. */
  keyField: 'reference' | 'Idempotency-Key' = 'reference',
): StoredResponse & { replayed: boolean } {
  const records = idempotencyRecords(tenant, scope);
  const fp = fingerprintNumber(request);
  const seen = records.get(reference);
  const earlier = seen === undefined ? earlierRecord(tenant, scope, reference) : undefined;
  if (seen !== undefined || earlier !== undefined) {
    const same = seen !== undefined ? (typeof seen === 'number' ? seen : seen.fp) === fp : earlier!.fp === fingerprint(request);
    if (!same) {
      const [what, fresh] = keyField === 'reference' ? ['reference', 'reference'] : [keyField, 'key'];
      throw new SandboxError(
        'IDEMPOTENCY_CONFLICT',
        `The ${what} '${reference}' was already used with a different request body. ` +
          `Send the original body to get the original response again, or use a new ${fresh}.`,
        [{ field: keyField, issue: 'already used with a different body' }],
      );
    }
    const body = seen !== undefined ? replayBody(tenant, scope, reference, seen, reread) : replayEarlier(tenant, `${scope}:${reference}`, earlier!, reread);
    return { status: typeof seen === 'number' ? 201 : (seen ?? earlier!).status, body, replayed: true };
  }
  const res = create();
  const created = { status: res.status, body: res.body, replayed: false };
  if (res.status >= 300) return created;
  const id = reread.id(res.body);
  records.put(reference, res.status === 201 && id === reference ? fp : { fp, status: res.status, id });
  if (res.kept !== undefined) {
    const kept = keptSources(tenant, scope);
    kept.put(reference, res.kept);
    while (kept.size > LIMITS.responsesKept) kept.remove(kept.keys().next().value!);
  }
  return created;
}

function earlierRecord(t: Tenant, scope: string, reference: string): FullRecord | undefined {
  const records = earlierRecords(t);
  return records.size === 0 ? undefined : records.get(`${scope}:${reference}`);
}

function replayBody(t: Tenant, scope: string, reference: string, seen: IdempotencyRecord, reread: Reread): unknown {
  const kept = keptSources(t, scope).get(reference);
  if (kept !== undefined) return reread.rebuild(kept);
  const id = recordId(seen, reference);
  if (id === undefined) throw new Error(`idempotency record ${scope}:${reference} has neither a stored response nor a way to re-read it`);
  return reread.body(id);
}

/** A replay of a creation an earlier version recorded. */
function replayEarlier(t: Tenant, key: string, seen: FullRecord, reread: Reread): unknown {
  if (seen.body !== undefined) return seen.body;
  const stored = earlierResponses(t).get(key);
  if (stored !== undefined) return stored;
  const kept = earlierKept(t).get(key);
  if (kept !== undefined) return reread.rebuild(kept);
  if (seen.id === undefined) throw new Error(`idempotency record ${key} has neither a stored response nor a way to re-read it`);
  return reread.body(seen.id);
}
