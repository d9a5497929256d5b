// The one middleware that applies scenario faults to /api requests. It also checks the
// X-Sandbox-Scenario header before any handler runs (an unknown name is 400). Faults are the closed
// list of engine/requests/fault-rules.ts; this file is the only place that knows how each one reaches the wire.
import type { Context, MiddlewareHandler, Next } from 'hono';
import { SandboxError } from '../kernel/errors.js';
import { renderError } from './error-responses.js';
import { nodeRequest, nodeResponse, replaceResponse as replace } from './framework.js';
import { chooseFault, readsRequest, type ChosenFault, type FaultRequest, type FaultRule } from '../engine/requests/fault-rules.js';
import type { ScenarioRegistry } from '../engine/scenario/scenario.registry.js';
import { findScenario, scenarioInForce, unknownScenario } from '../engine/scenario/scenario.select.js';
import type { Tenant } from '../engine/tenancy/tenant.js';
import { answerSchema, driftJson, driftXml, type ApiDocument } from './drift.js';
import { scopeOf } from './scope-middleware.js';
import { requestScenario } from './respond.js';
import { takesScenarioHeader } from './openapi.js';
import { keepWarnings, warn } from './warnings.js';
import type { AppEnv } from './types.js';
import { isJsonType, isXmlType } from './media-type.js';

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The message of an error fault that gives none: what its code means, in words. */
function defaultMessage(f: Extract<ChosenFault, { kind: 'error' }>): string {
  const wait = f.retryAfter !== undefined ? ` Retry after ${f.retryAfter} second${f.retryAfter === 1 ? '' : 's'}.` : ' Retry the request.';
  if (f.status === 429) return `Too many requests for this API key.${wait}`;
  if (f.status >= 500) return `The service could not handle the request (HTTP ${f.status}, set by the sandbox scenario).${wait}`;
  const words = f.code.toLowerCase().replace(/_/g, ' ');
  return `${words[0].toUpperCase()}${words.slice(1)} (answered by the sandbox scenario).`;
}

function faultError(f: Extract<ChosenFault, { kind: 'error' }>): SandboxError {
  const headers: Record<string, string> = { 'X-Sandbox-Fault': `error ${f.status}` };
  if (f.retryAfter !== undefined) headers['Retry-After'] = String(f.retryAfter);
  return new SandboxError(f.code, f.message ?? defaultMessage(f), [], headers);
}

/** What a fault rule's `when` reads: the JSON body (when it is one) over the query, and the headers. */
async function faultRequest(c: Context<AppEnv>): Promise<FaultRequest> {
  await arrived(c);
  const fields: Record<string, unknown> = { ...c.req.query() };
  // A JSON body as the route reads it (parsed once, within its budget); any other body (an FX XML
  // one), a malformed one or one over the budget leaves the query and the headers to read.
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && isJsonType(c.req.header('content-type'))) {
    const body: unknown = await c.req.json().catch(() => undefined);
    if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(fields, body);
  }
  return { method: c.req.method, path: c.req.path, fields, header: (name) => c.req.header(name) };
}

/** Close the client's connection without an answer. In-process requests get a body that fails. */
function dropConnection(c: Context<AppEnv>): Response {
  const incoming = nodeRequest(c);
  if (incoming?.socket) {
    incoming.socket.destroy();
    return new Response(null, { status: 200 });
  }
  return new Response(
    new ReadableStream({
      start(controller) {
        controller.error(new Error('connection dropped by the sandbox scenario'));
      },
    }),
    { status: 200 },
  );
}

/** Where a drift fault reads what an answer is documented to be. */
export interface DriftSources {
  /** The API document the app serves (/openapi.json). */
  document(): ApiDocument;
  /** The XSD of an XML message root, if there is one. */
  xsd(root: string): string | undefined;
}

export interface FaultsOptions {
  registry: ScenarioRegistry;
  /** The tenant's fault seed (from the global seed). */
  seedOf: (t: Tenant) => number;
  sleep?: Sleep;
  /** Without them a drift fault leaves every answer as it is. */
  drift?: DriftSources;
}

/** How many of one key's requests latency and timeout faults hold at once, in this process. Each
 * holds a connection, and the server's connections are shared by every key (--max-connections):
 * past this a request the rule picks is refused, not held. */
export const HELD_PER_KEY = 100;

