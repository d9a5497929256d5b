// Marketplace quotes (API document §2.4, §2.5, §4.4): an intent filled from the liquidity pools,
// the allocation removal, the read-back and the completion into a payment-specific quote.
import { z } from '@hono/zod-openapi';
import { timestamp } from '../../http/fields.js';
import { CHAINS, type Chain } from '../liquidity/pools.js';

export const QUOTE_STATUSES = ['pending', 'awaiting_payment', 'completed', 'expired', 'cancelled'] as const;
export const QUOTE_CURRENCIES = ['NGN', 'GHS', 'USD', 'USDT', 'USDC'] as const;
export const EVM_ADDRESS = /^0x[a-fA-F0-9]{40}$/;


export const CreateIntentRequest = z
  .object({
    sourceCurrency: z.enum(QUOTE_CURRENCIES).openapi({ description: 'The currency the partner pays in', example: 'NGN' }),
    destinationCurrency: z.enum(QUOTE_CURRENCIES).openapi({ description: 'The currency or token to receive', example: 'USDT' }),
    amount: z.number().positive().max(1_000_000_000_000).openapi({
      description: 'In source units when amountDirection is source, destination units otherwise; at most 2 decimals for fiat, 6 for tokens',
      example: 50000,
    }),
    amountDirection: z.enum(['source', 'destination']).openapi({ description: 'Which currency amount is in', example: 'source' }),
    rate: z.number().positive().max(1_000_000_000).optional().openapi({
      description: 'Proposed rate, fiat per one token (for two fiat currencies, destination units per one source unit): pools worse than it are left out',
      example: 1585,
    }),
  })
  .openapi('CreateIntentRequest');

export type CreateIntentRequest = z.infer<typeof CreateIntentRequest>;

export const QuoteSettlement = z
  .object({
    token: z.literal('USDT').openapi({ description: 'The settlement token' }),
    tokenAmount: z.number().openapi({ description: 'USDT moved from the source pool to the destination pool: allocatedAmount / destinationRate, rounded up to 6 decimals', example: 64.020483 }),
    sourcePoolId: z.uuid().openapi({ description: 'The pool paid in the source currency for USDT (GHS→USDT)' }),
    sourceRate: z.number().openapi({ description: 'Its rate: source units per one USDT', example: 15.62 }),
    destinationPoolId: z.uuid().openapi({ description: 'The pool paying the USDT out in the destination currency (USDT→NGN); the allocation\'s clientId and poolAccountId are its' }),
    destinationRate: z.number().openapi({ description: 'Its rate: destination units per one USDT', example: 1575 }),
  })
  .openapi('QuoteSettlement', {
    description:
      'How an allocation of a fiat to fiat quote settles: the partner pays the source currency into the source pool for USDT, which ' +
      'the destination pool pays out in the destination currency. The allocation\'s rate is destinationRate / sourceRate rounded down ' +
      'to 8 significant digits, and allocatedAmount is sourceAmount times that rate (a computed side rounded in the pools\' favour).',
  });

export const QuoteAllocation = z
  .object({
    id: z.uuid(),
    clientId: z.uuid().openapi({ description: 'The liquidity provider running the pool' }),
    poolId: z.uuid(),
    poolAccountId: z.uuid(),
    allocatedAmount: z.number().openapi({ description: 'Destination units this pool delivers', example: 31.635558 }),
    sourceAmount: z.number().openapi({ description: 'Source units paid into this pool', example: 50000 }),
    rate: z.number().openapi({ description: 'Fiat per one token; for a fiat to fiat quote, destination units per one source unit', example: 1580.5 }),
    reference: z.string().openapi({ example: 'HPR-7d0c2b2f6a8e4e5c9b1d3f5a7c9e1b3d-1' }),
    metadata: z
      .object({
        poolName: z.string(),
        chain: z.string(),
        settlement: QuoteSettlement.optional(),
      })
      .openapi({
        description: 'The pool\'s name and chain; for a fiat to fiat quote also how the allocation settles through USDT',
        example: { poolName: 'Lagos Liquidity Partners', chain: 'BASE' },
      }),
  })
  .openapi('QuoteAllocation');

export const AllocationResult = z
  .object({
    totalSourceAmount: z.number(),
    weightedAverageRate: z.number().openapi({
      description: 'Total fiat over total token, at most 10 decimals, within the rates used; for a fiat to fiat quote total destination over total source',
      example: 1580.5,
    }),
    totalDestinationAmount: z.number(),
    allocations: z.array(QuoteAllocation),
  })
  .openapi('AllocationResult');

