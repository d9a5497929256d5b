// The live service's rate look-ups beyond the API document: the JSON rate and the rate stream.
import { z } from '@hono/zod-openapi';
import { timestamp } from '../../http/fields.js';

const code = (name: string, example: string, description: string) =>
  z.string().min(1).max(10).optional().openapi({ param: { name, in: 'query' }, example, description });

export const RateQuery = z.object({
  from: code('from', 'NGN', 'The currency converted from (required unless base is sent); any case'),
  to: code('to', 'USDT', 'The currency converted to (required unless quote is sent); any case'),
  base: code('base', 'NGN', 'Another name for from; from wins when both are sent'),
  quote: code('quote', 'USDT', 'Another name for to; to wins when both are sent'),
});

export const RateLookupQuery = RateQuery.extend({
  chain: z.string().min(1).max(20).optional().openapi({
    param: { name: 'chain', in: 'query' },
    example: 'BASE',
    description: 'The token\'s chain (BASE, ETHEREUM, POLYGON, ARBITRUM, OPTIMISM; any case); must be one the pair has a pool on (a fiat pair: a cross pool). Default: the chain of the pair\'s best pool that still holds liquidity, where a quote made now would go',
  }),
});

export const RATE_SOURCES = ['CONSENSUS', 'ADMIN_OVERRIDE', 'MARKET_MAKER', 'SPOT'] as const;
const SOURCE = 'MARKET_MAKER (the pools\' market), or ADMIN_OVERRIDE while a scenario sets the price of the pair\'s market (of either USDT market of a fiat pair)';

export const Rate = z
  .object({
    from: z.string().openapi({ description: 'The currency asked for in any case: a fiat code in upper case, a token in lower case', example: 'NGN' }),
    to: z.string().openapi({ description: 'The currency asked for in any case: a fiat code in upper case, a token in lower case', example: 'usdt' }),
    rate: z.number().openapi({ description: 'Multiplier: an amount in from times rate is the amount in to (a fiat pair too: GHS→NGN about 100.8)', example: 0.00063086 }),
    source: z.enum(RATE_SOURCES).openapi({ description: SOURCE, example: 'MARKET_MAKER' }),
    timestamp: timestamp.openapi({ description: 'When the market was last priced (once a minute on the key\'s clock)' }),
    chain: z.string().openapi({ description: 'The token\'s chain, lower case; for a fiat pair the chain its USDT settles on', example: 'base' }),
    ageSeconds: z.number().int().min(0).openapi({ description: 'Seconds since timestamp', example: 12 }),
    cached: z.boolean().openapi({ description: 'Always false: every answer reads the market', example: false }),
  })
  .openapi('Rate');

export const RateUpdate = z
  .object({
    from: z.string().openapi({ example: 'NGN' }),
    to: z.string().openapi({ example: 'USDT' }),
    rate: z.number().openapi({ description: 'Multiplier, as in GET /api/v1/partners/rates', example: 0.00063086 }),
    timestamp,
    source: z.enum(RATE_SOURCES).openapi({ description: SOURCE, example: 'MARKET_MAKER' }),
    percentChange24h: z.number().openapi({ description: 'Change of this rate against 24 hours earlier, in percent', example: -0.28 }),
  })
  .openapi('RateUpdate');

export const Heartbeat = z
  .object({ status: z.literal('connected'), timestamp })
  .openapi('RateStreamHeartbeat');
