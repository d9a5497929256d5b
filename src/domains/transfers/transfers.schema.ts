// Disbursement transfers (API document §2.9, §2.10, §4.5): the single-transfer request, the
// transfer as the sandbox returns it, bulk files and the bulk page.
import { z } from '@hono/zod-openapi';
import { emptyAsUnset, fiatAmount, INT32_MAX, timestamp, wholeNumberQuery } from '../../http/fields.js';
import { SETTLEMENT_STATUSES } from '../reference/settlement.js';

export const TRANSFER_CURRENCIES = ['NGN', 'GHS', 'USD'] as const;
export const TRANSFER_TYPES = ['BANK', 'WALLET', 'MOBILE_MONEY'] as const;
export const TRANSFER_STATUSES = SETTLEMENT_STATUSES;
export const TRANSFER_CATEGORIES = ['SALARY', 'VENDOR', 'REFUND', 'OTHER'] as const;


export const TransferSource = z
  .object({ accountNumber: z.string().min(1).max(34).openapi({ example: '1000200030' }) })
  .openapi('TransferSource');

export const TransferDestination = z
  .object({
    accountNumber: z.string().min(1).max(34).openapi({ example: '0123456789' }),
    accountName: z.string().min(1).max(200).openapi({ example: 'John Doe' }),
    bankCode: z.string().min(1).max(20).optional().openapi({
      example: '058',
      description: 'Required for BANK (a bank code) and MOBILE_MONEY (the operator code); optional for WALLET',
    }),
    branchCode: z.string().max(20).optional().openapi({ example: '001', description: 'Kept and echoed when sent' }),
  })
  .openapi('TransferDestination');

const transferFields = {
  // A UUID names one transfer whatever the case of its letters: it is kept in lower case, its canonical form.
  reference: z
    .guid()
    .overwrite((v) => v.toLowerCase())
    .openapi({ description: 'A UUID, unique per transfer whatever its letter case; prevents duplicates. Answered in lower case.', example: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' }),
  amount: fiatAmount(25000),
  currency: z.enum(TRANSFER_CURRENCIES).openapi({ example: 'NGN' }),
  type: z.enum(TRANSFER_TYPES).openapi({
    example: 'BANK',
    description: "The sandbox's own list of values (docs/fidelity.md): the API document does not fix them, and a live service may take others",
  }),
  source: TransferSource,
  destination: TransferDestination,
  narrations: z.string().max(255).optional().openapi({ example: 'January salary' }),
};

type WithType = { type: (typeof TRANSFER_TYPES)[number]; destination: { bankCode?: string } };

/** BANK and MOBILE_MONEY need destination.bankCode (the bank, or the mobile-money operator). */
function needsBankCode(v: WithType, ctx: z.RefinementCtx): void {
  if (v.type !== 'WALLET' && v.destination?.bankCode === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['destination', 'bankCode'],
      message: `is required when type is ${v.type}: send the ${v.type === 'BANK' ? 'bank' : 'mobile-money operator'} code`,
    });
  }
}

/** Run the bankCode rule even when other fields failed, as long as type and destination are usable. */
const bankCodeRule = {
  when: (p: { value: unknown }) => {
    const v = p.value as { type?: unknown; destination?: unknown } | undefined;
    return (TRANSFER_TYPES as readonly unknown[]).includes(v?.type) && !!v?.destination && typeof v.destination === 'object';
  },
};

export const CreateTransferRequest = z.object(transferFields).superRefine(needsBankCode, bankCodeRule).openapi('CreateTransferRequest');
export type CreateTransferRequest = z.infer<typeof CreateTransferRequest>;

/** What a bulk row may set of the sandbox's own record: how it ended and when it was made (history to test filters against). */
const settledFields = {
  status: z
    .enum(['SUCCESSFUL', 'FAILED'])
    .optional()
    .openapi({ example: 'FAILED', description: 'Sandbox only: record the row already ended so, with no lifecycle or events; left out, the row settles as the scenario says' }),
  failureReason: z.string().min(1).max(200).optional().openapi({ example: 'Account closed', description: 'Sandbox only: with status FAILED, the failure reason' }),
  createdAt: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ example: '2026-01-10T08:00:00Z', description: "Sandbox only: with status, when the row was made (not later than the tenant's clock), so files can span dates for from/to" }),
};

/** A sandbox-only field needs status (and failureReason a FAILED one). */
function settledRule(v: { status?: string; failureReason?: string; createdAt?: string }, ctx: z.RefinementCtx): void {
  if (v.failureReason !== undefined && v.status !== 'FAILED') {
    ctx.addIssue({ code: 'custom', path: ['failureReason'], message: 'applies only with status FAILED: add status FAILED or remove failureReason' });
  }
  if (v.createdAt !== undefined && v.status === undefined) {
    ctx.addIssue({ code: 'custom', path: ['createdAt'], message: 'applies only to a row recorded as ended: add status SUCCESSFUL or FAILED, or remove createdAt' });
  }
}

export const BulkRow = z
  .strictObject({ ...transferFields, category: z.enum(TRANSFER_CATEGORIES).openapi({ example: 'SALARY' }), ...settledFields })
  .superRefine(needsBankCode, bankCodeRule)
  .superRefine(settledRule)
  .openapi('BulkDisbursementRow', {
    // A row as a partner's file holds it: the sandbox-only fields (status, failureReason, createdAt) are left out.
    example: {
      reference: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
      amount: 25000,
      currency: 'NGN',
      type: 'BANK',
      category: 'SALARY',
      source: { accountNumber: '1000200030' },
      destination: { accountNumber: '0123456789', accountName: 'John Doe', bankCode: '058' },
      narrations: 'January salary',
    },
  });