export const BankPayIn = z
  .object({
    accountName: z.string().openapi({ example: 'Payments Sandbox Ltd' }),
    accountNumber: z.string().openapi({ example: '0123456789' }),
    bankName: z.string().openapi({ example: 'Access Bank' }),
    reference: z.string().openapi({ description: 'Put this on the transfer; unique to the quote', example: 'HPR-7d0c2b2f6a8e4e5c9b1d3f5a7c9e1b3d' }),
  })
  .openapi('BankPayIn');

const cryptoPayInFields = {
  addressId: z.uuid(),
  address: z.string().openapi({ example: '0x52908400098527886e0f7030069857d2e4169ee7' }),
  chain: z.string().openapi({ example: 'BASE' }),
  token: z.string().openapi({ description: 'The token of the pair; USDT for a fiat to fiat quote', example: 'USDT' }),
  expectedAmount: z.number().openapi({ description: "Token units to send: the source total, and once the quote has a payment-specific quote its totalAmount (fees included); 0 when the quote is paid in by bank" }),
  externalReference: z.string().openapi({ description: 'The quote id' }),
  createdAt: timestamp,
  expiresAt: timestamp,
  virtualAccountId: z.uuid(),
  derivationIndex: z.number().int().openapi({ description: 'Counts up from 0 per API key', example: 0 }),
  warningMessage: z.string(),
};

/** The deposit address's status on a marketplace quote, by the quote's status. */
export const MARKETPLACE_PAY_IN_STATUS = {
  pending: 'active',
  awaiting_payment: 'active',
  completed: 'completed',
  expired: 'expired',
  cancelled: 'cancelled',
} as const satisfies Record<QuoteStatus, string>;

/** A payment-specific quote's words for the quote's end states (its own and its deposit address's). */
const PAYMENT_ENDED = { completed: 'COMPLETED', expired: 'EXPIRED', cancelled: 'CANCELLED' } as const;

/** The payment-specific quote's status and its deposit address's, by the quote's status. */
export const PAYMENT_STATUS = {
  pending: 'PENDING',
  awaiting_payment: 'PENDING',
  ...PAYMENT_ENDED,
} as const satisfies Record<QuoteStatus, string>;
export const PAYMENT_PAY_IN_STATUS = {
  pending: 'AWAITING_PAYMENT',
  awaiting_payment: 'AWAITING_PAYMENT',
  ...PAYMENT_ENDED,
} as const satisfies Record<QuoteStatus, string>;

const values = <T extends Record<string, string>>(o: T) => [...new Set(Object.values(o))] as [T[keyof T], ...T[keyof T][]];

export const CryptoPayIn = z
  .object({
    ...cryptoPayInFields,
    addressType: z.enum(['deposit']).openapi({ example: 'deposit' }),
    status: z.enum(values(MARKETPLACE_PAY_IN_STATUS)).openapi({
      description: 'active while the quote can be paid in (pending, awaiting_payment); then completed, expired or cancelled as the quote',
    }),
  })
  .openapi('CryptoPayIn');

export const ChatMetadata = z
  .object({
    conversationId: z.string().optional(),
    chatQuoteId: z.string().optional(),
    listingId: z.string().optional(),
    initialListingRate: z.string().optional(),
    negotiationStartedAt: timestamp.optional(),
    quoteSentAt: timestamp.optional(),
    acceptedAt: timestamp.optional(),
  })
  .openapi('ChatMetadata', {
    description:
      'Always present. With a proposed rate every field but acceptedAt is sent from creation, and acceptedAt from completion; ' +
      'without one the object is empty. A field with no value is left out, never null.',
  });

export const MarketplaceQuote = z
  .object({
    quoteId: z.uuid(),
    status: z.enum(QUOTE_STATUSES),
    source: z.string().openapi({ example: 'NGN' }),
    destination: z.string().openapi({ example: 'USDT' }),
    chain: z.string().openapi({ description: 'Chain of the best-rated pool used, upper case; for a fiat to fiat quote the chain its USDT settles on (its webhooks say null)', example: 'BASE' }),
    amount: z.number().openapi({ description: 'The requested amount', example: 50000 }),
    totalSourceAmount: z.number(),
    totalDestinationAmount: z.number(),
    clientId: z.uuid().openapi({ description: "The partner's client id, the same on every quote of the key" }),
    mode: z.enum(['live', 'sandbox']),
    ttl: z.number().int().openapi({ description: 'Lifetime in seconds', example: 300 }),
    allocationResult: AllocationResult,
    metadata: z.object({ bankPayIn: BankPayIn, cryptoPayIn: CryptoPayIn }),
    chatMetadata: ChatMetadata,
  })
  .openapi('MarketplaceQuote');

