// Request bodies read as JSON within their budget (kernel/json-budget.ts), parsed once per request.
import type { MiddlewareHandler } from 'hono';
import { SandboxError } from '../kernel/errors.js';
import { parseJsonBody } from '../kernel/json-budget.js';
import type { AppEnv } from './types.js';

/**
 * Every reader of a request's JSON body (the validator, the unknown-field check, a route reading the
 * body as sent) takes it from one parse within the budget: HonoRequest.json() would parse the text
 * again at each call. The validator reports any failure to parse as malformed JSON, so a refusal of
 * the budget is kept on the context, where the error handler answers it instead.
 */
export function budgetedJson(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    let json: Promise<unknown> | undefined;
    c.req.json = (() =>
      (json ??= c.req.text().then((text) => {
        try {
          return parseJsonBody(text);
        } catch (e) {
          if (e instanceof SandboxError) c.set('bodyRefusal', e);
          throw e;
        }
      }))) as typeof c.req.json;
    return next();
  };
}
