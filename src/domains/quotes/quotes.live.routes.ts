// The quote routes of the live reference that the API document does not list.
import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonResponse, newRouter, security, type Tag } from '../../http/openapi.js';
import { reply, requestScenario } from '../../http/respond.js';
import { createExpressQuote, createPaymentQuote, getPaymentQuote } from './quotes.express.js';
import { ExpressQuoteRequest, MarketplaceQuote, PaymentQuote, QuoteIdParam } from './quotes.schema.js';
import { FIAT_TO_FIAT, quotesTag } from './quotes.routes.js';
import { quoteView } from './quotes.build.js';
import { getQuote } from './quotes.service.js';

const LIVE = 'From the live reference, not the API document. ';

export const paymentQuotesTag: Tag = {
  name: 'Payment quotes',
  description: 'From the live reference, not the API document: payment-specific quotes, created and read back.',
  order: 8,
};

const express = createRoute({
  method: 'post',
  path: '/api/v1/partners/marketplace/express/quote',
  tags: [quotesTag.name],
  security,
  operationId: 'createExpressQuote',
  summary: 'Create an express quote: the pools are chosen for you',
  description:
    LIVE +
    'The amount (source units) is filled from the best-rated pools first, of destinationNetwork only when it is sent. The answer ' +
    'is an array of one marketplace quote, which then lives as an intent\'s quote (remove an allocation, complete, pay-in, ' +
    'expiry, cancellation); its events and webhooks say quote_type express. For two fiat currencies destinationNetwork names the chain ' +
    'the USDT settles on. ' +
    FIAT_TO_FIAT,
  request: { body: jsonBody(ExpressQuoteRequest) },
  responses: { 201: jsonResponse(z.array(MarketplaceQuote), 'An array of one quote'), ...errorResponses(400, 409, 413, 415) },
});

const completed = createRoute({
  method: 'get',
  path: '/api/v1/partners/marketplace/quote/{id}/complete',
  tags: [quotesTag.name],
  security,
  operationId: 'getCompletedQuote',
  summary: 'Read a quote session\'s final details',
  description: LIVE + 'The marketplace quote as it stands, with its status and pay-in instructions (an object, not an array), in any state.',
  request: { params: QuoteIdParam },
  responses: { 200: jsonResponse(MarketplaceQuote, 'The quote'), ...errorResponses(400, 404) },
});

const create = createRoute({
  method: 'post',
  path: '/api/v1/quotes',
  tags: [paymentQuotesTag.name],
  security,
  operationId: 'createPaymentQuote',
  summary: 'Create a payment-specific quote',
  description:
    LIVE +
    'Filled from the best-rated pools as an express quote, and answered as an array of one payment-specific quote (PENDING). ' +
    'Complete it with PUT /api/v1/quotes/complete/{id} to give its destination; read it back with GET /api/v1/quotes/payments/{id}. ' +
    'Two fiat currencies are quoted as on the express quote (the cross of their USDT markets), with rate in destination units per source unit.',
  request: { body: jsonBody(ExpressQuoteRequest) },
  responses: { 201: jsonResponse(z.array(PaymentQuote), 'An array of one payment-specific quote'), ...errorResponses(400, 409, 413, 415) },
});

const payment = createRoute({
  method: 'get',
  path: '/api/v1/quotes/payments/{id}',
  tags: [paymentQuotesTag.name],
  security,
  operationId: 'getPaymentQuote',
  summary: 'Read a payment-specific quote',
  description:
    LIVE +
    'The payment-specific quote of a quote id (made by POST /api/v1/quotes or by completing a quote), its status following ' +
    'the quote: PENDING, then COMPLETED on pay-in, or EXPIRED, or CANCELLED. A quote not completed yet is 404.',
  request: { params: QuoteIdParam },
  responses: { 200: jsonResponse(PaymentQuote, 'The payment-specific quote as it stands'), ...errorResponses(400, 404) },
});

export const liveQuoteRoutes = newRouter()
  .openapi(express, (c) => reply(c, [createExpressQuote(c.get('tenant'), c.req.valid('json'), requestScenario(c))], 201))
  .openapi(completed, (c) => {
    const t = c.get('tenant');
    return reply(c, quoteView(t, getQuote(t, c.req.valid('param').id)), 200);
  })
  .openapi(create, (c) => reply(c, [createPaymentQuote(c.get('tenant'), c.req.valid('json'), requestScenario(c))], 201))
  .openapi(payment, (c) => reply(c, getPaymentQuote(c.get('tenant'), c.req.valid('param').id), 200));
