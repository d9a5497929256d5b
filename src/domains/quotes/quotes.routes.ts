import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonResponse, newRouter, replayedHeader, security, type Tag } from '../../http/openapi.js';
import { reply, requestScenario } from '../../http/respond.js';
import { quoteView } from './quotes.build.js';
import { completeQuote } from './quotes.complete.js';
import { CompleteQuoteRequest, CreateIntentRequest, MarketplaceQuote, PaymentQuote, QuoteIdParam, RemoveItemParams } from './quotes.schema.js';
import { createQuote, getQuote, removeAllocation } from './quotes.service.js';

/** How a fiat to fiat quote is made, said on every route that makes one. */
export const FIAT_TO_FIAT =
  'Two fiat currencies (GHS→NGN, NGN→USD, ...) are exchanged with USDT as the settlement layer, priced as the cross of their two ' +
  'USDT markets: each allocation is a cross pool pairing a pool paid in the source currency for USDT with a pool paying USDT out in ' +
  'the destination currency on the same chain (metadata.settlement names both, with their rates). Its rate, the proposed rate and ' +
  'weightedAverageRate are destination units per one source unit (about 100.8 NGN per GHS); the allocation rate is the destination ' +
  'pool\'s rate over the source pool\'s, rounded down to 8 significant digits, and amounts are rounded in the pools\' favour as on every ' +
  'quote. Such a quote is paid in by bank and completed to a bank destination only; its webhooks carry chain null. Token to token is ' +
  '400 UNSUPPORTED_CURRENCY; one currency on both sides is 400 VALIDATION_ERROR.';

export const quotesTag: Tag = {
  name: 'Marketplace quotes',
  description: 'Quote fiat to token (or back), or one fiat currency to another through USDT, from the liquidity pools, then complete the quote with its destination.',
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
    'for ttl seconds: complete it with a destination before then, or it expires. Not enough liquidity is 400 INSUFFICIENT_LIQUIDITY. ' +
    FIAT_TO_FIAT,
  request: { body: jsonBody(CreateIntentRequest) },
  responses: { 201: jsonResponse(MarketplaceQuote, 'Quote created'), ...errorResponses(400, 409, 413, 415) },
});

const remove = createRoute({
  method: 'put',
  path: '/api/v1/partners/marketplace/quote/{id}/remove/{itemId}',
  tags,
  security,
  summary: 'Remove one allocation from a pending quote',
  description:
    'Totals are recomputed from the allocations left; the freed amount is not taken from another pool. Only a pending quote, and never its last allocation (409). ' +
    'The same PUT again (a retry) answers the quote as it stands, with Idempotent-Replayed: true.',
  request: { params: RemoveItemParams },
  responses: { 200: { ...jsonResponse(MarketplaceQuote, 'The updated quote'), headers: replayedHeader('allocation removed') }, ...errorResponses(400, 404, 409) },
});

const read = createRoute({
  method: 'get',
  path: '/api/v1/partners/marketplace/quote/{id}',
  tags,
  security,
  summary: 'Read a marketplace quote',
  request: { params: QuoteIdParam },
  responses: { 200: jsonResponse(MarketplaceQuote, 'The quote in its current state'), ...errorResponses(400, 404) },
});

const complete = createRoute({
  method: 'put',
  path: '/api/v1/quotes/complete/{id}',
  tags,
  security,
  summary: 'Complete a pending quote with its destination',
  description:
    'A token destination (USDT, USDC) needs destination.blockChain.address, a fiat one destination.bank (a fiat to fiat quote too: ' +
    'it is paid out to a bank only); with both, the fitting one is used. ' +
    'The quote moves to awaiting_payment; a quote that is not pending is 409. The same body again (a retry) answers the same ' +
    'payment-specific quote as it stands now, with Idempotent-Replayed: true. Under live keys destination.bank must be an account that ' +
    'Resolve Bank Account resolves (else 404 ACCOUNT_NOT_FOUND), in the name it resolves to (else 400 ACCOUNT_NAME_MISMATCH).',
  request: { params: QuoteIdParam, body: jsonBody(CompleteQuoteRequest) },
  responses: { 200: { ...jsonResponse(PaymentQuote, 'The payment-specific quote'), headers: replayedHeader('completion') }, ...errorResponses(400, 404, 409, 413, 415) },
});

export const quoteRoutes = newRouter()
  .openapi(intent, (c) => {
    const t = c.get('tenant');
    return reply(c, quoteView(t, createQuote(t, c.req.valid('json'), requestScenario(c))), 201);
  })
  .openapi(remove, (c) => {
    const { id, itemId } = c.req.valid('param');
    const { quote, replayed } = removeAllocation(c.get('tenant'), id, itemId);
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return reply(c, quote, 200);
  })
  .openapi(read, (c) => {
    const t = c.get('tenant');
    return reply(c, quoteView(t, getQuote(t, c.req.valid('param').id)), 200);
  })
  .openapi(complete, (c) => {
    const { payment, replayed } = completeQuote(c.get('tenant'), c.req.valid('param').id, c.req.valid('json'));
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return reply(c, payment, 200);
  });
