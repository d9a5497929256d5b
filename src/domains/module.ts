import type { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import type { Resource } from '../engine/registry/resource.js';
import type { ScenarioRegistry } from '../engine/scenario/scenario.registry.js';
import type { JobHandler } from '../engine/tenancy/tenant.js';
import type { AppEnv } from '../http/types.js';

/** What a domain's control routes may use of the app they are mounted in. */
export interface SandboxContext {
  scenarios: ScenarioRegistry;
}

/**
 * What a domain contributes to the app: its routes of the API, its own /_sandbox control routes
 * (mounted by admin/ beside the generic ones), and one description per resource it holds.
 */
export interface DomainModule {
  routes?: OpenAPIHono<AppEnv>;
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
}
