// Body size limit. A declared Content-Length is checked from the header alone, so the request body
// is never touched here (reading it would make the adapter build a full Request per call); a
// chunked body is counted as it streams, by Hono's own middleware.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as streamingLimit } from 'hono/body-limit';
import type { SandboxError } from '../kernel/errors.js';
import { payloadTooLarge, renderError } from './error-responses.js';
import { asOwnBodyLimit, nodeRequest, routeHasOwnBodyLimit, setBodyText } from './framework.js';
import { isJsonType } from './media-type.js';
import { readJsonOnce } from './json-body.js';
import type { AppEnv } from './types.js';

export interface BodyLimitOptions {
  /** Decode a JSON body strictly as UTF-8 (see strictJsonText); the JSON API routes ask for it. */
  strictJson?: boolean;
  /** Leave a route that declares its own limit (ownBodyLimit) to that limit. */
  yieldToRoute?: boolean;
  /** The error of a body over the limit; the 1 MiB one by default. */
  tooLarge?: () => SandboxError;
}

export function bodyLimit(maxSize: number, options: BodyLimitOptions = {}): MiddlewareHandler<AppEnv> {
  const tooLarge = options.tooLarge ?? payloadTooLarge;
  const streaming = streamingLimit({ maxSize, onError: (c) => renderError(c as never, tooLarge()) });
  return (c, next) => {
    if (options.yieldToRoute && routeHasOwnBodyLimit(c)) return next();
    const length = c.req.header('content-length');
    const chunked = c.req.header('transfer-encoding');
    if (length === undefined || chunked) {
      // Over HTTP a request's body always comes with one of the two headers: a request from Node with
      // neither has none (a POST without a body, like a simulated pay-in), and looking for one would
      // make the adapter build a full Request. Without either in process (an in-process Request),
      // count what arrives.
      if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
      if (!chunked && nodeRequest(c)) return next();
      return streaming(c, next);
    }
    if (Number(length) > maxSize) return Promise.resolve(renderError(c, tooLarge()));
    if (options.strictJson && length !== '0') strictJsonText(c, Number(length));
    return next();
  };
}

/** A route's own limit, declared among its middleware in place of the app's default. */
export const ownBodyLimit = (maxSize: number, tooLarge: () => SandboxError) => asOwnBodyLimit(bodyLimit(maxSize, { tooLarge }));

/** Whether a body decoded leniently (each invalid sequence as U+FFFD, three bytes) was not UTF-8:
 * it holds U+FFFD and its length in UTF-8 is not the length declared. A body of unknown length
 * (sent chunked) cannot be told. */
export function notUtf8(text: string, declaredLength: string | number | undefined): boolean {
  return declaredLength !== undefined && text.includes('\uFFFD') && Buffer.byteLength(text) !== Number(declaredLength);
}

/**
 * JSON text is UTF-8: a body with bytes that are not is malformed (400 MALFORMED_JSON when the route
 * reads it), not text with replacement characters in it. The adapter decodes the body leniently,
 * turning each invalid sequence into U+FFFD, whose three bytes then no longer add up to the declared
 * length: an invalid sequence is one or two bytes, or three that begin a four-byte character, and
 * only a body whose every invalid sequence is of that last kind goes unnoticed. A body without U+FFFD
 * needs no counting. The checked text is put where every later reader of the body (validation, the
 * journal) takes it from; nothing waits for it here.
 */
function strictJsonText(c: Context<AppEnv>, declaredLength: number): void {
  if (!isJsonType(c.req.header('content-type'))) return;
  const text = c.req.raw.text().then((t) => {
    if (notUtf8(t, declaredLength)) throw new Error('the body is not UTF-8');
    return t;
  });
  // A route that never reads the body must not leave the refusal unhandled.
  text.catch(() => undefined);
  setBodyText(c, text);
  readJsonOnce(c.req, text);
}
