// Turning every failure into the API's envelope: SandboxErrors, framework exceptions, failed
// validation and unknown routes. Messages name the field and say what to send instead.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { SandboxError, errorEnvelope } from '../kernel/errors.js';
import { LIST_HERE, streamedIn } from './json-list.js';
import { validationError, type Target } from '../kernel/validation.js';
import { StoreUnavailableError } from '../store/store.js';
import { hasBody, nodeRequest } from './framework.js';
import { bodyRefusalOf } from './json-body.js';
import type { AppEnv } from './types.js';

export function toSandboxError(err: unknown): SandboxError {
  if (err instanceof SandboxError) return err;
  // A read of the shared database within the request (a journal listing) failed: as when the key's
  // session could not begin, 503 and safe to retry.
  if (err instanceof StoreUnavailableError) return err.lockWait ? keyBusy() : databaseUnavailable(false);
  if (err instanceof HTTPException) {
    if (err.status === 400 && /json/i.test(err.message)) {
      return new SandboxError('MALFORMED_JSON', 'The request body is not valid JSON (UTF-8 text). Send a JSON object with Content-Type: application/json.', [
        { field: 'body', issue: 'is not valid JSON: send a JSON object' },
      ]);
    }
    if (err.status === 413) return payloadTooLarge();
    if (err.status === 415) {
      return new SandboxError('UNSUPPORTED_MEDIA_TYPE', 'This endpoint takes a JSON body. Send it with Content-Type: application/json.', [
        { field: 'Content-Type', issue: 'must be application/json' },
      ]);
    }
    if (err.status === 404) return new SandboxError('ROUTE_NOT_FOUND', err.message || 'Not found.');
    if (err.status === 401) return new SandboxError('INVALID_API_KEY', err.message);
    if (err.status < 500) return new SandboxError('VALIDATION_ERROR', err.message || 'The request is not valid.');
  }
  return new SandboxError('INTERNAL_ERROR', 'The sandbox failed to handle this request. Retry it; if it persists, report it with the request id.');
}

/** The shared database cannot be reached: 503, and the request is safe to retry. `writing`: it went
 * away while the request's changes were being written. */
export function databaseUnavailable(writing: boolean): SandboxError {
  const message = writing
    ? "The sandbox's database became unreachable while this request's changes were being written, so they may not have been kept. Retry it shortly: a retry with the same reference or idempotency key answers from what was kept."
    : "The sandbox's database cannot be reached at the moment, so nothing of this request was done. Retry it shortly.";
  return new SandboxError('SERVICE_UNAVAILABLE', message, [], { 'Retry-After': '1' });
}

/** The key's lock was held by another of its requests past the lock limit (a shared store): 503.
 * `writing`: the request had committed writes before the session that waited (one that lets its key
 * go while it waits outside, a receiver probe), which stay. */
export function keyBusy(writing = false): SandboxError {
  const held = 'Another request of this API key held its data for longer than this request may wait (a clock advance waiting for webhook attempts, on another replica), so';
  const message = writing
    ? `${held} this request could not finish. What it had written before is kept: retry it shortly, and a retry with the same reference or idempotency key answers from what was kept.`
    : `${held} nothing of this request was done. Retry it shortly.`;
  return new SandboxError('SERVICE_UNAVAILABLE', message, [], { 'Retry-After': '1' });
}

/** A JSON route sent no body. */
const emptyBody = () =>
  new SandboxError('MALFORMED_JSON', 'The request body is empty. Send a JSON object with Content-Type: application/json.', [
    { field: 'body', issue: 'is empty: send a JSON object' },
  ]);

export const payloadTooLarge = () =>
  new SandboxError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB. Send a smaller body.', [{ field: 'body', issue: 'is larger than 1 MiB' }]);

export function renderError(c: Context<AppEnv>, err: SandboxError): Response {
  c.set('errorCode', err.code);
  if (err.bodyInvalid) c.set('bodyInvalid', true);
  const xml = c.get('renderError');
  if (xml) return xml(err);
  const body = errorEnvelope(err);
  c.set('responseBody', body);
  // Every problem of a large bulk file: the details are written a slice at a time (json-list.ts).
  if (err.details.length > STREAMED_DETAILS) return streamedIn(c, { ...body, error: { ...body.error, details: LIST_HERE } }, err.details, err.status, err.headers);
  return c.json(body, err.status as 400, err.headers);
}

