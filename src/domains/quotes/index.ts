import type { DomainModule } from '../module.js';
import { SIMULATED_QUOTE_EVENTS, type QuoteEvent } from './quotes.machine.js';
import { quoteRoutes } from './quotes.routes.js';
import { moveQuote, quoteJobs } from './quotes.service.js';

export const quotesModule: DomainModule = {
  routes: quoteRoutes,
  jobs: quoteJobs,
  simulators: {
    quotes: {
      events: SIMULATED_QUOTE_EVENTS,
      apply: (t, id, event) => moveQuote(t, id, event as QuoteEvent).view,
    },
  },
};
