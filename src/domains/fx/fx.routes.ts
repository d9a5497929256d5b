// The FX interface over XML: parse with src/iso20022, call the service, build the answer.
import { createRoute } from '@hono/zod-openapi';
import { SandboxError } from '../../kernel/errors.js';
import { newRouter, security, type Tag } from '../../http/openapi.js';
import { requestScenario } from '../../http/respond.js';
import { warn } from '../../http/warnings.js';
import { buildMakerRate } from '../../iso20022/maker-rate.js';
import { buildTradeAcceptResponse, parseTradeAccept } from '../../iso20022/trade-accept.js';
import { buildTradeCancellationResponse, parseTradeCancellation } from '../../iso20022/trade-cancellation.js';
import { buildTradeConfirmationResponse, parseTradeConfirmation } from '../../iso20022/trade-confirmation.js';
import { buildTradeInstructionResponse, parseTradeInstruction } from '../../iso20022/trade-instruction.js';
import { buildTradeStatus } from '../../iso20022/trade-status.js';
import { FX_BASE, xml, xmlAccepted, xmlBody } from './fx.http.js';
import { ListingsQuery, RatesQuery, TradeParams, XsdParams, xmlRejects, xmlRequest, xmlResponse } from './fx.schema.js';
import { acceptTrade, cancelTrade, confirmTrade, createTrade, getTrade, ttlLeft, type TradeRecord } from './fx.service.js';
import { listingFilterWarnings, listingsReport } from './fx.listings.js';
import { makerQuote } from '../liquidity/maker-rates.js';
import { nearXsd, SERVED_XSD_FILES, servedXsd, XSD_ROOTS } from './xsd.files.js';

export const fxTag: Tag = {
  name: 'FX (XML)',
  description: 'The ISO 20022-style XML interface: create, accept, confirm, cancel and read trades, list pools, read maker rates.',
  order: 6,
};
const tags = [fxTag.name];
const trade = `${FX_BASE}/trades/{transactionId}`;

const create = createRoute({
  method: 'post',
  path: `${FX_BASE}/trades`,
  operationId: 'createFxTrade',
  middleware: xmlAccepted, // an Accept header that admits no XML is refused first
  tags,
  security,
  summary: 'Create an FX trade (fxtr.014.001.05)',
  description:
    'Allocates the trade over the liquidity pools and answers NEWT with a TTL. AmtDrctn SELL: TradgCcyAmt is BaseCcy sold; BUY: TradgCcyAmt is QtdCcy bought. ' +
    'Two fiat currencies (BaseCcy GHS, QtdCcy NGN) are priced as the cross of their two USDT markets, over cross pools that pair a ' +
    'BaseCcy→USDT pool with a USDT→QtdCcy pool on one chain; XchgRate and WtdAvrgRate are then QtdCcy units per one BaseCcy unit ' +
    '(the QtdCcy pool\'s rate over the BaseCcy pool\'s, rounded down to 8 significant digits), and the trade settles to a bank (BkDstn) or AcctId. ' +
    'Token to token is 400 UNSUPPORTED_CURRENCY.',
  request: { body: xmlRequest('FXTradInstr') },
  responses: { 201: xmlResponse('FXTradInstrRspn', 'The new trade, NEWT'), ...xmlRejects(400, 413, 415) },
});

const read = createRoute({
  method: 'get',
  path: trade,
  operationId: 'getFxTrade',
  middleware: xmlAccepted,
  tags,
  security,
  summary: 'Read an FX trade (fxtr.017.001.05)',
  request: { params: TradeParams },
  responses: { 200: xmlResponse('FXTradStsAndDtlsNtfctn', 'The trade now; TTL is the seconds left to accept it'), ...xmlRejects(400, 404) },
});

