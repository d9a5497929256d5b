import { defineResource } from '../../engine/registry/resource.js';
import type { DomainModule } from '../module.js';
import { quoteOf, quoteView, type StoredQuote } from './quotes.build.js';
import { quote, SIMULATED_QUOTE_EVENTS } from './quotes.machine.js';
import { liveQuoteRoutes, paymentQuotesTag } from './quotes.live.routes.js';
import { quoteRoutes, quotesTag } from './quotes.routes.js';
import { moveQuote, quoteJobs } from './quotes.service.js';

/** A quote as GET /api/v1/partners/marketplace/quote/{id} answers it. */
export const quoteResource = defineResource(quote, {
  // Read where the record keeps them, without building a quote of a record in the previous form.
  id: (r: StoredQuote) => ('view' in r ? r.view : r).quoteId,
  status: (r) => ('view' in r ? r.view : r).status,
  view: (t, r) => quoteView(t, quoteOf(r)),
  simulate: {
    events: SIMULATED_QUOTE_EVENTS,
    apply: (t, id, event) => quoteView(t, moveQuote(t, id, event)),
  },
  jobs: quoteJobs,
});

export const quotesDomain = {
  routes: quoteRoutes.route('/', liveQuoteRoutes),
  tags: [quotesTag, paymentQuotesTag],
  resources: [quoteResource],
} satisfies DomainModule;
