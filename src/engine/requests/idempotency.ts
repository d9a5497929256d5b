// References are unique per tenant and resource type. The same reference with the same body
// replays the stored response and creates nothing; with a different body it is a 409.
// create() runs synchronously from the check to the write, so concurrent requests with one
// reference make exactly one resource.
//
// Bounded: the fingerprint of every reference is kept (until a reset), so a reuse is always caught,
// but the full response is kept only for the newest LIMITS.responsesKept creations of the tenant.
// A replay of an older one is answered from the resource itself (`reread`): same status, same
// shape, the resource as it stands now. A route that passes no `reread` keeps its responses inline.
// A route whose response is a pure view of a record that is replaced, never changed, on each move
// keeps that record as created (`kept`) instead of the response: while the resource has not moved it
// is the very object the resource collection holds, so a kept response costs no memory of its own.
import { SandboxError } from '../../kernel/errors.js';
import { fingerprint } from '../../kernel/json.js';
import type { Tenant } from '../tenancy/tenant.js';

export const LIMITS = {
  /** Full responses kept per tenant for replays; older replays are re-read from the resource. */
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
  rebuild?(kept: unknown): unknown;
}

interface IdempotencyRecord {
  fp: string;
  status: number;
  /** The response, for routes without a reread (and records written before the bound). */
  body?: unknown;
  /** The resource id, for routes with a reread. */
  id?: string;
}

export const idempotencyRecords = (t: Tenant) => t.store.collection<IdempotencyRecord>('idempotency');
export const storedResponses = (t: Tenant) => t.store.collection<unknown>('idempotency_responses');
/** The records as created that kept responses are rebuilt from. */
export const keptSources = (t: Tenant) => t.store.collection<unknown>('idempotency_kept');

export function idempotent(
  tenant: Tenant,
  scope: string,
  reference: string,
  request: unknown,
  create: () => StoredResponse,
  reread?: Reread,
  /** What the partner sent the reference as: a body field, or the Idempotency-Key header. */
  keyField: 'reference' | 'Idempotency-Key' = 'reference',
): StoredResponse & { replayed: boolean } {
  const records = idempotencyRecords(tenant);
  const key = `${scope}:${reference}`;
  const fp = fingerprint(request);
  const seen = records.get(key);
  if (seen) {
    if (seen.fp !== fp) {
      const [what, fresh] = keyField === 'reference' ? ['reference', 'reference'] : [keyField, 'key'];
      throw new SandboxError(
        'IDEMPOTENCY_CONFLICT',
        `The ${what} '${reference}' was already used with a different request body. ` +
          `Send the original body to get the original response again, or use a new ${fresh}.`,
        [{ field: keyField, issue: 'already used with a different body' }],
      );
    }
    return { status: seen.status, body: replayBody(tenant, key, seen, reread), replayed: true };
  }
  const res = create();
  const created = { status: res.status, body: res.body, replayed: false };
  if (res.status >= 300) return created;
  if (!reread) {
    records.put(key, { fp, status: res.status, body: res.body });
    return created;
  }
  records.put(key, { fp, status: res.status, id: reread.id(res.body) });
  const kept = reread.rebuild && res.kept !== undefined;
  const responses = kept ? keptSources(tenant) : storedResponses(tenant);
  responses.put(key, kept ? res.kept : res.body);
  while (responses.size > LIMITS.responsesKept) responses.remove(responses.keys().next().value!);
  return created;
}

function replayBody(t: Tenant, key: string, seen: IdempotencyRecord, reread?: Reread): unknown {
  if (seen.body !== undefined) return seen.body;
  const stored = storedResponses(t).get(key);
  if (stored !== undefined) return stored;
  const kept = reread?.rebuild ? keptSources(t).get(key) : undefined;
  if (kept !== undefined) return reread!.rebuild!(kept);
  if (!reread || seen.id === undefined) {
    throw new Error(`idempotency record ${key} has neither a stored response nor a way to re-read it`);
  }
  return reread.body(seen.id);
}
