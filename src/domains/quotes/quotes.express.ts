// The quote operations of the live service beyond the API document: express quotes (the pools are
// chosen for the partner), payment-specific quotes made directly, and their read-backs.
import { SandboxError } from '../../kernel/errors.js';
import type { Tenant } from '../../engine/tenancy/tenant.js';
import { paymentQuote, quoteView, type QuoteRecord } from './quotes.build.js';
import { presentPayment } from './quotes.complete.js';
import type { ExpressQuoteRequest, MarketplaceQuote, PaymentQuote } from './quotes.schema.js';
import { createQuote, getQuote } from './quotes.service.js';

/** The request as an intent: the amount is in source units and no rate is proposed. */
const asIntent = (req: ExpressQuoteRequest) => ({
  sourceCurrency: req.sourceCurrency,
  destinationCurrency: req.destinationCurrency,
  amount: req.amount,
  amountDirection: 'source' as const,
});

/** An express quote: best execution over the pools (of the named network, if any); then an intent's life. */
export function createExpressQuote(t: Tenant, req: ExpressQuoteRequest, scenario?: string): MarketplaceQuote {
  return quoteView(t, createQuote(t, asIntent(req), scenario, { quoteType: 'express', chain: req.destinationNetwork }));
}

/** POST /api/v1/quotes: a quote made as an express one, answered as its payment-specific quote. */
export function createPaymentQuote(t: Tenant, req: ExpressQuoteRequest, scenario?: string): PaymentQuote {
  const q = createQuote(t, asIntent(req), scenario, { chain: req.destinationNetwork, withPayment: (r) => paymentQuote(t, r, r.createdAt) });
  return presentPayment(q as QuoteRecord & { payment: PaymentQuote });
}

/** GET /api/v1/quotes/payments/{id}: the payment-specific quote as it stands. */
export function getPaymentQuote(t: Tenant, id: string): PaymentQuote {
  const q = getQuote(t, id);
  if (!q.payment) {
    throw new SandboxError(
      'RESOURCE_NOT_FOUND',
      `Quote '${id}' has no payment-specific quote yet: complete it with PUT /api/v1/quotes/complete/${id}, or make quotes with POST /api/v1/quotes.`,
      [{ field: 'id', issue: 'has no payment-specific quote yet' }],
    );
  }
  return presentPayment({ ...q, payment: q.payment });
}
