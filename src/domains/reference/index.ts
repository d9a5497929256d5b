import type { DomainModule } from '../module.js';
import { referenceSandbox } from './reference.sandbox.js';

/** Banks, fees, balance accounts and balances: the data other domains check against; only control routes of its own. */
export const referenceDomain = { sandbox: referenceSandbox, resources: [] } satisfies DomainModule;
