import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { idempotent } from '../engine/requests/idempotency.js';
import type { AppEnv } from './types.js';

/**
 * Answer JSON and hand the body to the request journal. The /api routes answer through this (or
 * renderError) rather than c.json, so the journal never has to wrap c.json on every request.
 */
export function reply<T, U extends ContentfulStatusCode>(c: Context<AppEnv>, body: T, status: U) {
  c.set('responseBody', body);
  return c.json(body, status);
}

export interface Creation<R extends { reference: string }, B> {
  /** The resource's name: a key is unique per tenant and resource. */
  resource: string;
  /** The idempotency key: the body's reference, or the Idempotency-Key header; none makes every request create. */
  key: string | undefined;
  /** Where the partner sent the key (named in the 409). */
  keyField?: 'reference' | 'Idempotency-Key';
  /** The request body, whose fingerprint a replay must match. */
  body: unknown;
  /** The service's create: the new record. */
  create(): R;
  /** Read the resource by its reference (a replay whose first answer is no longer kept is built from it). */
  read(reference: string): R;
  /** The created answer, from the record: a pure view of it (a replay rebuilds the first answer from
   * the record as created, which moves replace, never change). */
  present(r: R): B;
}

/**
 * The one way a resource is created over the API: 201 with the presented record; the same key with
 * the same body replays the first answer with Idempotent-Replayed: true and creates nothing; the same
 * key with another body is 409 IDEMPOTENCY_CONFLICT.
 */
export function created<R extends { reference: string }, B>(c: Context<AppEnv>, spec: Creation<R, B>) {
  if (spec.key === undefined) return reply(c, spec.present(spec.create()), 201);
  let reference = '';
  const res = idempotent(
    c.get('tenant'),
    spec.resource,
    spec.key,
    spec.body,
    () => {
      const r = spec.create();
      reference = r.reference;
      return { status: 201, body: spec.present(r), kept: r };
    },
    { id: () => reference, body: (ref) => spec.present(spec.read(ref)), rebuild: (r) => spec.present(r as R) },
    spec.keyField,
  );
  if (res.replayed) c.header('Idempotent-Replayed', 'true');
  return reply(c, res.body as B, res.status as 201);
}

/** The scenario named for this one request, if any. */
export const requestScenario = (c: Context): string | undefined => c.req.header('x-sandbox-scenario') || undefined;
