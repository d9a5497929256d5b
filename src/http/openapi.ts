// Shared pieces of the OpenAPI description: the error envelope, error responses, router factory.
import { OpenAPIHono, z, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { ERROR_CODES } from '../kernel/errors.js';
import { validationHook } from './error-responses.js';
import { hasBody } from './framework.js';
import type { AppEnv } from './types.js';
import { warnUnknownFields, warnUnknownQuery } from './unknown-fields.js';
import { warn } from './warnings.js';

export const ErrorEnvelope = z
  .object({
    status: z.literal('error'),
    message: z.string().openapi({ description: 'What was wrong and what to send instead.' }),
    error: z.object({
      type: z.enum([
        'invalid_request_error',
        'authentication_error',
        'permission_error',
        'not_found_error',
        'conflict_error',
        'rate_limit_error',
        'api_error',
      ]),
      code: z.enum(ERROR_CODES as [string, ...string[]]),
      details: z.array(z.object({ field: z.string(), issue: z.string() })),
    }),
  })
  .openapi('ErrorEnvelope');

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed body, failed validation, unsupported currency or missing header',
  401: 'Missing or invalid API key',
  403: 'The key may not do this',
  404: 'Unknown resource',
  409: 'Reference reused with a different body, a move the state does not allow, or (on a create) the key holds as many resources as this sandbox keeps (TENANT_FULL)',
  413: 'Body over 1 MiB',
  415: 'Body is not JSON',
  429: "Rate limited: when a scenario asks for it, or past 100 of the key's requests held at once by its scenario's latency and timeout faults",
  503: 'Unavailable: when a scenario asks for it, or while the sandbox is past its memory budget or cannot reach its database (with Retry-After)',
};

/** Error responses of a JSON route: the listed statuses plus a default, all the error envelope. */
export function errorResponses(...statuses: number[]) {
  const out: Record<string, { description: string; content: { 'application/json': { schema: typeof ErrorEnvelope } } }> = {};
  for (const s of [401, ...statuses]) {
    out[String(s)] = { description: DESCRIPTIONS[s] ?? 'Error', content: { 'application/json': { schema: ErrorEnvelope } } };
  }
  out.default = { description: 'Any other error, in the same envelope', content: { 'application/json': { schema: ErrorEnvelope } } };
  return out;
}

/** Error responses of an operation that needs no key: a body over the limit is all it can refuse. */
export function openErrorResponses() {
  const { 401: _keyed, ...rest } = errorResponses(413);
  return rest;
}

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const security = [{ bearerAuth: [] }];

/** The header an answer that replays an earlier request carries, as the document lists it on that
 * answer: `what` names what made the request the same one (its reference, its Idempotency-Key). */
export const replayedHeader = (what: string) => ({
  'Idempotent-Replayed': { description: `true when this answer replays an earlier request with the same ${what}: nothing new was done`, schema: { type: 'string' as const, enum: ['true'] } },
});

/** A router whose validation failures become the API's error envelope, and whose JSON bodies'
 * unknown fields and unknown query parameters are accepted and warned of (http/unknown-fields.ts). */
export function newRouter() {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });
  const openapi = router.openapi;
  router.openapi = ((route: RouteConfig, handler: never, hook?: never) => {
    const schema = inTurn((route.request?.body?.content as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema as z.ZodType | undefined);
    const query = inTurn(route.request?.query as z.ZodType | undefined);
    inTurn(route.request?.params as z.ZodType | undefined);
    const warning = async (result: Parameters<typeof validationHook>[0] & { target?: string }, c: Context<AppEnv>) => {
      validationHook(result, c);
      if (schema && result.target === 'json') await warnUnknownFields(c, schema);
      else if (query && result.target === 'query') warnUnknownQuery(c, query);
    };
    // A route that takes no query parameters names any it is sent, as one that takes some names its unknown ones.
    if (!query) route = { ...route, middleware: [...asList(route.middleware), noQuery] };
    // One that takes no body says so of a body it is sent, rather than ignoring it without a word.
    if (!route.request?.body && route.method !== 'get') route = { ...route, middleware: [...asList(route.middleware), noBody] };
    const headers = route.request?.headers as z.ZodObject | undefined;
    if (!headers) return openapi(route as never, handler, hook ?? (warning as never));
    // The document lists the headers as declared; they are checked by headerCheck, not by the
    // framework's validator, which reads every header of the request into a web Headers first.
    const { middleware, hide, ...documented } = route;
    if (!hide) router.openAPIRegistry.registerPath(documented);
    const checked = { ...route, hide: true, middleware: [...asList(middleware), headerCheck(headers, hook ?? warning)], request: { ...route.request, headers: undefined } };
    return openapi(checked as never, handler, hook ?? (warning as never));
  }) as typeof router.openapi;
  return router;
}

