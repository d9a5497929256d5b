import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonResponse, newRouter, security, type Tag } from '../../http/openapi.js';
import { guardOf } from '../../http/scope-middleware.js';
import { reply } from '../../http/respond.js';
import { streamConnection } from '../../http/framework.js';
import { Heartbeat, Rate, RateLookupQuery, RateQuery, RateUpdate } from './rates.schema.js';
import { currentRate, ratePair } from './rates.service.js';
import { rateStream } from './rates.stream.js';

export const ratesTag: Tag = {
  name: 'Rates',
  description: 'From the live reference, not the API document: the JSON rate of a pair, and its rate stream.',
  order: 7,
};
const tags = [ratesTag.name];

const rate = createRoute({
  method: 'get',
  path: '/api/v1/partners/rates',
  tags,
  security,
  operationId: 'getRate',
  summary: 'Read the conversion rate of a pair',
  description:
    'From the live reference, not the API document. The rate is a multiplier: an amount in from times rate is the amount in to ' +
    '(NGN→USDT is about 0.00063, USDT→NGN about 1,580). Two fiat currencies (GHS→NGN) are the cross of their two USDT markets, ' +
    'also a multiplier from from to to (GHS→NGN about 100.8, NGN→GHS about 0.0098): the USDT→to maker rate over the from→USDT one, ' +
    'rounded down to 8 significant digits, stated as a quote of the pair states its rate; chain is then the chain of the best cross pool, where ' +
    'the USDT settles. Token to token is 400 UNSUPPORTED_CURRENCY, one currency on both sides 400 VALIDATION_ERROR. ' +
    'It reads the same market as the pools, quotes and FX maker rates, ' +
    're-priced once a minute on the key\'s clock. The body is not wrapped in an envelope.',
  request: { query: RateLookupQuery },
  responses: { 200: jsonResponse(Rate, 'The rate now'), ...errorResponses(400) },
});

const { 429: rateLimited, 503: unavailable } = errorResponses(429, 503);
const refusals = {
  429: { ...rateLimited, description: 'The key holds 10 streams open already (RATE_LIMITED), or a scenario asks for it' },
  503: { ...unavailable, description: 'The sandbox holds as many streams as it may for all keys (SERVICE_UNAVAILABLE, with Retry-After), or a scenario asks for it' },
};

const stream = createRoute({
  method: 'get',
  path: '/api/v1/partners/marketplace/rates/stream',
  tags,
  security,
  operationId: 'streamRates',
  summary: 'Stream a pair\'s rate as server-sent events',
  description:
    'From the live reference, not the API document. Any pair GET /api/v1/partners/rates takes, a fiat pair too (the cross of its ' +
    'two USDT markets, as a multiplier). Events: `rate_update` (data: RateUpdate) when the market is re-priced, ' +
    'once a minute on the key\'s clock, or when a scenario\'s pin or move takes hold inside a minute, and `heartbeat` (data: RateStreamHeartbeat) every 15 seconds of real time. The stream ' +
    'opens with a heartbeat and the current rate. Advancing the key\'s clock sends the updates of the minutes it skipped, at ' +
    'most 60 per advance, evenly spread, the last being the market now. A stream ends after an hour of real time (the ' +
    'server may set another lifetime); an EventSource client reconnects by itself. A client that has stopped reading is disconnected.',
  request: { query: RateQuery },
  responses: {
    200: {
      description: 'An event stream: `event: rate_update` or `event: heartbeat`, each with one line of JSON data',
      content: {
        'text/event-stream': {
          schema: {
            type: 'string',
            description: 'Events whose data is a RateUpdate or a RateStreamHeartbeat',
            // JSON Schema's contentSchema names what each event's data line holds.
            contentMediaType: 'application/json',
            contentSchema: { oneOf: [{ $ref: '#/components/schemas/RateUpdate' }, { $ref: '#/components/schemas/RateStreamHeartbeat' }] },
          } as never,
          example: 'event: heartbeat\ndata: {"status":"connected","timestamp":"2026-01-15T09:00:00.000Z"}\n\n' +
            'event: rate_update\ndata: {"from":"NGN","to":"USDT","rate":0.00063086,"timestamp":"2026-01-15T09:00:00.000Z","source":"MARKET_MAKER","percentChange24h":0.2855}\n\n',
        },
      },
    },
    ...errorResponses(400),
    ...refusals,
  },
});

export const rateRoutes = newRouter()
  .openapi(rate, (c) => {
    const q = c.req.valid('query');
    return reply(c, currentRate(c.get('tenant'), ratePair(q), q.chain), 200);
  })
  .openapi(stream, (c) => rateStream(c.get('tenant'), ratePair(c.req.valid('query')), c.get('streams'), guardOf(c), streamConnection(c)) as never);

// The event payloads are not the body of any operation: registered so the document names them.
rateRoutes.openAPIRegistry.register('RateUpdate', RateUpdate);
rateRoutes.openAPIRegistry.register('RateStreamHeartbeat', Heartbeat);