/** Past this many details an error's answer is written in slices. */
const STREAMED_DETAILS = 1000;

/**
 * When the request never fully arrived because its connection closed (the client went away, or the
 * server's request timeout cut a slow body off with a 408), reading the body fails; that is no
 * failure of the sandbox and there is nobody to answer. The status kept in the journal: 408 for the
 * timeout, 499 (a client that closed its request, in nginx's terms) otherwise.
 */
function leftStatus(c: Context<AppEnv>): number | undefined {
  const incoming = nodeRequest(c);
  if (!incoming || incoming.complete || !incoming.destroyed) return undefined;
  return (incoming.socket?.errored as { code?: string } | null)?.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 499;
}

export function onError(err: Error, c: Context<AppEnv>): Response {
  const left = leftStatus(c);
  if (left) return new Response(null, { status: left });
  // The body's budget was exceeded: the validator met that as a failure to parse. Only that failure
  // is answered with the refusal: another error of a request whose body a fault rule read over its
  // budget (an unknown reference's 404, say) stays what it is.
  const refusal = bodyRefusalOf(c);
  const converted = toSandboxError(err);
  let e = refusal && (err === refusal || converted.code === 'MALFORMED_JSON') ? refusal : converted;
  // "Not valid JSON" would send the caller looking for a typo in a body it never sent.
  if (e.code === 'MALFORMED_JSON' && !hasBody(c)) e = emptyBody();
  if (e.code === 'INTERNAL_ERROR' && e !== err) console.error(`[sandbox] ${c.req.method} ${c.req.path} failed:`, err);
  return renderError(c, e);
}

/** A route as the app lists it: its method (ALL for middleware) and its path, `:name` standing for a segment. */
export interface RouteEntry {
  method: string;
  path: string;
}

/**
 * The answer to a request no route takes: 404 ROUTE_NOT_FOUND, as the contract says of an unknown route.
 * When the path is a route's under another method (GET on the payout create), the answer says which
 * methods the path takes, so the caller sees the method is what is wrong. `routes` is read on the
 * first 404, when every route is registered.
 */
export function onNotFound(routes: () => readonly RouteEntry[]) {
  let known: { method: string; segments: string[] }[] | undefined;
  const methodsOf = (path: string): string[] => {
    known ??= routes().flatMap((r) => (r.method === 'ALL' ? [] : [{ method: r.method, segments: r.path.split('/') }]));
    const sent = path.split('/');
    const fits = (segments: string[]) =>
      segments.length === sent.length && segments.every((s, i) => s === sent[i] || (s.startsWith(':') && sent[i] !== ''));
    return [...new Set(known.filter((r) => fits(r.segments)).map((r) => r.method))];
  };
  return (c: Context<AppEnv>): Response => {
    const { method, path } = c.req;
    const methods = methodsOf(path);
    // A route of this method matched and its handler found nothing (an unknown docs asset): a plain 404.
    if (methods.length === 0 || methods.includes(method === 'HEAD' ? 'GET' : method)) {
      return renderError(
        c,
        new SandboxError('ROUTE_NOT_FOUND', `No route matches ${method} ${path}. Every API path begins with /api/v1; see /openapi.json for the list.`),
      );
    }
    const takes = methods.length === 1 ? methods[0] : `${methods.slice(0, -1).join(', ')} or ${methods.at(-1)}`;
    return renderError(
      c,
      new SandboxError('ROUTE_NOT_FOUND', `No route matches ${method} ${path}: this path takes ${takes}. Send the request with ${methods.length === 1 ? takes : 'one of them'}.`, [
        { field: 'method', issue: methods.length === 1 ? `must be ${takes} on this path` : `must be one of ${methods.join(', ')} on this path` },
      ]),
    );
  };
}

/** The hook zod-openapi calls after validating a request part. */
export function validationHook(
  result: { success: true } | { success: false; error: ZodError; target?: Target; data?: unknown },
  c: Context,
): void {
  if (result.success) return;
  const target = result.target ?? 'json';
  // No body and no Content-Type: the framework validates an empty object, whose missing fields
  // would hide that nothing was sent. Answered as any empty body is.
  if (target === 'json' && c.req.header('content-type') === undefined && !hasBody(c)) throw emptyBody();
  throw validationError(result.error, target, result.data);
}

