// The `market` section of a scenario: pin a pair's rate, or script moves on top of the walk, so a
// partner's rate-change path can be tested ("USDT/NGN drops 5 % after 10 minutes").
import { z } from 'zod';
import type { Behaviour } from '../../engine/registry/behaviour.js';
import { FIAT_CURRENCIES, TOKEN_CURRENCIES } from './pools.js';

const FIAT = FIAT_CURRENCIES.join('|');
const TOKEN = TOKEN_CURRENCIES.join('|');
const PAIR = new RegExp(`^((${FIAT})/(${TOKEN})|(${TOKEN})/(${FIAT}))$`);

const Move = z.strictObject({
  after: z.number().int().min(0).max(365 * 86_400).describe("Seconds on the key's clock after the scenario was bound to the key (PUT /_sandbox/scenario; for the start default, the key's first request)"),
  percent: z.number().min(-90).max(1000).describe('How much the price of the pair moves then, in percent (-5: drops 5 %)'),
});

const PairOverride = z
  .strictObject({
    pin: z.number().positive().max(1e9).optional().describe('The price of the pair, fixed: units of the second code per one of the first (USDT/NGN: NGN per USDT)'),
    moves: z.array(Move).max(100).optional().describe('Moves on top of the walk (or of the pin), each from its time on'),
  })
  .refine((o) => o.pin !== undefined || o.moves !== undefined, { message: 'give pin, moves or both' });

export const MarketScenario = z
  .record(z.string(), PairOverride)
  .superRefine((section, ctx) => {
    for (const key of Object.keys(section)) {
      if (PAIR.test(key)) continue;
      const [a, b] = key.split('/');
      const fiats: readonly string[] = FIAT_CURRENCIES;
      const message =
        fiats.includes(a) && fiats.includes(b) && a !== b
          ? `is a fiat pair, the cross of two markets: set USDT/${b} and ${a}/USDT (or one of them) instead`
          : `is not a pair of the market: write a fiat currency (${FIAT_CURRENCIES.join(', ')}) and a token (${TOKEN_CURRENCIES.join(', ')}), either way round, e.g. USDT/NGN`;
      ctx.addIssue({ code: 'custom', path: [key], message });
    }
  })
  .optional()
  .describe(
    "Rates a scenario sets instead of the seeded walk: per pair (USDT/NGN is the price of USDT in NGN), a pin, moves, or both. " +
      'Its rates say source ADMIN_OVERRIDE. Read from the scenario in force for the key (not the per-request header); ' +
      'pins hold and moves count from when that scenario was bound to the key, not from the sandbox\'s start.',
  );

export type MarketOverrides = NonNullable<z.infer<typeof MarketScenario>>;

export const marketScenarioSections = { market: MarketScenario };

export const marketOverrides = (b: Behaviour) => b.section('market') as MarketOverrides | undefined;
