// The bank list and account resolution as the API document has them (§2.1, §4.1, before fiat
// payouts): Get All Banks and Resolve Bank Account.
import { z } from '@hono/zod-openapi';
import { successEnvelope } from '../../http/openapi.js';

/** The currencies the two look-ups take, as the API document gives them (NGN and GHS only). */
export const LOOKUP_CURRENCIES = ['NGN', 'GHS'] as const;
/** The country of each look-up currency's banks. */
export const LOOKUP_COUNTRIES = ['NG', 'GH'] as const;

/** A bank as Get All Banks lists it: only the look-up currencies (the USD routing numbers of
 * fixtures/banks.json serve live-simulation payouts and are never listed). */
export const Bank = z
  .object({ name: z.string(), code: z.string(), slug: z.string(), currency: z.enum(LOOKUP_CURRENCIES), country: z.enum(LOOKUP_COUNTRIES) })
  .openapi('Bank');

export const BanksQuery = z.object({
  currency: z.enum(LOOKUP_CURRENCIES).openapi({ param: { name: 'currency', in: 'query' }, example: 'NGN' }),
});

export const BanksEnvelope = successEnvelope(z.array(Bank), 'BanksEnvelope');

export const ResolveQuery = z.object({
  accountNumber: z.string().min(1).max(34).openapi({ param: { name: 'accountNumber', in: 'query' }, example: '0123456789' }),
  bankCode: z.string().min(1).max(20).openapi({ param: { name: 'bankCode', in: 'query' }, example: '058' }),
  currency: z.enum(LOOKUP_CURRENCIES).default('NGN').openapi({ param: { name: 'currency', in: 'query' }, example: 'NGN' }),
});

export const ResolvedAccount = z
  .object({ accountNumber: z.string(), accountName: z.string(), bankCode: z.string(), bankName: z.string() })
  .openapi('ResolvedAccount');

export const ResolveEnvelope = successEnvelope(ResolvedAccount, 'ResolveEnvelope');
