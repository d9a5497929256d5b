// Body size limit. A declared Content-Length is checked from the header alone, so the request body
// is never touched here (reading it would make the adapter build a full Request per call); a
// chunked body is counted as it streams, by Hono's own middleware.
import type { MiddlewareHandler } from 'hono';
import { bodyLimit as streamingLimit } from 'hono/body-limit';
import { payloadTooLarge, renderError } from './errors.js';
import type { AppEnv } from './types.js';

export function bodyLimit(maxSize: number): MiddlewareHandler<AppEnv> {
  const streaming = streamingLimit({ maxSize, onError: (c) => renderError(c as never, payloadTooLarge()) });
  return (c, next) => {
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding')) {
      // Over HTTP/1.1 a body always comes with one of the two headers; without either (an in-process
      // Request), count what arrives.
      return c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : streaming(c, next);
    }
    if (Number(length) > maxSize) return Promise.resolve(renderError(c, payloadTooLarge()));
    return next();
  };
}
