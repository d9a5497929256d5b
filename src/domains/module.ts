import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { Resource } from '../engine/registry/resource.js';
import type { ScenarioRegistry } from '../engine/scenario/scenario.registry.js';
import type { JobHandler } from '../engine/tenancy/tenant.js';
import type { Tag } from '../http/openapi.js';
import type { AppEnv } from '../http/types.js';

/** What a domain's control routes may use of the app they are mounted in. */
export interface SandboxContext {
  scenarios: ScenarioRegistry;
}

/** Middleware a domain sets on paths of its own, before everything the app sets there. */
export interface PathMiddleware {
  /** A Hono path pattern: /api/v1/partners/fx/*. */
  readonly path: string;
  readonly handler: MiddlewareHandler<AppEnv>;
}

/**
 * What a domain contributes to the app: its routes of the API and their tags, its own /_sandbox
 * control routes (mounted by admin/ beside the generic ones), and one description per resource it
 * holds. createApp reads nothing else of a domain and names none (but webhooks, which it builds
 * around its outbox): a domain is its folder and its entry in the domain list (index.ts).
 */
export interface DomainModule {
  routes?: OpenAPIHono<AppEnv>;
  /** The tags its routes use, with their descriptions and places in the API document. */
  tags?: readonly Tag[];
  /** Set before the app's body limit, journal and key check (the FX interface answers their errors as XML). */
  before?: readonly PathMiddleware[];
  /** Its control routes (<x>.sandbox.ts). */
  sandbox?: (ctx: SandboxContext) => OpenAPIHono<AppEnv>;
  /** Each resource's description (engine/resource.ts): scenarios, events, simulators, the resource list and jobs come from these. */
  resources?: readonly Resource[];
  /** Timed moves that belong to no resource. */
  jobs?: Record<string, JobHandler>;
  /** Collections it keeps a tenant's settings in: a reset keeps them. */
  settings?: readonly string[];
  /** Scenario sections it reads besides its resources' own (webhook faults). */
  scenario?: Readonly<Record<string, z.ZodType>>;
  /** Work done when an app is built, so that no request pays for it (the FX interface compiles its requests' XSDs). */
  prepare?: () => void;
}
