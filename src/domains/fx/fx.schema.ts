// The OpenAPI side of the FX routes: XML bodies are documented as text naming their root and XSD,
// and the query and path parameters are zod schemas that also validate.
import { z } from '@hono/zod-openapi';
import { emptyAsUnset, INT32_MAX, wholeNumberQuery } from '../../http/fields.js';
import type { XsdName } from '../../iso20022/xsd-names.js';
import { REQUEST_EXAMPLES } from './fx.examples.js';
import { PAGE_DEFAULT, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './fx.listings.js';

const XML = 'application/xml';

const message = (root: XsdName, what: string) =>
  z.string().openapi({ description: `${what}: an XML message with root ${root}, described by /xsd/${root}.xsd.` });

export const xmlRequest = (root: XsdName, required = true) => ({
  required,
  description: `Root ${root} (XSD: /xsd/${root}.xsd), optionally inside an ISO 20022 <Document> wrapper.${required ? '' : ' The body may be empty.'}`,
  content: { [XML]: { schema: message(root, 'The request'), example: REQUEST_EXAMPLES[root] } },
});

export const xmlResponse = (root: XsdName, description: string) => ({
  description: `${description} (root ${root}, XSD /xsd/${root}.xsd)`,
  content: { [XML]: { schema: message(root, description) } },
});

const REJECT_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed XML, a DOCTYPE, a missing or invalid element (named in ErrLctn), no liquidity, an Accept header that admits no XML',
  401: 'Missing or invalid API key',
  404: 'Unknown trade, pair or route',
  409: 'A move the trade state (or its expired TTL) does not allow',
  413: 'Body over 1 MiB',
  415: 'Body not sent as application/xml or text/xml',
};

/** Error answers of an FX route: the MsgRjct reject message under the JSON API's statuses. */
export function xmlRejects(...statuses: number[]) {
  const out: Record<string, ReturnType<typeof xmlResponse>> = {};
  for (const s of [401, ...statuses]) out[String(s)] = xmlResponse('MsgRjct', REJECT_DESCRIPTIONS[s] ?? 'Error');
  out.default = xmlResponse('MsgRjct', 'Any other error, as the same reject message');
  return out;
}

/** A TxId is a UUID (the API document's 2.6): anything else is malformed (400), checked before any body is read. */
export const TradeParams = z.object({
  transactionId: z.guid().openapi({ description: 'UnqTxIdr/TxId of the trade', example: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' }),
});

const CURRENCY_CODE = 'must be a currency code of 3 to 5 letters, e.g. NGN or USDT';
const CURRENCY_PATTERN = /^[A-Za-z]{3,5}$/;
const currency = z.string().regex(CURRENCY_PATTERN, { message: CURRENCY_CODE });

export const ListingsQuery = z.object({
  source: z.preprocess(emptyAsUnset, currency.optional()).openapi({ description: 'Only pools paid in this currency (any case), e.g. NGN', example: 'NGN' }),
  destination: z.preprocess(emptyAsUnset, currency.optional()).openapi({ description: 'Only pools delivering this currency, e.g. USDT', example: 'USDT' }),
  // Any int32 page answers, as on the bulk transfer list; a page past the end is empty.
  page: wholeNumberQuery('page', PAGE_DEFAULT, 0, INT32_MAX, `0-based page number, default ${PAGE_DEFAULT}`),
  pageSize: wholeNumberQuery('pageSize', PAGE_SIZE_DEFAULT, 1, PAGE_SIZE_MAX, `Listings per page, 1 to ${PAGE_SIZE_MAX}, default ${PAGE_SIZE_DEFAULT}`),
});

/** A currency code the maker rate needs; sent without one, the answer says what to send. */
const rateCurrency = (example: string) =>
  z.string({ error: `is required: send a currency code, e.g. ${example}` }).regex(CURRENCY_PATTERN, { message: CURRENCY_CODE });

export const RatesQuery = z.object({
  from: rateCurrency('NGN').openapi({ description: 'Source currency, e.g. NGN', example: 'NGN' }),
  to: rateCurrency('USDT').openapi({ description: 'Target currency, e.g. USDT', example: 'USDT' }),
});

export const XsdParams = z.object({
  file: z.string().openapi({ description: 'A message root followed by .xsd, e.g. FXTradInstr.xsd', example: 'FXTradInstr.xsd' }),
});
