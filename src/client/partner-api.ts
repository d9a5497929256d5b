// payments-sandbox/api: the partner API's types. `paths`, `components` and `operations` are generated
// from the OpenAPI document the sandbox serves (partner-api.generated.ts), in the form openapi-fetch
// takes: createClient<paths>({ baseUrl }) works against the sandbox and the live service alike. Below
// them, names for the common bodies, and the payload of each event by its type.
import type { components, operations, paths } from './partner-api.generated.js';

export type { components, operations, paths };

type Schemas = components['schemas'];

export type Payout = Schemas['Payout'];
export type CreatePayoutRequest = Schemas['CreatePayoutRequest'];
export type WalletPayout = Schemas['WalletPayout'];
export type CreateWalletPayoutRequest = Schemas['CreateWalletPayoutRequest'];
export type Withdrawal = Schemas['Withdrawal'];
export type CreateWithdrawalRequest = Schemas['CreateWithdrawalRequest'];
export type Transfer = Schemas['Transfer'];
export type CreateTransferRequest = Schemas['CreateTransferRequest'];
export type MarketplaceQuote = Schemas['MarketplaceQuote'];
export type CreateIntentRequest = Schemas['CreateIntentRequest'];
export type PaymentQuote = Schemas['PaymentQuote'];
export type Bank = Schemas['Bank'];
export type ResolvedAccount = Schemas['ResolvedAccount'];
export type Rate = Schemas['Rate'];
/** Every error: { status: 'error', message, error: { type, code, details } }. */
export type ErrorEnvelope = Schemas['ErrorEnvelope'];

/** What a webhook filter may name, as the document lists it: '*', a resource, resource.* or an event. */
export type WebhookFilter = NonNullable<Schemas['WebhookSettingsRequest']['events']>[number];
/** Every event the sandbox records and sends, e.g. payout.failed (from the document's webhook filters). */
export type EventType = Exclude<Extract<WebhookFilter, `${string}.${string}`>, `${string}.*`>;

/** The live service's order payload, which quote.* and order.successful carry. */
export interface QuoteOrder {
  quoteId: string;
  merchantId: string;
  sourceCurrency: string;
  destinationCurrency: string;
  /** The quote's chain (upper case); null for a fiat to fiat order. */
  chain: string | null;
  /** HPR- and 32 hex digits. */
  reference: string;
  status: string;
  /** test for sk_test_ keys. */
  mode: 'test' | 'live';
  amount: number;
  receiveAmount: number;
  totalAmount: number;
  createdAt: string;
  expiresAt: string;
  completedAt?: string | null;
  rate: number;
  quoteType: 'quote' | 'express';
}

/** An FX trade as its status message shows it, with the seconds left to accept it. */
export interface FxTradeEvent {
  txId: string;
  status: 'NEWT' | 'SETT' | 'COMP' | 'CANC';
  ttlSeconds: number;
  mode: 'sandbox' | 'live';
  [field: string]: unknown;
}

/** The resource an event's name begins with, as the API reads it back (camelCase). */
export interface EventResources {
  payout: Payout;
  wallet_payout: WalletPayout & { memo?: string; failureReason: string | null; updatedAt: string };
  withdrawal: Withdrawal;
  transfer: Transfer;
  quote: QuoteOrder;
  order: QuoteOrder;
  fx_trade: FxTradeEvent;
}

/** The data of event E (payout.failed: a Payout, keys in snake_case), as webhooks and GET /_sandbox/events carry it. */
export type EventData<E extends string> = E extends `${infer R}.${string}`
  ? R extends keyof EventResources
    ? Snake<EventResources[R]>
    : Record<string, unknown>
  : Record<string, unknown>;

/** accountNumber → account_number. */
export type SnakeCase<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}` : S;
/** A value with every key snake_case, deeply: how webhooks carry the resource. */
export type Snake<T> = T extends readonly (infer U)[]
  ? Snake<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? SnakeCase<K> : K]: Snake<T[K]> }
    : T;

/** The body of a webhook delivery of event E: { event, data }. */
export interface WebhookPayload<E extends string = EventType> {
  event: E;
  data: EventData<E>;
}

/** Each event's webhook payload, by event type. */
export type WebhookPayloads = { [E in EventType]: WebhookPayload<E> };
