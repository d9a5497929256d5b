// createApp(deps): the whole sandbox as a Hono app. No I/O and no timers: main.ts owns those.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Config } from './config.js';
import type { Clock } from './kernel/clock.js';
import { HeapBudget } from './kernel/heap-budget.js';
import type { Behaviour } from './engine/registry/behaviour.js';
import { ScenarioRegistry } from './engine/scenario/scenario.registry.js';
import { scenarioBehaviourFor } from './engine/scenario/scenario.select.js';
import { EventCatalog, type SandboxEvent } from './engine/registry/events.js';
import { scenarioFormat, type ScenarioFormat } from './engine/scenario/scenario.schema.js';
import type { Tenant } from './engine/tenancy/tenant.js';
import { Tenants } from './engine/tenancy/tenants.js';
import type { Store } from './store/store.js';
import { controlRoutes, OPEN_PATHS } from './admin/index.js';
import { consoleRoutes } from './console/console.routes.js';
import { domains, resourcesOf } from './domains/index.js';
import type { DomainModule } from './domains/module.js';
import { handedOver, keepQueued, Outbox, payloadDrift, webhookScenarioSections, webhooksModule } from './domains/webhooks/index.js';
import pkg from '../package.json' with { type: 'json' };
import { Compressed, docsRoutes } from './http/docs.js';
import { readinessRoutes } from './readiness/readiness.routes.js';
import { webhookSources } from './readiness/sources.js';
import { onError, onNotFound, validationHook } from './http/error-responses.js';
import { CONTROL_TAG, partnerApiFirst, withScenarioHeader, withWarningHeader, type Tag } from './http/openapi.js';
import { faultsMiddleware, scenarioHeaderIgnored, type Sleep } from './http/fault-responses.js';
import { journalMiddleware } from './http/journal-middleware.js';
import { bodyLimit } from './http/limits.js';
import { budgetedJson } from './http/json-body.js';
import { requestScope } from './http/scope-middleware.js';
import { KeptStaticRouter } from './http/framework.js';
import { tenantSeed } from './kernel/random.js';
import { Streams, type StreamLimits } from './http/streams.js';
import { tenantMiddleware } from './http/tenant-auth.js';
import { isXsdName, xsdText } from './iso20022/xsd-names.js';
import { plainJsonType } from './http/media-type.js';
import type { AppEnv } from './http/types.js';

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  allowedKeys?: ReadonlySet<string>;
  /** Bundled scenarios and the start default; main.ts loads them at boot. Absent: loaded here from config.scenario. */
  scenarios?: ScenarioRegistry;
  behaviourFor?: (tenant: Tenant, name?: string) => Behaviour;
  /** How latency and timeout faults wait (tests replace it). */
  sleep?: Sleep;
  onEvent?: (tenant: Tenant, event: SandboxEvent) => void;
  /** Sends webhooks; pass one to await `outbox.idle()` in tests. */
  outbox?: Outbox;
  /** The domains of the API; the real list (domains/index.ts) unless a test adds one. */
  domains?: readonly DomainModule[];
  /** The app's event streams (a test passes one with a short heartbeat); streamsFor(config) by default. */
  streams?: Streams;
  /** Base-clock ms at which the market began (the store's origin); the clock's now by default. */
  marketOrigin?: number;
  /** Real time one clock advance may spend waiting for webhook attempts (15 s by default). */
  advanceWaitMs?: number;
  /** The process's memory budget; by default one of config.heapBudget over V8's heap, which reads
   * nothing until started (the server starts it). */
  heap?: HeapBudget;
}

/** The event streams the config asks for: its heartbeat, its server-wide cap (without one, a quarter
 * of the file limit Linux usually gives, since only main.ts reads the process's) and its lifetime;
 * `overrides` (a test's short heartbeat or lifetime) win. */
export function streamsFor(config: Config, overrides: StreamLimits = {}): Streams {
  return new Streams({
    heartbeatMs: config.heartbeatSeconds * 1000,
    maxOpen: config.maxStreams,
    lifetimeMs: config.streamLifetime * 1000,
    ...overrides,
  });
}