const accept = createRoute({
  method: 'post',
  path: `${trade}/accept`,
  operationId: 'acceptFxTrade',
  middleware: xmlAccepted,
  tags,
  security,
  summary: 'Accept an FX trade (fxtr.014.001.05)',
  description:
    'Exactly one settlement form: SttlmDstn/BkDstn, AcctId or SttlmDstn/BlkChnDstn/Adr. Only a NEWT trade within its TTL. ' +
    'Under live keys BkDstn must be an account that Resolve Bank Account resolves (else 404 ACCOUNT_NOT_FOUND at AcctNb), in the name it resolves to (else 400 ACCOUNT_NAME_MISMATCH at AcctNm).',
  request: { params: TradeParams, body: xmlRequest('FXTradAccptReq') },
  responses: { 200: xmlResponse('FXTradInstrRspn', 'The trade, SETT, with the pay-in details'), ...xmlRejects(400, 404, 409, 413, 415) },
});

const confirm = createRoute({
  method: 'post',
  path: `${trade}/confirmation`,
  operationId: 'confirmFxTrade',
  middleware: xmlAccepted,
  tags,
  security,
  summary: 'Confirm an FX trade (fxtr.037.001.02)',
  description: 'Only a SETT trade. Draws the allocated pools down.',
  request: { params: TradeParams, body: xmlRequest('FXTradConfReq', false) },
  responses: { 200: xmlResponse('FXTradConfStsAdvc', 'The trade, COMP'), ...xmlRejects(400, 404, 409, 413, 415) },
});

const cancel = createRoute({
  method: 'put',
  path: `${trade}/cancellation`,
  operationId: 'cancelFxTrade',
  middleware: xmlAccepted,
  tags,
  security,
  summary: 'Cancel an FX trade (fxtr.016.001.05)',
  description: 'Only a NEWT or SETT trade.',
  request: { params: TradeParams, body: xmlRequest('FXTradCxlReq', false) },
  responses: { 200: xmlResponse('FXTradCxlRspn', 'The trade, CANC, TTL 0'), ...xmlRejects(400, 404, 409, 413, 415) },
});

const listings = createRoute({
  method: 'get',
  path: `${FX_BASE}/listings`,
  operationId: 'listFxListings',
  middleware: xmlAccepted,
  tags,
  security,
  summary: 'List liquidity pools (reda.041.001.01)',
  request: { query: ListingsQuery },
  responses: { 200: xmlResponse('FndPrcgPsptRpt', 'One page of listings'), ...xmlRejects(400) },
});

const rates = createRoute({
  method: 'get',
  path: `${FX_BASE}/rates/makers`,
  operationId: 'getMakerRate',
  middleware: xmlAccepted,
  tags,
  security,
  summary: 'Read the market-maker rate of a pair (fxtr.014.001.05)',
  description:
    'Rates are fiat units per one token, whichever way the pair goes; for two fiat currencies (the cross of their USDT markets) to units per ' +
    'one from unit. A currency or pair trades do not take (token to token) is 400 UNSUPPORTED_CURRENCY, as on a trade.',
  request: { query: RatesQuery },
  responses: { 200: xmlResponse('FxTradStsAndDtls', 'The rate'), ...xmlRejects(400) },
});

const xsd = createRoute({
  method: 'get',
  path: '/xsd/{file}',
  operationId: 'getXsd',
  middleware: xmlAccepted,
  tags,
  security: [],
  summary: 'The XSD of an FX message',
  description: 'e.g. /xsd/FXTradInstr.xsd. No key needed.',
  request: { params: XsdParams },
  responses: {
    200: { description: 'The XML schema', content: { 'application/xml': { schema: { type: 'string' as const } } } },
    400: xmlResponse('MsgRjct', 'An Accept header that admits no XML'),
    404: xmlResponse('MsgRjct', 'No message has that root'),
  },
});

const pair = (r: TradeRecord) => ({ baseCcy: r.baseCcy, quotedCcy: r.quotedCcy });
const tradeAmounts = (r: TradeRecord) => ({ trading: r.tradingAmount, settlement: r.settlementAmount, counterValue: r.counterValueAmount });

