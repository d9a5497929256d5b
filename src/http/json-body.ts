// Request bodies read as JSON within their budget (kernel/json-budget.ts), parsed once per request.
import type { Context, MiddlewareHandler } from 'hono';
import type { HonoRequest } from 'hono/request';
import { SandboxError } from '../kernel/errors.js';
import { parseJsonBody } from '../kernel/json-budget.js';
import { nextTurn } from '../kernel/turns.js';
import type { AppEnv } from './types.js';

/** Refusals of a JSON body's budget, by what its reader holds (the text's promise, or the request):
 * the validator meets one as a failure to parse, and the error handler answers it instead. */
const refusals = new WeakMap<object, SandboxError>();

/** Why the request's JSON body was refused before it was parsed, if it was. */
export function bodyRefusalOf(c: Context): SandboxError | undefined {
  const text = c.req.bodyCache.text as unknown;
  return refusals.get(c.req) ?? (text instanceof Promise ? refusals.get(text) : undefined);
}

/** The API's bodies are a few KB; past this a body costs milliseconds to count and parse. */
const LARGE_BODY = 64 * 1024;

/**
 * parseKeepingRefusal, a large body in a turn of the event loop of its own (kernel/turns.ts): the
 * bodies of requests sent at once arrive together, and thirty bodies of 1 MB counted and parsed one
 * after another in the same turn held every key 140 ms.
 */
async function parseInTurn(by: object, text: string): Promise<unknown> {
  if (text.length > LARGE_BODY) await nextTurn();
  return parseKeepingRefusal(by, text);
}

function parseKeepingRefusal(by: object, text: string): unknown {
  try {
    return parseJsonBody(text);
  } catch (e) {
    if (e instanceof SandboxError) refusals.set(by, e);
    throw e;
  }
}

/**
 * Every reader of a request's JSON body (the validator, the unknown-field check, a route reading the
 * body as sent) takes it from one parse within the budget: HonoRequest.json() would parse the text
 * again at each call. Here for a body whose text was read already (a JSON body sent with its length,
 * checked as UTF-8): the reader holds the text's promise alone. A reader holding the request's
 * context kept each answer's objects alive with it, and a load of 100,000 payouts ended with 100 MB
 * more heap.
 */
export function readJsonOnce(req: HonoRequest, text: Promise<string>): void {
  let json: Promise<unknown> | undefined;
  req.json = (() => (json ??= text.then((t) => parseInTurn(text, t)))) as typeof req.json;
}

/** The same for every other body (sent chunked, or in process), read when a reader first asks. */
export function budgetedJson(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.bodyCache.text !== undefined) return next();
    const req = c.req;
    let json: Promise<unknown> | undefined;
    req.json = (() => (json ??= req.text().then((t) => parseInTurn(req, t)))) as typeof req.json;
    return next();
  };
}
