// Bank withdrawals (API document §2.3, §4.3): money out of one of the partner's fiat balance
// accounts to a bank account.
import { z } from '@hono/zod-openapi';
import { fiatAmount, referenceText, timestamp } from '../../http/fields.js';
import { ACCOUNT_CURRENCIES } from '../reference/accounts.js';

export const WITHDRAWAL_STATUSES = ['PROCESSING', 'SUCCESSFUL', 'FAILED'] as const;
/** The provider's own words for where the transfer stands. */
export const PROVIDER_STATUSES = ['PROCESSING', 'SUCCESSFUL', 'FAILED'] as const;


export const CreateWithdrawalRequest = z
  .object({
    accountId: z.guid().openapi({ description: 'One of your balance accounts (GET /_sandbox/accounts); it fixes the currency', example: '73fa4f38-0f4d-443c-acf8-4003ed7e9ee9' }),
    accountName: z.string().min(1).max(200).openapi({ example: 'John Doe' }),
    accountNumber: z.string().min(1).max(34).openapi({ example: '0123456789' }),
    amount: fiatAmount(25000),
    bankCode: z.string().min(1).max(50).openapi({ example: 'SPB-17646' }),
    authCode: z.string().min(1).max(100).optional().openapi({ description: 'Two-factor code or approval token; 123456 is the valid code in the sandbox', example: '123456' }),
    narration: z.string().max(100).optional().openapi({ example: 'Settlement June' }),
  })
  .openapi('CreateWithdrawalRequest');

export type CreateWithdrawalRequest = z.infer<typeof CreateWithdrawalRequest>;

export const WithdrawalDestination = z
  .object({ accountNumber: z.string(), accountName: z.string(), bankCode: z.string() })
  .openapi('WithdrawalDestination');

export const Withdrawal = z
  .object({
    amount: z.number().openapi({ format: 'double' }),
    currency: z.enum(ACCOUNT_CURRENCIES),
    destination: WithdrawalDestination,
    providerStatus: z.enum(PROVIDER_STATUSES).openapi({ description: 'Status with the upstream provider' }),
    reference: z.string().openapi({ description: 'The unique transaction reference: TRF- plus 32 hex', example: 'TRF-5F3A9C0B1D2E4F60718293A4B5C6D7E8' }),
    status: z.enum(WITHDRAWAL_STATUSES).openapi({ description: 'Internal processing status' }),
    accountId: z.uuid(),
    narration: z.string().optional(),
    failureReason: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    estimatedCompletionAt: timestamp,
  })
  .openapi('Withdrawal');

export type Withdrawal = z.infer<typeof Withdrawal>;

export const IdempotencyHeader = z.object({
  'idempotency-key': referenceText(100)
    .optional()
    .openapi({ description: 'Idempotency-Key (optional): a retry with the same key and body replays the first response', example: 'settle-2026-06' }),
});

export const WithdrawalReferenceParam = z.object({
  reference: referenceText(100).openapi({
    param: { name: 'reference', in: 'path' },
    description: 'The reference the create call answered with (TRF- plus 32 hex), in any letter case',
    example: 'TRF-5F3A9C0B1D2E4F60718293A4B5C6D7E8',
  }),
});