export const fxRoutes = newRouter()
  .openapi(create, async (c) => {
    const t = c.get('tenant');
    const r = createTrade(t, parseTradeInstruction(await xmlBody(c)), requestScenario(c));
    const body = buildTradeInstructionResponse({
      txId: r.txId, pair: pair(r), amounts: tradeAmounts(r), totalSettlementAmount: r.totalSettlementAmount,
      weightedAverageRate: r.weightedAverageRate, ttlSeconds: ttlLeft(t, r), mode: t.mode,
    });
    return xml(c, body, 201);
  })
  .openapi(read, (c) => {
    const t = c.get('tenant');
    const r = getTrade(t, c.req.valid('param').transactionId);
    const body = buildTradeStatus({
      txId: r.txId, status: r.status, pair: pair(r), tradingAmount: r.tradingAmount,
      counterValueAmount: r.counterValueAmount, ttlSeconds: ttlLeft(t, r), mode: t.mode,
    });
    return xml(c, body);
  })
  .openapi(accept, async (c) => {
    const t = c.get('tenant');
    const id = c.req.valid('param').transactionId;
    getTrade(t, id); // an unknown trade is 404 before its body is looked at
    const r = acceptTrade(t, id, parseTradeAccept(await xmlBody(c)));
    return xml(c, buildTradeAcceptResponse({ txId: r.txId, pair: pair(r), amounts: tradeAmounts(r), payIn: r.payIn!, mode: t.mode }));
  })
  .openapi(confirm, async (c) => {
    const t = c.get('tenant');
    const id = c.req.valid('param').transactionId;
    getTrade(t, id);
    parseTradeConfirmation(await xmlBody(c, true));
    const r = confirmTrade(t, id);
    return xml(c, buildTradeConfirmationResponse({ txId: r.txId, payIn: r.payIn!, mode: t.mode }));
  })
  .openapi(cancel, async (c) => {
    const t = c.get('tenant');
    const id = c.req.valid('param').transactionId;
    getTrade(t, id);
    // The partner's reason (Rsn) is the trade's cancellation reason, in its events as a rule's is.
    const { reason } = parseTradeCancellation(await xmlBody(c, true));
    const r = cancelTrade(t, id, reason);
    return xml(c, buildTradeCancellationResponse({ txId: r.txId, mode: t.mode }));
  })
  .openapi(listings, (c) => {
    const t = c.get('tenant');
    const q = c.req.valid('query');
    warn(c, listingFilterWarnings(q));
    return xml(c, listingsReport(t, q));
  })
  .openapi(rates, (c) => {
    const t = c.get('tenant');
    const { from, to } = c.req.valid('query');
    const q = makerQuote(t, from, to);
    return xml(c, buildMakerRate({
      sourceCcy: q.source, targetCcy: q.target, rate: q.rate, timestamp: q.timestamp,
      ageSeconds: q.ageSeconds, change24hPct: q.change24hPct, mode: t.mode,
    }));
  })
  .openapi(xsd, (c) => {
    const file = c.req.valid('param').file;
    const text = servedXsd(file);
    if (text === undefined) {
      // The reject's text holds 350 characters: the roots are named there, every served file in the detail.
      const near = nearXsd(file);
      const shown = file.length > 40 ? `${file.slice(0, 40)}…` : file;
      throw new SandboxError(
        'RESOURCE_NOT_FOUND',
        `No XSD named '${shown}'.${near ? ` Did you mean ${near}?` : ''} Ask for a message root followed by .xsd: ${XSD_ROOTS.join(', ')}.`,
        [{ field: 'file', issue: `must be one of: ${SERVED_XSD_FILES.join(', ')}` }],
      );
    }
    // Cached for an hour, but not for a client whose Accept admits no XML (it gets the reject): Vary names it.
    return c.body(text, 200, { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600', vary: 'Accept' });
  });
