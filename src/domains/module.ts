import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Simulators } from '../admin/simulators.js';
import type { JobHandler } from '../engine/tenant.js';
import type { AppEnv } from '../http/types.js';

/** What a domain contributes to the app: its routes, its timed moves, its simulated moves. */
export interface DomainModule {
  routes: OpenAPIHono<AppEnv>;
  jobs?: Record<string, JobHandler>;
  simulators?: Simulators;
}
