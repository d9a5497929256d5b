// Every place the sandbox relies on how Hono and @hono/node-server work inside, rather than on their
// documented API, each with the assumption it makes. Both packages are pinned to exact versions
// (package.json), and src/http/framework.test.ts has one test per assumption, named after it, so an
// upgrade that breaks one says which.
import type { Context, MiddlewareHandler } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchedRoutes } from 'hono/route';
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { BoundedMap } from '../kernel/bounded-map.js';
import type { AppEnv } from './types.js';
import type { StreamConnection } from './streams.js';

// ASSUMPTION (plain middleware): Hono's compose awaits whatever a middleware returns and catches what
// it throws, so a middleware need not be async: it may throw at once or return next()'s promise. The
// tenant, fault and body-limit middleware do so on their common path (with a memory store, the
// tenant middleware holds nothing and flushes nothing, so it returns next() without a frame of its
// own), saving an async frame per middleware per request.

/**
 * ASSUMPTION (router result): Hono asks its router for `match(method, path)` on every request and
 * takes a `[[handler, params][]]` result without changing it, so one result may be kept and handed
 * out again.
 *
 * The app's router: Hono's trie router, with its answers kept. Hono's faster regular-expression
 * router cannot hold these routes (a transfer reference and the literal `bulk` share one segment),
 * so the trie router is used; it walks the tree, collects every matching middleware and route and
 * sorts them on each request. A path that binds no parameter (POST /api/v1/partners/payouts, GET
 * /api/v1/partners/fx/listings, …) gets the same answer every time: that answer is kept and shared,
 * as Hono's own regular-expression router shares its answers. A path with parameters (a reference
 * in the path) gets the same answer for the same path too, parameters included: the answers of up to
 * 1,024 recent such paths (of at most 256 characters) are kept as well (a partner polling a payout's status reads one path over
 * and over), and any other path is matched afresh.
 */
export class KeptStaticRouter<T> implements Router<T> {
  readonly name = 'KeptStaticRouter';
  private readonly trie = new TrieRouter<T>();
  private readonly kept = new Map<string, Map<string, Result<T>>>();
  /** Answers for recent paths with parameters, by method. */
  private readonly recent = new Map<string, BoundedMap<string, Result<T>>>();

  add(method: string, path: string, handler: T): void {
    this.kept.clear();
    this.recent.clear();
    this.trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.kept.get(method);
    const hit = byPath?.get(path) ?? this.recent.get(method)?.get(path);
    if (hit) return hit;
    const result = this.trie.match(method, path);
    if (bindsNoParameter(result)) {
      if (!byPath) this.kept.set(method, (byPath = new Map()));
      if (byPath.size < KEPT_PER_METHOD) byPath.set(path, result);
      return result;
    }
    // Only a path of a length a resource's reference gives is kept: a key inventing long paths would
    // hold memory and push out every other key's.
    if (path.length > RECENT_PATH_LENGTH) return result;
    let recent = this.recent.get(method);
    // Full: the oldest goes, so a key reading many paths once does not empty it for every key.
    if (!recent) this.recent.set(method, (recent = new BoundedMap(RECENT_PER_METHOD)));
    recent.set(path, result);
    return result;
  }
}

/** How many parameterless paths are kept per method; a client inventing paths cannot grow it further. */
const KEPT_PER_METHOD = 512;
/** How many paths with parameters are kept per method, at most (the oldest is dropped past it). */
const RECENT_PER_METHOD = 1024;
/** The longest path with parameters kept: a read-back's path with a reference of 100 characters. */
const RECENT_PATH_LENGTH = 256;

function bindsNoParameter<T>(result: Result<T>): boolean {
  if (result.length !== 1) return false;
  for (const [, params] of result[0]) {
    for (const _ in params as Record<string, string>) return false;
  }
  return true;
}

/**
 * ASSUMPTION (body cache): HonoRequest keeps the body it read as text in `bodyCache.text` (a promise),
 * and every later reader (c.req.text(), c.req.json(), the validators) takes it from there. So a
 * middleware can put checked text there for the route to read, and the journal can take the text a
 * route read without reading the body again.
 */
export function setBodyText(c: Context<AppEnv>, text: Promise<string>): void {
  (c.req.bodyCache as { text?: Promise<string> }).text = text;
}