export function faultsMiddleware(opts: FaultsOptions): MiddlewareHandler<AppEnv> {
  const sleep = opts.sleep ?? realSleep;
  /** Requests a latency or timeout fault holds now, by tenant. */
  const held = new Map<string, number>();
  const letGo = (id: string) => {
    const n = (held.get(id) ?? 1) - 1;
    if (n > 0) held.set(id, n);
    else held.delete(id);
  };
  // Not async (see framework.ts, plain middleware): a request under a scenario without faults (nearly every one) goes straight on.
  return (c, next) => {
    const t = c.get('tenant');
    const { scenario } = scenarioInForce(t, opts.registry, requestScenario(c));
    const rules = scenario.doc.faults;
    if (!rules?.length) return next();
    if (readsRequest(rules)) return faultRequest(c).then((req) => strike(c, next, t, scenario.name, rules, req));
    return strike(c, next, t, scenario.name, rules, { method: c.req.method, path: c.req.path, fields: {}, header: () => undefined });
  };

  /** Choose the fault, if any, and apply it; then tell the journal what happened. */
  function strike(c: Context<AppEnv>, next: Next, t: Tenant, scope: string, rules: readonly FaultRule[], req: FaultRequest) {
    const hit = chooseFault(t, opts.seedOf(t), scope, rules, req);
    if (!hit) return next();
    const holdMs = hit.fault.kind === 'latency' ? hit.fault.ms : hit.fault.kind === 'timeout' ? hit.fault.holdMs : undefined;
    const release = holdMs === undefined ? undefined : hold(c, t.id, holdMs);
    const applied = applyFault(c, next, hit.fault, sleep, opts.drift, release);
    return (release === undefined ? applied : applied.catch((err: unknown) => {
      release();
      throw err;
    })).then((res) => {
      // What the journal tells: the rule, the sandbox's own answer, and what reached the client.
      const f = hit.fault;
      const sent = f.kind === 'drop' ? 'dropped' : f.kind === 'timeout' ? 'timeout' : (res ?? c.res).status;
      const form = f.kind === 'drift' ? f.form : f.kind === 'malformed' ? (f.form ?? 'truncated') : null;
      const field = f.kind === 'drift' ? (c.get('drifted') ?? null) : null;
      c.set('fault', { kind: f.kind, rule: hit.rule, scenario: scope, form, field, status: c.get('faultStatus') ?? (typeof sent === 'number' ? sent : null), sent });
      return res;
    });
  }

  /** Count a request a fault is about to hold, or refuse it (429) when its key holds HELD_PER_KEY.
   * Gives what stops counting it, once: the wait's end, or its client leaving (the wait goes on,
   * but no connection is held any more). */
  function hold(c: Context<AppEnv>, id: string, ms: number): () => void {
    const n = held.get(id) ?? 0;
    if (n >= HELD_PER_KEY) {
      throw new SandboxError(
        'RATE_LIMITED',
        `This API key has ${HELD_PER_KEY} requests held by latency or timeout faults already, the most one key may have held at once: this one is refused rather than held. Retry once some have been answered, or give the fault rule a lower rate.`,
        [{ field: 'faults', issue: `latency and timeout faults hold at most ${HELD_PER_KEY} requests of a key at once` }],
        { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) },
      );
    }
    held.set(id, n + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      letGo(id);
    };
    nodeResponse(c)?.once('close', release);
    return release;
  }
}

/** For a route outside /api that honours X-Sandbox-Scenario (the bulk upload): an unknown name is 400,
 * as the faults middleware answers it on /api routes. */
export function scenarioHeaderCheck(registry: ScenarioRegistry): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const name = requestScenario(c);
    if (name && !findScenario(c.get('tenant'), registry, name)) throw unknownScenario(name, registry, 'X-Sandbox-Scenario', c.get('tenant'));
    return next();
  };
}

/** The warning of an X-Sandbox-Scenario header sent to a control route that does not read it. */
export const SCENARIO_HEADER_IGNORED =
  "header 'X-Sandbox-Scenario' was ignored: it applies to API routes only (/api/v1/... and POST /_sandbox/bulk-disbursements); PUT /_sandbox/scenario sets this key's scenario";

/** On /_sandbox: an X-Sandbox-Scenario header the route does not honour is named in X-Sandbox-Warning,
 * on every answer the route gives (a refusal too), rather than passing without a word. */
export const scenarioHeaderIgnored: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!requestScenario(c) || takesScenarioHeader(c.req.path)) return next();
  warn(c, [SCENARIO_HEADER_IGNORED]);
  await next();
  keepWarnings(c);
};

/**
 * A fault holds a request only once all of it has arrived, so the server's request timeout (which
 * bounds how long a client takes to send) never cuts a hold short. The body is kept for the route;
 * a body that fails to arrive or to decode fails there, as it would without the fault.
 */
async function arrived(c: Context<AppEnv>): Promise<void> {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') await c.req.text().catch(() => undefined);
}

/** One chosen fault, as it reaches the wire. */
async function applyFault(c: Context<AppEnv>, next: Next, fault: ChosenFault, sleep: Sleep, sources?: DriftSources, held: () => void = noop): Promise<Response | void> {
  switch (fault.kind) {
    case 'error':
      return renderError(c, faultError(fault));
    case 'latency':
      await arrived(c);
      await next();
      c.header('X-Sandbox-Fault', `latency ${fault.ms}ms`);
      return wait(c, () => sleep(fault.ms), held);
    case 'timeout':
      if (fault.processed) await endStream(c, next);
      else await arrived(c);
      replace(c, new Response(null, { status: 200 }));
      return wait(c, async () => {
        await sleep(fault.holdMs);
        replace(c, dropConnection(c));
      }, held);
    case 'drop':
      if (fault.processed) await endStream(c, next);
      return replace(c, dropConnection(c));
    case 'malformed':
      return malformed(c, next, fault.form ?? 'truncated');
    case 'drift':
      return drift(c, next, fault.form, sources);
  }
}

