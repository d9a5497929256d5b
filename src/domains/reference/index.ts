import type { DomainModule } from '../module.js';
import { bankRoutes } from './banks.routes.js';
import { referenceSandbox } from './reference.sandbox.js';

/** Banks, fees, balance accounts and balances: the data other domains check against. Its routes are
 * the two bank look-ups of the API and its control routes (balances, top-up, balance accounts). */
export const referenceDomain = { routes: bankRoutes, sandbox: referenceSandbox, resources: [] } satisfies DomainModule;