export type MarketplaceQuote = z.infer<typeof MarketplaceQuote>;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const CompleteQuoteRequest = z
  .object({
    destination: z
      .object({
        bank: z
          .object({
            accountName: z.string().min(1).max(200).openapi({ example: 'John Doe' }),
            accountNumber: z.string().min(1).max(34).openapi({ example: '0123456789' }),
            bankCode: z.string().min(1).max(50).openapi({ example: '058' }),
          })
          .optional()
          .openapi({ description: 'Required when the destination currency is fiat' }),
        blockChain: z
          .object({ address: z.string().regex(EVM_ADDRESS).openapi({ example: '0x52908400098527886E0F7030069857D2E4169EE7' }) })
          .optional()
          .openapi({ description: 'Required when the destination currency is a token' }),
      })
      .openapi({ description: 'Where the destination amount goes; with both, the one fitting the destination currency is used' }),
  })
  .openapi('CompleteQuoteRequest');

export type CompleteQuoteRequest = z.infer<typeof CompleteQuoteRequest>;

export const PaymentQuote = z
  .object({
    quoteId: z.string(),
    merchantId: z.uuid(),
    sourceCurrency: z.string(),
    destinationCurrency: z.string(),
    destinationNetwork: z.string().openapi({ description: 'The chain for a token destination, BANK for a fiat one', example: 'BASE' }),
    rate: z.number(),
    providerId: z.uuid(),
    providerBalanceId: z.uuid(),
    amount: z.number().openapi({ description: 'Source units to pay, before fees' }),
    receiveAmount: z.number(),
    totalAmount: z.number().openapi({ description: 'amount plus fees' }),
    expiresAt: timestamp,
    createdAt: timestamp,
    HyperRailReference: z.string().openapi({ example: 'HR-REF-482913' }),
    status: z.enum(values(PAYMENT_STATUS)).openapi({ description: 'PENDING until paid in; then COMPLETED, EXPIRED or CANCELLED as the quote' }),
    metadata: z.object({
      bankPayIn: BankPayIn,
      cryptoPayIn: z.object({
        ...cryptoPayInFields,
        addressType: z.enum(['EVM']).openapi({ example: 'EVM' }),
        status: z.enum(values(PAYMENT_PAY_IN_STATUS)).openapi({ description: 'AWAITING_PAYMENT until paid in; then COMPLETED, EXPIRED or CANCELLED as the quote' }),
      }),
    }),
    fees: z.array(z.object({ name: z.string(), amount: z.number(), feeType: z.enum(['FLAT']) })),
  })
  .openapi('PaymentQuote');

export type PaymentQuote = z.infer<typeof PaymentQuote>;

/** A quote id is the quote session's UUID (the API document's 4.4): anything else is malformed (400), as an itemId is. */
export const QuoteIdParam = z.object({
  id: z.guid().openapi({ param: { name: 'id', in: 'path' }, example: '3b241101-e2bb-4255-8caf-4136c566a962' }),
});

export const RemoveItemParams = QuoteIdParam.extend({
  itemId: z.guid().openapi({ param: { name: 'itemId', in: 'path' }, example: '9c5b94b1-35ad-49bb-b118-8e8fc24abf80' }),
});

/** POST /api/v1/partners/marketplace/express/quote and POST /api/v1/quotes (from the live reference). */
export const ExpressQuoteRequest = z
  .object({
    sourceCurrency: z.enum(QUOTE_CURRENCIES).openapi({ description: 'The currency the partner pays in', example: 'NGN' }),
    destinationCurrency: z.enum(QUOTE_CURRENCIES).openapi({ description: 'The currency or token to receive', example: 'USDT' }),
    amount: z.number().positive().max(1_000_000_000_000).openapi({
      description: 'In source units; at most 2 decimals for fiat, 6 for tokens',
      example: 50000,
    }),
    destinationNetwork: z.enum(CHAINS as unknown as [Chain, ...Chain[]]).optional().openapi({
      description: 'The token\'s chain (for two fiat currencies, the chain the USDT settles on): only pools on it are used. Left out: the best pools on any chain',
      example: 'BASE',
    }),
  })
  .openapi('ExpressQuoteRequest');

export type ExpressQuoteRequest = z.infer<typeof ExpressQuoteRequest>;