/**
 * Lets go of the body a request read (its text and the parse of it every reader shares), once the
 * route and the journal are done with it: a request whose answer a fault holds for up to two minutes
 * would otherwise keep a 1 MiB body, and its parse, as long (ASSUMPTION (body cache) above). The data
 * the validators checked stays, within each field's limit.
 */
export function forgetRequestBody(c: Context<AppEnv>): void {
  const cache = c.req.bodyCache as Record<string, unknown>;
  for (const key of Object.keys(cache)) delete cache[key];
  // The parse readJsonOnce or budgetedJson (json-body.ts) put on the request, and what it holds.
  if (Object.hasOwn(c.req, 'json')) delete (c.req as { json?: unknown }).json;
}

/** The body text the route read, if it read one (see setBodyText). */
export function bodyTextRead(c: Context<AppEnv>): Promise<string> | undefined {
  const text = c.req.bodyCache.text as Promise<string> | string | undefined;
  return text === undefined ? undefined : Promise.resolve(text);
}

/**
 * ASSUMPTION (node request): @hono/node-server hands app.fetch an env of `{ incoming, outgoing }`, the
 * Node request and response. The journal reads the headers Node already parsed from `incoming`
 * (building a Headers object costs more), and a dropped-connection fault destroys its socket. An
 * event stream reads from `outgoing` how much of its answer the kernel has not taken yet
 * (`writableLength`: the response's own buffer and its socket's), to tell a client that stopped
 * reading. In process (app.request) there is neither.
 */
export const nodeRequest = (c: Context<AppEnv>): IncomingMessage | undefined =>
  (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;

/**
 * Whether the request carries a body: over HTTP, one with a Content-Length other than 0 or sent
 * chunked (HTTP/1.1's rule: a request with neither header has none); in process, the Request's own
 * say. Read from the headers alone over HTTP, so the adapter builds no web Request for it.
 */
export function hasBody(c: Context<AppEnv>): boolean {
  const length = c.req.header('content-length');
  if (length !== undefined) return length.trim() !== '0';
  if (c.req.header('transfer-encoding') !== undefined) return true;
  return nodeRequest(c) === undefined && c.req.raw.body !== null;
}

/** The Node response of this request (see nodeRequest). */
export const nodeResponse = (c: Context<AppEnv>): ServerResponse | undefined =>
  (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;

/** The connection of this request's answer; none in process (app.request). */
export function streamConnection(c: Context<AppEnv>): StreamConnection | undefined {
  const res = nodeResponse(c);
  return res && { unsent: () => res.writableLength, destroy: () => res.destroy() };
}

/**
 * ASSUMPTION (response replace): setting `c.res` while a response is set copies the old response's
 * headers onto the new one; clearing it first gives the new response alone.
 */
export function replaceResponse(c: Context<AppEnv>, res: Response): Response {
  c.res = undefined;
  c.res = res;
  return res;
}

/**
 * ASSUMPTION (request headers): every reader of a request header (c.req.header, @hono/zod-openapi's
 * media-type check, Hono's validators) reads `c.req.raw.headers`, and those headers can be set: with
 * @hono/node-server they are its RequestHeaders (set() copies them into a Headers first), in process
 * (app.request) a Request's own Headers.
 */
export function setRequestHeader(c: Context, name: string, value: string): void {
  c.req.raw.headers.set(name, value);
}

const OWN_BODY_LIMIT = Symbol('own body limit');

/** Mark a route middleware as the route's own body limit (see routeHasOwnBodyLimit). */
export function asOwnBodyLimit<M extends MiddlewareHandler>(limit: M): M {
  return Object.assign(limit, { [OWN_BODY_LIMIT]: true });
}

/**
 * ASSUMPTION (matched routes): before the handler runs, a middleware sees (hono/route's
 * matchedRoutes) every handler the router matched for this request, the route's own middleware
 * included, each as the function that was registered (a router mounted with app.route and no error
 * handler of its own keeps them). So the app's default body limit can leave a route that declares
 * its own to it.
 */
export function routeHasOwnBodyLimit(c: Context): boolean {
  for (const r of matchedRoutes(c)) if ((r.handler as { [OWN_BODY_LIMIT]?: true })[OWN_BODY_LIMIT]) return true;
  return false;
}