export type BulkRow = z.infer<typeof BulkRow>;

export const Transfer = z
  .object({
    id: z.string().openapi({ description: "The sandbox's own id", example: 'trf_8c1d0e2f3a4b5c6d7e8f9a0b' }),
    reference: z.guid().openapi({ description: 'The UUID the transfer was created with, in lower case', example: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' }),
    amount: z.number(),
    currency: z.enum(TRANSFER_CURRENCIES),
    type: z.enum(TRANSFER_TYPES),
    source: TransferSource,
    destination: TransferDestination,
    narrations: z.string().optional(),
    status: z.enum(TRANSFER_STATUSES),
    fee: z.number().openapi({ description: 'Flat fee by currency and amount band (the payout schedule); reported, not charged to a wallet balance' }),
    serviceSource: z.string().openapi({ description: 'The x-service-source header of the request that created it', example: 'payroll-service' }),
    category: z.enum(TRANSFER_CATEGORIES).nullable().openapi({ description: 'Set on rows of a bulk file; null on single transfers' }),
    bulkId: z.string().nullable().openapi({ description: 'The bulk file the transfer came from; null on single transfers' }),
    failureReason: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Transfer');
export type Transfer = z.infer<typeof Transfer>;

export const TransferList = z.array(Transfer).openapi('TransferList');

export const BulkUploadRequest = z
  .object({
    name: z.string().min(1).max(100).optional().openapi({ example: 'January payroll' }),
    items: z.array(BulkRow).min(1).max(10_000),
  })
  .openapi('BulkUploadRequest');

export const BulkFile = z
  .object({
    id: z.string().openapi({ example: 'bulk_5e0c3b1a9d8f7e6a5b4c3d2e' }),
    name: z.string().nullable(),
    count: z.number().int(),
    serviceSource: z.string(),
    createdAt: timestamp,
  })
  .openapi('BulkFile');
export type BulkFile = z.infer<typeof BulkFile>;

export const TransferPage = z
  .object({
    content: z.array(Transfer),
    pageNumber: z.number().int(),
    pageSize: z.number().int(),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
  })
  .openapi('TransferPage');

const q = (name: string) => ({ param: { name, in: 'query' as const } });


/** A calendar date (YYYY-MM-DD, no 02-30) or a date-time with an offset, over createdAt. */
const ISO_DATE = z.iso.date();
const ISO_DATE_TIME = z.iso.datetime({ offset: true });
const WHEN = 'must be a date (2026-01-15) or an ISO 8601 date-time (2026-01-15T09:00:00Z)';
/** A date-time whose offset's + was sent unencoded: a query reads it as a space. */
const PLUS_AS_SPACE = /T[\d:.]+ \d{2}:?\d{2}$/;
const when = (name: string) =>
  z
    .preprocess(
      emptyAsUnset,
      z
        .string()
        .refine((s) => (ISO_DATE.safeParse(s).success || ISO_DATE_TIME.safeParse(s).success) && !Number.isNaN(Date.parse(s)), {
          error: (issue) =>
            typeof issue.input === 'string' && PLUS_AS_SPACE.test(issue.input) ? `${WHEN}: its offset's + arrived as a space, send it as %2B` : WHEN,
        })
        .optional(),
    )
    .openapi({ ...q(name), example: '2026-01-15' });

/** The values a bulk page filter matches; any other string is taken and matches nothing (bulk.page.ts warns of it). */
export const BULK_FILTERS = { status: TRANSFER_STATUSES, category: TRANSFER_CATEGORIES, currency: TRANSFER_CURRENCIES } as const;

/** A filter the API document types as a string: any value is accepted, an unknown one matches nothing. */
const filter = (name: string, values: readonly string[], example: string) =>
  z
    .string()
    .max(100)
    .optional()
    .openapi({
      ...q(name),
      example,
      description: `Exact value: ${values.join(', ')}. Any other value is accepted and matches nothing (an empty page); the answer names it in X-Sandbox-Warning, with 'did you mean' when a known value is close.`,
    });

export const BulkPageQuery = z.object({
  page: wholeNumberQuery('page', 0, 0, INT32_MAX),
  size: wholeNumberQuery('size', 10, 1, 100),
  query: z.string().max(100).optional().openapi({ ...q('query'), description: 'Matches reference, destination account number or name (case-insensitive, part of the text)' }),
  status: filter('status', TRANSFER_STATUSES, 'FAILED'),
  category: filter('category', TRANSFER_CATEGORIES, 'SALARY'),
  currency: filter('currency', TRANSFER_CURRENCIES, 'NGN'),
  from: when('from'),
  to: when('to'),
});
export type BulkPageQuery = z.infer<typeof BulkPageQuery>;

export const ServiceSourceHeader = z.object({
  'x-service-source': z.string().openapi({ param: { name: 'x-service-source', in: 'header' }, description: 'Names the calling service; kept on each transfer', example: 'payroll-service' }),
});

/** Transfer references are UUIDs (the API document's 2.9): a read with anything else is malformed (400), not unknown. */
export const ReferenceParam = z.object({
  reference: z.guid().openapi({ param: { name: 'reference', in: 'path' }, example: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' }),
});

export const BulkIdParam = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' }, description: 'The id the upload answered with, in any letter case', example: 'bulk_demo_salaries' }),
});