const formats = new WeakMap<readonly DomainModule[], ScenarioFormat>();

/** The scenario format of a domain list (its resources' sections and the webhooks one), built once per list. */
export function scenarioFormatOf(list: readonly DomainModule[] = domains): ScenarioFormat {
  let format = formats.get(list);
  if (!format) {
    const lifecycles = resourcesOf(list).flatMap((r) => (r.lifecycle ? [r.lifecycle] : []));
    const sections = Object.assign({}, ...list.map((d) => d.scenario ?? {}), webhookScenarioSections);
    // The routes a fault rule may name: every /api route of the domains.
    const routes = list.flatMap((d) => (d.routes?.routes ?? []).filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL'));
    formats.set(list, (format = scenarioFormat(lifecycles, sections, routes)));
  }
  return format;
}

/** The webhooks' tag. Their module is built around the app's outbox (createApp), so it is not in
 * the domain list, and its tag is added here. */
const WEBHOOKS_TAG: Tag = {
  name: 'Sandbox webhooks',
  description: "Where your key's events are sent, how they are signed, and the deliveries made.",
  order: 101,
};

/** The document's tags in the order the docs page shows them (Tag.order): the domains' own, in the
 * API document's order, then the control API's. */
export function tagsOf(list: readonly DomainModule[] = domains): Tag[] {
  return [...list.flatMap((d) => d.tags ?? []), CONTROL_TAG, WEBHOOKS_TAG].sort((a, b) => a.order - b.order);
}

export function createApp(deps: AppDeps) {
  const { config } = deps;
  const list: readonly DomainModule[] = deps.domains ?? domains;
  const resources = resourcesOf(list);
  const scenarios = deps.scenarios ?? ScenarioRegistry.load(config.scenario, scenarioFormatOf(list));
  const events = new EventCatalog(resources.flatMap((r) => r.lifecycle?.events ?? []), resources.flatMap((r) => r.lifecycle?.finalEvents ?? []));
  const outbox = deps.outbox ?? new Outbox({ targets: config.webhookTargets });
  // On a shared store, a replica may die holding attempts in its outbox: each is written down first.
  const handoff = deps.store.kind === 'postgres' ? handedOver(outbox, () => deps.clock.now()) : undefined;
  // A scenario's webhooks.drift reads the resources' schemas from the API document (built below).
  const webhooks = webhooksModule(outbox, events, handoff?.sender, payloadDrift(() => apiDocument()));
  const modules = [...list, webhooks];
  const streams = deps.streams ?? streamsFor(config);
  const jobHandlers = Object.assign({}, ...resources.map((r) => r.jobs), ...modules.map((d) => d.jobs ?? {}));
  const heap = deps.heap ?? new HeapBudget(config.heapBudget / 100);
  const tenants = new Tenants(
    deps.store,
    {
      clock: deps.clock,
      jobHandlers,
      behaviourFor: deps.behaviourFor ?? scenarioBehaviourFor(scenarios),
      onEvent: (t, e) => {
        webhooks.onEvent(t, e);
        deps.onEvent?.(t, e);
      },
      journalSize: config.journalSize,
      eventLogSize: config.eventLogSize,
      retentionMs: config.resourceRetention * 1000,
      maxResources: config.maxResources,
      heap,
      retained: resources,
      settings: modules.flatMap((d) => d.settings ?? []),
      seed: config.seed,
      overdue: handoff?.overdue,
      marketOrigin: deps.marketOrigin ?? deps.clock.now(),
      clockStart: config.clock,
    },
    config.seed,
    { maxLoaded: config.maxTenants, busy: (t) => outbox.has(t) || streams.openFor(t) > 0, idleMs: config.tenantRetention * 1000 },
  );

  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never, router: new KeptStaticRouter() });
  app.onError(onError);
  app.notFound(onNotFound(() => app.routes));

  const withTenant = tenantMiddleware(tenants, { allowedKeys: deps.allowedKeys, liveFormat: config.keyFormat === 'live' });
  const faultSeeds = new WeakMap<Tenant, number>();
  const seedOf = (t: Tenant) => faultSeeds.get(t) ?? faultSeeds.set(t, tenantSeed(config.seed, `faults:${t.id}`)).get(t)!;
  // A domain's own middleware first: the FX interface answers errors as XML, its key check and body limit included.
  for (const d of modules) for (const { path, handler } of d.before ?? []) app.use(path, handler);
  app.use('/api/*', bodyLimit(config.bodyLimitBytes, { strictJson: true }), budgetedJson(), plainJsonType(), withTenant, journalMiddleware(), (c, next) => {
    c.set('streams', streams);
    return next();
  });
  // A drift fault reads what an answer is documented to be: the API document, the FX XSDs.
  const drift = { document: () => apiDocument(), xsd: (root: string) => (isXsdName(root) ? xsdText(root) : undefined) };
  app.use('/api/*', faultsMiddleware({ registry: scenarios, seedOf, sleep: deps.sleep, drift }), requestScope());
  // A control route may declare its own body limit (the bulk upload's is larger); the rest keep this one.
  const sandboxLimit = bodyLimit(config.bodyLimitBytes, { yieldToRoute: true });
  app.use('/_sandbox/*', scenarioHeaderIgnored, sandboxLimit, budgetedJson(), plainJsonType(), (c, next) => (OPEN_PATHS.has(c.req.path) ? next() : withTenant(c, next)), requestScope());

  const ctx = { scenarios };
  app.route(
    '/',
    controlRoutes({
      scenarios,
      resources,
      events,
      domainRoutes: modules.flatMap((d) => (d.sandbox ? [d.sandbox(ctx)] : [])),
      startedAt: Date.now(),
      storeKind: deps.store.kind,
      // An advance lets each webhook attempt a move started finish (bounded) before going on, so retries fall due in order.
      settle: {
        busy: (t) => outbox.has(t),
        wait: (t, maxMs) => outbox.settled(t, Math.min(maxMs, outbox.options.timeoutMs + 1000)).then(() => undefined),
        budgetMs: deps.advanceWaitMs ?? 15_000,
      },
      seed: config.seed,
      heap,
    }),
  );
  for (const d of modules) if (d.routes) app.route('/', d.routes);
  for (const d of modules) d.prepare?.();

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'sk_test_ keys select sandbox mode, sk_live_ keys live simulation. Every key is its own tenant.',
  });
  // Built once, on first request, when every route is registered.
  let openapi: object | undefined;
  const apiDocument = () =>
    (openapi ??= partnerApiFirst(
      withScenarioHeader(withWarningHeader(
        app.getOpenAPI31Document({
          openapi: '3.1.0',
          info: {
            title: 'payments-sandbox',
            version: pkg.version,
            description: 'Sandbox of the partner payments, FX and transfers API, with the /_sandbox control API.',
            // package.json: UNLICENSED, a private project. OpenAPI 3.1 takes an SPDX identifier, which
            // the generator's type (written for 3.0) does not list.
            license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' } as { name: string },
          },
          servers: [{ url: '/' }],
        }),
      )),
      tagsOf(list),
    ));
  // Sent compressed as the client accepts, compressed once.
  let openapiText: Compressed | undefined;
  app.get('/openapi.json', (c) => (openapiText ??= new Compressed(JSON.stringify(apiDocument()))).respond(c, 'application/json; charset=utf-8'));
  // Its sources are the webhooks domain's; it is mounted after the /_sandbox middleware like the rest of the control API.
  app.route('/', readinessRoutes(webhookSources(outbox.options.timeoutMs)));
  app.route('/', docsRoutes());
  app.route('/', consoleRoutes());

  /** Before the store closes: attempts in flight finish; queued ones stay due in the store (a shared
   * store has them written down as handoffs already). */
  const closeWebhooks = () => outbox.close(handoff ? undefined : keepQueued);
  return { app, tenants, outbox, streams, heap, closeWebhooks };
}

export type App = ReturnType<typeof createApp>['app'];
