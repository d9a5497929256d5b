import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonResponse, newRouter, security, type Tag } from '../../http/openapi.js';
import { reply, requestScenario } from '../../http/respond.js';
import { completeQuote } from './quotes.complete.js';
import { CompleteQuoteRequest, CreateIntentRequest, MarketplaceQuote, PaymentQuote, QuoteIdParam, RemoveItemParams } from './quotes.schema.js';
import { createQuote, getQuote, removeAllocation } from './quotes.service.js';

export const quotesTag: Tag = {
  name: 'Marketplace quotes',
  description: 'Quote fiat to token (or back) from the liquidity pools, then complete the quote with its destination.',
  order: 4,
};
const tags = [quotesTag.name];

const intent = createRoute({
  method: 'post',
  path: '/api/v1/partners/marketplace/intent',
  tags,
  security,
  summary: 'Create a marketplace quote from the liquidity pools',
  description:
    'Fills the amount from the best-rated pools first (a proposed rate leaves out worse pools). The quote is pending ' +
    'for ttl seconds: complete it with a destination before then, or it expires. Not enough liquidity is 400 INSUFFICIENT_LIQUIDITY.',
  request: { body: jsonBody(CreateIntentRequest) },
  responses: { 201: jsonResponse(MarketplaceQuote, 'Quote created'), ...errorResponses(400, 409, 413, 415) },
});

const remove = createRoute({
  method: 'put',
  path: '/api/v1/partners/marketplace/quote/{id}/remove/{itemId}',
  tags,
  security,
  summary: 'Remove one allocation from a pending quote',
  description: 'Totals are recomputed from the allocations left; the freed amount is not taken from another pool. Only a pending quote, and never its last allocation (409).',
  request: { params: RemoveItemParams },
  responses: { 200: jsonResponse(MarketplaceQuote, 'The updated quote'), ...errorResponses(404, 409) },
});

const read = createRoute({
  method: 'get',
  path: '/api/v1/partners/marketplace/quote/{id}',
  tags,
  security,
  summary: 'Read a marketplace quote',
  request: { params: QuoteIdParam },
  responses: { 200: jsonResponse(MarketplaceQuote, 'The quote in its current state'), ...errorResponses(404) },
});

const complete = createRoute({
  method: 'put',
  path: '/api/v1/quotes/complete/{id}',
  tags,
  security,
  summary: 'Complete a pending quote with its destination',
  description:
    'A token destination (USDT, USDC) needs destination.blockChain.address, a fiat one destination.bank; with both, the fitting one is used. ' +
    'The quote moves to awaiting_payment; a quote that is not pending is 409. The same body again (a retry) answers the same ' +
    'payment-specific quote as it stands now, with Idempotent-Replayed: true. Under live keys destination.bank must be an account that ' +
    'Resolve Bank Account resolves (else 404 ACCOUNT_NOT_FOUND), in the name it resolves to (else 400 ACCOUNT_NAME_MISMATCH).',
  request: { params: QuoteIdParam, body: jsonBody(CompleteQuoteRequest) },
  responses: { 200: jsonResponse(PaymentQuote, 'The payment-specific quote'), ...errorResponses(400, 404, 409, 413, 415) },
});

export const quoteRoutes = newRouter()
  .openapi(intent, (c) => reply(c, createQuote(c.get('tenant'), c.req.valid('json'), requestScenario(c)).view, 201))
  .openapi(remove, (c) => {
    const { id, itemId } = c.req.valid('param');
    return reply(c, removeAllocation(c.get('tenant'), id, itemId), 200);
  })
  .openapi(read, (c) => reply(c, getQuote(c.get('tenant'), c.req.valid('param').id).view, 200))
  .openapi(complete, (c) => {
    const { payment, replayed } = completeQuote(c.get('tenant'), c.req.valid('param').id, c.req.valid('json'));
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return reply(c, payment, 200);
  });
