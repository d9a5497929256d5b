// Fiat payouts (API document §2.1, §4.1); the two bank look-ups before them are reference/'s.
import { z } from '@hono/zod-openapi';
import { fiatAmount, referenceText, timestamp } from '../../http/fields.js';
import { successEnvelope } from '../../http/openapi.js';
import { SETTLEMENT_STATUSES } from '../reference/settlement.js';

export const PAYOUT_CURRENCIES = ['NGN', 'GHS', 'USD'] as const;
export const PAYOUT_STATUSES = SETTLEMENT_STATUSES;


export const PayoutDestination = z
  .object({
    accountNumber: z.string().min(1).max(34).openapi({ example: '0123456789' }),
    accountName: z.string().min(1).max(200).openapi({ example: 'John Doe', description: 'The verified name from Resolve Bank Account' }),
    bankCode: z.string().min(1).max(20).openapi({ example: '058', description: 'From GET /api/v1/partners/banks' }),
    branchCode: z.string().max(20).optional().openapi({ example: '001', description: 'Kept and echoed when sent' }),
  })
  .openapi('PayoutDestination');

export const CreatePayoutRequest = z
  .object({
    reference: referenceText(50).openapi({ description: 'Unique per payout; prevents duplicates', example: 'order-10001' }),
    amount: fiatAmount(10000),
    currency: z.enum(PAYOUT_CURRENCIES).openapi({ example: 'NGN' }),
    destination: PayoutDestination,
    narration: z.string().max(100).optional().openapi({ example: 'Invoice 10001' }),
  })
  .openapi('CreatePayoutRequest');

export type CreatePayoutRequest = z.infer<typeof CreatePayoutRequest>;

export const Payout = z
  .object({
    reference: z.string(),
    amount: z.number(),
    currency: z.enum(PAYOUT_CURRENCIES),
    status: z.enum(PAYOUT_STATUSES),
    fee: z.number(),
    destination: PayoutDestination.extend({
      bankName: z.string().openapi({ description: "The bank's name from the bank list; under test keys a code outside the list is 'Sandbox Test Bank'" }),
    }),
    narration: z.string().optional(),
    transactionReference: z.string().openapi({ description: "The service's own reference, HPR-TRSF- plus hex", example: 'HPR-TRSF-5F3A9C0B1D2E4F60718293A4' }),
    failureReason: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    estimatedCompletionAt: timestamp,
  })
  .openapi('Payout');

export type Payout = z.infer<typeof Payout>;

export const PayoutEnvelope = successEnvelope(Payout, 'PayoutEnvelope');

export const ReferenceParam = z.object({
  reference: referenceText(50).openapi({ param: { name: 'reference', in: 'path' }, example: 'order-10001' }),
});

