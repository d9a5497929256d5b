// The /_sandbox control API. admin/ holds the routes that are generic over the tenant and the
// resource registry (health, reset, clock, request journal, event log, simulate, resources,
// scenarios); each domain owns its own control routes (<x>.sandbox.ts), mounted here beside them.
// admin/ imports no domain: it sees resources only through their descriptions.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { EventCatalog } from '../engine/registry/events.js';
import type { Resource } from '../engine/registry/resource.js';
import type { ScenarioRegistry } from '../engine/scenario/scenario.registry.js';
import type { HeapBudget } from '../kernel/heap-budget.js';
import type { AppEnv } from '../http/types.js';
import { newRouter } from '../http/openapi.js';
import { adminRoutes, type Settle } from './admin.routes.js';
import { resourceRoutes } from './resources.routes.js';
import { scenarioRoutes } from './scenario.routes.js';

/** Control routes that need no key. */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/_sandbox/health', '/_sandbox/scenario.schema.json']);

export interface ControlOptions {
  scenarios: ScenarioRegistry;
  resources: readonly Resource[];
  events: EventCatalog;
  /** Each domain's own control routes. */
  domainRoutes: readonly OpenAPIHono<AppEnv>[];
  startedAt: number;
  storeKind: 'memory' | 'lowdb' | 'postgres';
  /** What a clock advance waits for between moves (webhook attempts). */
  settle?: Settle;
  /** The seed the server runs with, shown by health. */
  seed?: number;
  /** The process's memory budget, shown by health. */
  heap?: HeapBudget;
}

export function controlRoutes(opts: ControlOptions) {
  const simulators = new Map(opts.resources.flatMap((r) => (r.simulator ? [[r.segment, r.simulator] as const] : [])));
  const router = newRouter()
    .route('/', scenarioRoutes(opts.scenarios))
    .route('/', adminRoutes({ simulators, events: opts.events, startedAt: opts.startedAt, storeKind: opts.storeKind, settle: opts.settle, seed: opts.seed, heap: opts.heap }))
    .route('/', resourceRoutes(opts.resources));
  for (const routes of opts.domainRoutes) router.route('/', routes);
  return router;
}