/** The schemas already given a synchronous parse (inTurn). */
const synchronous = new WeakSet<z.ZodType>();

/**
 * Has the framework's validator parse `schema` synchronously. The validator awaits zod's
 * `safeParseAsync`, but zod runs an object schema's compiled check (one generated function for its
 * fields) only in a synchronous parse, and walks the fields one by one otherwise: for a create's body
 * that walk was most of the validation's cost. A schema with an asynchronous check still gets the
 * asynchronous parse: zod's synchronous one throws at it, before any effect.
 */
function inTurn<T extends z.ZodType | undefined>(schema: T): T {
  if (!(schema instanceof z.ZodType) || synchronous.has(schema)) return schema;
  synchronous.add(schema);
  const later = schema.safeParseAsync.bind(schema);
  schema.safeParseAsync = ((value: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>) => {
    try {
      return Promise.resolve(schema.safeParse(value, params));
    } catch (error) {
      if (error instanceof z.core.$ZodAsyncError) return later(value, params);
      throw error;
    }
  }) as typeof schema.safeParseAsync;
  return schema;
}

const asList = <T>(m: T | T[] | undefined): T[] => (m === undefined ? [] : Array.isArray(m) ? m : [m]);

/** The query of an operation that takes none: every parameter sent is unknown. */
const NO_QUERY = z.object({});
// Plain, not async: on every read-back and create, it adds no promise of its own.
const noQuery: MiddlewareHandler<AppEnv> = (c, next) => {
  warnUnknownQuery(c, NO_QUERY);
  return next();
};

/** The warning of a body sent to an operation that takes none. */
export const BODY_IGNORED = 'a request body was sent and ignored: this operation takes none';
const noBody: MiddlewareHandler<AppEnv> = (c, next) => {
  if (hasBody(c)) warn(c, [BODY_IGNORED]);
  return next();
};

/** The route's header validator: the declared headers (a plain z.object, lower-case names) read by
 * name, parsed, and handed to the hook, as @hono/zod-validator does with the whole set (an object
 * schema drops the headers it does not declare, so the outcome is the same). It runs after the
 * route's own middleware and before its path, query and body are checked. */
function headerCheck(schema: z.ZodObject, hook: (result: never, c: Context<AppEnv>) => unknown): MiddlewareHandler<AppEnv> {
  const names = Object.keys(inTurn(schema).shape);
  return async (c, next) => {
    const value: Record<string, string> = {};
    for (const name of names) {
      const v = c.req.header(name);
      if (v !== undefined) value[name] = v;
    }
    const result = await schema.safeParseAsync(value);
    await hook({ data: value, ...result, target: 'header' } as never, c);
    if (!result.success) return c.json(result, 400);
    c.req.addValidatedData('header', result.data as never);
    await next();
  };
}

/** Envelope of the fiat payout and bank operations: status, message, data. */
export const successEnvelope = <T extends z.ZodType>(data: T, name?: string) => {
  const s = z.object({ status: z.literal('success'), message: z.string(), data });
  return name ? s.openapi(name) : s;
};

/** Operations that honour X-Sandbox-Scenario: every /api route and the bulk upload. */
export const takesScenarioHeader = (path: string) => path.startsWith('/api/') || path === '/_sandbox/bulk-disbursements';

/**
 * Adds the optional X-Sandbox-Scenario header to every operation that honours it. The header is
 * read by one middleware, not declared per route, so it is written into the document here.
 */
