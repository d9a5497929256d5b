import type { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import type { Resource } from '../engine/resource.js';
import type { JobHandler } from '../engine/tenant.js';
import type { AppEnv } from '../http/types.js';

/** What a domain contributes to the app: its routes and one description per resource it holds. */
export interface DomainModule {
  routes: OpenAPIHono<AppEnv>;
  /** Each resource's description (engine/resource.ts): scenarios, events, simulators, the resource list and jobs come from these. */
  resources?: readonly Resource[];
  /** Timed moves that belong to no resource. */
  jobs?: Record<string, JobHandler>;
  /** Scenario sections it reads besides its resources' own (webhook faults). */
  scenario?: Readonly<Record<string, z.ZodType>>;
}
