// Crypto wallet payouts (API document §2.2, §4.2, §8): a token transfer from the partner's wallet
// on one chain to an EVM address.
import { z } from '@hono/zod-openapi';
import { referenceText, timestamp } from '../../http/fields.js';
import { decimalPlaces } from '../../kernel/money.js';

export const CHAINS = ['ethereum', 'polygon', 'base', 'arbitrum', 'optimism'] as const;
export const ASSETS = ['usdc', 'usdt'] as const;
export const WALLET_PAYOUT_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;

export type Chain = (typeof CHAINS)[number];
export type Asset = (typeof ASSETS)[number];


export const CreateWalletPayoutRequest = z
  .object({
    reference: referenceText(100).openapi({ description: 'Idempotency reference, unique per payout', example: 'wd-20001' }),
    chain: z.enum(CHAINS).openapi({ example: 'ethereum' }),
    asset: z.enum(ASSETS).openapi({ example: 'usdc' }),
    amount: z
      .number()
      .min(10)
      .max(1_000_000_000_000)
      .refine((v) => decimalPlaces(v) <= 6, { message: 'must have at most 6 decimal places (the token precision)' })
      .openapi({ description: 'Token units, not subunits; at least 10', example: 150 }),
    toAddress: z
      .string()
      .regex(/^0x[a-fA-F0-9]{40}$/)
      .openapi({ description: 'EVM address', example: '0x52908400098527886E0F7030069857D2E4169EE7' }),
    memo: z.string().max(255).optional().openapi({ example: 'Payout for invoice 20001' }),
  })
  .openapi('CreateWalletPayoutRequest');

export type CreateWalletPayoutRequest = z.infer<typeof CreateWalletPayoutRequest>;

export const WalletPayout = z
  .object({
    reference: z.string(),
    withdrawalId: z.uuid(),
    walletId: z.uuid().openapi({ description: "The partner's wallet for this chain and asset; the same on every payout" }),
    chain: z.enum(CHAINS),
    token: z.enum(ASSETS),
    amount: z.number(),
    estimatedFee: z.number().openapi({ description: 'Gas fee in token units, held with the amount', example: 2.5 }),
    toAddress: z.string(),
    status: z.enum(WALLET_PAYOUT_STATUSES),
    transactionHash: z.string().nullable().openapi({ description: 'Null until broadcast, then 0x plus 64 hex', example: null }),
    createdAt: timestamp,
    estimatedCompletionAt: timestamp,
  })
  .openapi('WalletPayout');

export type WalletPayout = z.infer<typeof WalletPayout>;

export const WalletPayoutReferenceParam = z.object({
  reference: referenceText(100).openapi({ param: { name: 'reference', in: 'path' }, example: 'wd-20001' }),
});
