// The control API's view of the reference data a tenant holds: its wallet balances and its fiat
// balance accounts.
import { z } from '@hono/zod-openapi';
import { dec, scaleOf } from '../../kernel/money.js';
import { ACCOUNT_CURRENCIES } from './accounts.js';
import { BALANCE_KEYS } from './balances.service.js';

export const Balance = z.object({ key: z.string(), available: z.string() }).openapi('Balance');
export const BalanceList = z.object({ data: z.array(Balance) }).openapi('BalanceList');

export const TopUpRequest = z
  .strictObject({
    key: z.enum(BALANCE_KEYS).openapi({ example: 'NGN', description: 'A fiat currency (NGN, GHS, USD), or token:chain (usdc:ethereum)' }),
    amount: z.number().positive().max(1e15).openapi({ example: 1000000, description: 'At most 2 decimal places for fiat, 6 for tokens' }),
  })
  .superRefine((v, ctx) => {
    const places = scaleOf(v.key.split(':')[0]);
    if (dec(v.amount).decimalPlaces() > places) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `must have at most ${places} decimal places for ${v.key}` });
    }
  })
  .openapi('TopUpRequest');

export const BalanceAccount = z
  .object({ accountId: z.uuid(), currency: z.enum(ACCOUNT_CURRENCIES), available: z.string() })
  .openapi('BalanceAccount');

export const BalanceAccountList = z.object({ data: z.array(BalanceAccount) }).openapi('BalanceAccountList');

export const MagicValueRow = z
  .object({
    value: z.string().openapi({ example: '0000000051' }),
    field: z.string().openapi({ example: 'destination.accountNumber' }),
    applies: z.string().openapi({ example: 'fiat payout' }),
    effect: z.string().openapi({ example: 'FAILED: Insufficient funds at the beneficiary bank' }),
  })
  .openapi('MagicValue');

export const MagicValueList = z
  .object({
    honoured: z.boolean().openapi({ description: "Whether they work for this key now: test keys, unless the scenario in force says magicValues: false" }),
    data: z.array(MagicValueRow),
  })
  .openapi('MagicValueList');
