// References are unique per tenant and resource type. The same reference with the same body
// replays the stored response and creates nothing; with a different body it is a 409.
// create() runs synchronously from the check to the write, so concurrent requests with one
// reference make exactly one resource.
import { SandboxError } from '../kernel/errors.js';
import { fingerprint } from '../kernel/json.js';
import type { Tenant } from './tenant.js';

export interface StoredResponse {
  status: number;
  body: unknown;
}

interface IdempotencyRecord extends StoredResponse {
  fp: string;
}

export function idempotent(
  tenant: Tenant,
  scope: string,
  reference: string,
  request: unknown,
  create: () => StoredResponse,
): StoredResponse & { replayed: boolean } {
  const records = tenant.store.collection<IdempotencyRecord>('idempotency');
  const key = `${scope}:${reference}`;
  const fp = fingerprint(request);
  const seen = records.get(key);
  if (seen) {
    if (seen.fp !== fp) {
      throw new SandboxError(
        'IDEMPOTENCY_CONFLICT',
        `The reference '${reference}' was already used with a different request body. ` +
          'Send the original body to get the original response again, or use a new reference.',
        [{ field: 'reference', issue: 'already used with a different body' }],
      );
    }
    return { status: seen.status, body: seen.body, replayed: true };
  }
  const res = create();
  if (res.status < 300) records.put(key, { fp, status: res.status, body: res.body });
  return { ...res, replayed: false };
}
