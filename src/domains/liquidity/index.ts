import type { DomainModule } from '../module.js';
import { marketScenarioSections } from './market.scenario.js';
import { rateRoutes, ratesTag } from './rates.routes.js';

/** The market's rates as the live service publishes them: the JSON rate and the rate stream. */
export const liquidityDomain = { routes: rateRoutes, tags: [ratesTag], resources: [], scenario: marketScenarioSections } satisfies DomainModule;