export function withScenarioHeader<D extends object>(document: D): D {
  const doc = document as { paths?: Record<string, Record<string, unknown>>; components?: Record<string, unknown> };
  const components = (doc.components ??= {}) as { parameters?: Record<string, unknown> };
  (components.parameters ??= {}).ScenarioHeader = {
    name: 'X-Sandbox-Scenario',
    in: 'header',
    required: false,
    // No example: the docs page's Try it out would send it on every call and change the outcome.
    schema: { type: 'string', maxLength: 100 },
    description:
      'A bundled or loaded scenario to apply to this one request, e.g. `failures` (see GET /_sandbox/scenarios); an unknown name is 400. Leave it empty for the key\'s own scenario.',
  };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!takesScenarioHeader(path)) continue;
    for (const op of Object.values(item) as { parameters?: unknown[] }[]) {
      if (op && typeof op === 'object') (op.parameters ??= []).push({ $ref: '#/components/parameters/ScenarioHeader' });
    }
  }
  return document;
}

/**
 * Documents X-Sandbox-Warning on the answers of every operation: an unknown or misspelt body field
 * or query parameter is accepted, as live services ignore it, and named there (http/unknown-fields.ts).
 */
export function withWarningHeader<D extends object>(document: D): D {
  type Op = {
    requestBody?: { content?: Record<string, unknown> };
    parameters?: { in?: string }[];
    responses?: Record<string, { headers?: Record<string, unknown> }>;
  };
  const doc = document as { paths?: Record<string, Record<string, Op>>; components?: Record<string, unknown> };
  const components = (doc.components ??= {}) as { headers?: Record<string, unknown> };
  (components.headers ??= {}).SandboxWarning = {
    required: false,
    schema: { type: 'string' },
    description:
      "Sandbox only: what the sandbox noticed and let pass, e.g. unknown field 'narration' was ignored: did you mean 'narrations'? " +
      '(several joined by "; "). The same text is kept in the request\'s journal entry (warnings).',
  };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      // Every operation names the query parameters it does not take, and one with a JSON body the
      // body's unknown fields.
      if (!op?.responses) continue;
      for (const response of Object.values(op.responses)) (response.headers ??= {})['X-Sandbox-Warning'] = { $ref: '#/components/headers/SandboxWarning' };
    }
  }
  return document;
}

type Operation = { operationId?: string; tags?: string[] };
type Doc = { paths?: Record<string, Record<string, Operation>>; tags?: { name: string }[] };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** An operationId from the method and the path's fixed segments, for an operation that declares
 * none: PUT /api/v1/quotes/complete/{id} → putQuotesComplete. Stable while the path is. */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1(\/partners)?/, '')
    .split(/[/_.-]+/)
    .filter((w) => w !== '' && !w.startsWith('{'));
  return method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** A tag of the API document, and its place on the docs page (which groups operations by tag). */
export interface Tag {
  readonly name: string;
  readonly description: string;
  /**
   * Tags are shown by this number: the API document's sections in its order (1 to 6), then what the
   * live reference adds (7, 8, ...), then the control API's (100 and up). A domain declares its own
   * (DomainModule.tags); the app sorts them.
   */
  readonly order: number;
}

/** The control API's tag: the generic /_sandbox routes (admin/) and the control routes a domain owns. */
export const CONTROL_TAG: Tag = {
  name: 'Sandbox control',
  description: "The sandbox's own API, acting on your key's tenant only: clock, scenarios, simulation, journal, events, balances.",
  order: 100,
};

/**
 * The partner API first and the /_sandbox control API last, so the document (and the docs page,
 * which groups by tag in the order of the tags list) opens on what partners come for: paths in that
 * order, and the tags in the order given (a tag no operation uses is left out; one missing from the
 * list follows it, without a description). Every operation has an operationId, so generated clients
 * have method names.
 */
export function partnerApiFirst<D extends object>(document: D, tagOrder: readonly Tag[]): D {
  const doc = document as Doc;
  const entries = Object.entries(doc.paths ?? {});
  const control = (p: string) => p.startsWith('/_sandbox');
  const ordered = [...entries.filter(([p]) => !control(p)), ...entries.filter(([p]) => control(p))];
  const used = new Set<string>();
  for (const [path, item] of ordered) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      op.operationId ??= derivedOperationId(method, path);
      for (const tag of op.tags ?? []) used.add(tag);
    }
  }
  const listed = tagOrder.filter((t) => used.has(t.name)).map(({ name, description }) => ({ name, description }));
  const unlisted = [...used].filter((name) => !tagOrder.some((t) => t.name === name)).map((name) => ({ name }));
  doc.paths = Object.fromEntries(ordered);
  doc.tags = [...listed, ...unlisted];
  return document;
}