/**
 * The answer, made as usual, with one field drifted from what the API document (JSON) or the XSD
 * of its root (XML) says of it (see drift.ts). An answer with no field its form can change, or an
 * event stream, goes out as it is, without X-Sandbox-Fault.
 */
async function drift(c: Context<AppEnv>, next: Next, form: Extract<ChosenFault, { kind: 'drift' }>['form'], sources: DriftSources | undefined): Promise<Response | void> {
  await next();
  c.set('drifted', null);
  const type = c.res.headers.get('content-type') ?? undefined;
  const json = isJsonType(type);
  if (!sources || isStream(c) || !(json || isXmlType(type))) return;
  const text = await c.res.text();
  let out: { text: string; field: string | null } = { text, field: null };
  if (json) {
    try {
      const document = sources.document();
      const drifted = driftJson(document, answerSchema(document, c.req.method, c.req.path, c.res.status), JSON.parse(text) as unknown, form);
      out = { text: drifted.field === null ? text : JSON.stringify(drifted.body), field: drifted.field };
    } catch {
      // not JSON after all: sent as it was
    }
  } else {
    const root = /^(?:<\?xml[^>]*\?>\s*)?<([A-Za-z_][\w.-]*)/.exec(text)?.[1];
    const drifted = driftXml(text, root ? sources.xsd(root) : undefined, form);
    out = { text: drifted.body, field: drifted.field };
  }
  const headers = new Headers(c.res.headers);
  if (out.field !== null) {
    headers.delete('content-length');
    headers.set('X-Sandbox-Fault', `drift ${form}`);
    c.set('drifted', out.field);
  }
  return replace(c, new Response(out.text, { status: c.res.status, headers }));
}

/** The error page a reverse proxy answers with when the service behind it fails. */
const PROXY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** The answer, spoiled in one of the ways a client must survive. */
async function malformed(c: Context<AppEnv>, next: Next, form: NonNullable<Extract<ChosenFault, { kind: 'malformed' }>['form']>): Promise<Response> {
  if (form === 'html') {
    return replace(c, new Response(PROXY_PAGE, { status: 502, headers: { 'content-type': 'text/html', 'X-Sandbox-Fault': 'malformed html' } }));
  }
  await next();
  // An event stream never ends by itself: its first half is nothing.
  const text = isStream(c) ? (await c.res.body?.cancel(), '') : await c.res.text();
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  headers.set('X-Sandbox-Fault', form === 'truncated' ? 'malformed' : `malformed ${form}`);
  const half = text.slice(0, Math.ceil(text.length / 2));
  switch (form) {
    case 'truncated':
      return replace(c, new Response(half, { status: c.res.status, headers }));
    case 'invalid':
      return replace(c, new Response(unparseable(text), { status: c.res.status, headers }));
    case 'content-type':
      headers.set('content-type', 'text/plain; charset=utf-8');
      return replace(c, new Response(text, { status: c.res.status, headers }));
    case 'reset': {
      // Headers and half the body go out, then the connection is reset mid-body.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(half));
          // Over a socket it is destroyed, as a reset does; in process the body fails instead.
          setTimeout(
            scopeOf(c).guard(() => {
              const socket = nodeRequest(c)?.socket;
              if (socket) socket.destroy();
              else controller.error(new Error('connection reset by the sandbox scenario'));
            }),
            10,
          );
        },
      });
      return replace(c, new Response(body, { status: c.res.status, headers }));
    }
  }
}

/** The whole body made unparseable: JSON with its keys unquoted, XML without its root's end tag. */
function unparseable(text: string): string {
  const end = /<\/[A-Za-z]+>\s*$/.exec(text);
  if (end) return text.slice(0, end.index);
  return text.replace(/"([A-Za-z_][A-Za-z0-9_]*)":/g, '$1:');
}

/**
 * A fault's wait, once the request's work is done and the journal has recorded it, which then lets
 * go of the request's body (journal-middleware.ts): what waits is the answer alone. A request
 * holding its tenant (locked, on a shared store, for every replica) waits after letting it go, so
 * the key's other requests never wait behind a fault; the answer (or the dropped connection) leaves
 * after the wait either way. `done` runs once the wait has ended (the key's count of held requests).
 */
function wait(c: Context<AppEnv>, work: () => Promise<void>, done: () => void): void {
  c.set(c.get('tenantHeld') ? 'afterRelease' : 'afterJournal', () => work().finally(done));
}

const noop = (): void => undefined;

const isStream = (c: Context) => (c.res.headers.get('content-type') ?? '').startsWith('text/event-stream');

/** Run the route; an event stream it answered with is ended at once, since its answer is replaced. */
async function endStream(c: Context<AppEnv>, next: Next): Promise<void> {
  await next();
  c.set('faultStatus', c.res.status);
  if (isStream(c)) await c.res.body?.cancel();
}
