// Every built message validates against its published XSD and reads back in the documented order.
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../kernel/errors.js';
import { buildListingsReport } from './listings-message.js';
import { buildMakerRate } from './maker-rate.js';
import { buildReject } from './reject.js';
import { buildTradeAcceptResponse } from './trade-accept.js';
import { buildTradeCancellationResponse } from './trade-cancellation.js';
import { buildTradeConfirmationResponse } from './trade-confirmation.js';
import { buildTradeInstructionResponse } from './trade-instruction.js';
import { buildTradeStatus } from './trade-status.js';
import { parseXml } from './xml.js';
import { validateAgainstXsd } from './xsd.test-helper.js';

const TX = '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
const pair = { baseCcy: 'USDT', quotedCcy: 'NGN' };
const amounts = { trading: '1000', settlement: '1530250.5', counterValue: '1530250.5' };
const payIn = { accountName: 'Sandbox FX Collections', accountNumber: '0123456789', bankName: 'Access Bank', reference: 'HPR-0f9e8d7c6b5a49382716051423324150' };

describe('responses validate against their XSDs', () => {
  it('FXTradInstrRspn for a new trade, with amounts and rates written plainly', () => {
    const xml = buildTradeInstructionResponse({
      txId: TX,
      pair,
      amounts: { trading: 1e21, settlement: '1530250.123456', counterValue: '0.00001' },
      totalSettlementAmount: '1530250.5',
      weightedAverageRate: '1530.25000000004',
      ttlSeconds: 300,
      mode: 'sandbox',
    });
    expect(validateAgainstXsd(xml, 'FXTradInstrRspn')).toEqual([]);
    const { body } = parseXml(xml, { roots: ['FXTradInstrRspn'] });
    expect(Object.keys(body)).toEqual(['UnqTxIdr', 'TradSts', 'CcyPair', 'TradAmts', 'AllcnDtls', 'TTL', 'OprgMd']);
    expect(body.TradAmts).toEqual({ TradgCcyAmt: '1000000000000000000000', SttlmCcyAmt: '1530250.12346', CntrValCcyAmt: '0.00001' });
    expect(body.AllcnDtls).toEqual({ TtlSttlmAmt: '1530250.5', WtdAvrgRate: '1530.25' });
    expect([body.TradSts, body.TTL, body.OprgMd]).toEqual([{ Sts: 'NEWT' }, '300', 'sandbox']);
  });

  it('FXTradInstrRspn for an accepted trade (same root, settlement branch)', () => {
    const xml = buildTradeAcceptResponse({ txId: TX, pair, amounts, payIn, mode: 'live' });
    expect(validateAgainstXsd(xml, 'FXTradInstrRspn')).toEqual([]);
    const { body } = parseXml(xml, { roots: ['FXTradInstrRspn'] });
    expect(Object.keys(body)).toEqual(['UnqTxIdr', 'TradSts', 'CcyPair', 'TradAmts', 'SttlmInstr', 'OprgMd']);
    expect(body.TradSts).toEqual({ Sts: 'SETT' });
    expect(body.SttlmInstr).toEqual({
      BkPayInDtls: { AcctNm: payIn.accountName, AcctNb: payIn.accountNumber, BkNm: payIn.bankName, Ref: payIn.reference },
    });
  });

  it('FXTradStsAndDtlsNtfctn', () => {
    const xml = buildTradeStatus({ txId: TX, status: 'SETT', pair, tradingAmount: '1000', counterValueAmount: '1530250.5', ttlSeconds: 12.7, mode: 'sandbox' });
    expect(validateAgainstXsd(xml, 'FXTradStsAndDtlsNtfctn')).toEqual([]);
    expect(parseXml(xml, { roots: ['FXTradStsAndDtlsNtfctn'] }).body).toEqual({
      TxId: TX, Sts: 'SETT', CcyPair: { BaseCcy: 'USDT', QtdCcy: 'NGN' },
      TradAmts: { TradgCcyAmt: '1000', CntrValCcyAmt: '1530250.5' }, TTL: '12', OprgMd: 'sandbox',
    });
  });

  it('FXTradCxlRspn with Sts CANC and TTL 0', () => {
    const xml = buildTradeCancellationResponse({ txId: TX, mode: 'sandbox' });
    expect(validateAgainstXsd(xml, 'FXTradCxlRspn')).toEqual([]);
    expect(parseXml(xml, { roots: ['FXTradCxlRspn'] }).body).toEqual({ TxId: TX, Sts: 'CANC', TTL: '0', OprgMd: 'sandbox' });
  });

  it('FXTradConfStsAdvc with Sts COMP and pay-in details', () => {
    const xml = buildTradeConfirmationResponse({ txId: TX, payIn, mode: 'live' });
    expect(validateAgainstXsd(xml, 'FXTradConfStsAdvc')).toEqual([]);
    expect(Object.keys(parseXml(xml, { roots: ['FXTradConfStsAdvc'] }).body)).toEqual(['TxId', 'Sts', 'SttlmInstr', 'OprgMd']);
  });

  it('FndPrcgPsptRpt with several listings, and with none', () => {
    const listing = { id: 'lst_1', name: 'USDT/NGN pool A', pair, rate: '1530.25', availableBalance: '250000.5', tradesCount: 42, completionRate: '98.5' };
    const xml = buildListingsReport({ pageNumber: 0, pageSize: 10, totalElements: 2, listings: [listing, { ...listing, id: 'lst_2' }], mode: 'sandbox' });
    expect(validateAgainstXsd(xml, 'FndPrcgPsptRpt')).toEqual([]);
    const { body } = parseXml(xml, { roots: ['FndPrcgPsptRpt'], isArray: ['FndPrcgPsptRpt/Listgs'] });
    expect(body.Pgntn).toEqual({ PageNumber: '0', PageSize: '10', TotalElements: '2' });
    expect(body.Listgs).toEqual([
      { Id: 'lst_1', Nm: 'USDT/NGN pool A', CcyPair: 'USDT/NGN', XchgRate: '1530.25', AvlblBal: '250000.5', TradsCnt: '42', CmpltnRate: '98.5' },
      { Id: 'lst_2', Nm: 'USDT/NGN pool A', CcyPair: 'USDT/NGN', XchgRate: '1530.25', AvlblBal: '250000.5', TradsCnt: '42', CmpltnRate: '98.5' },
    ]);
    const empty = buildListingsReport({ pageNumber: 3, pageSize: 10, totalElements: 2, listings: [], mode: 'live' });
    expect(validateAgainstXsd(empty, 'FndPrcgPsptRpt')).toEqual([]);
  });

  it('FxTradStsAndDtls with a UTC timestamp and a signed change', () => {
    const xml = buildMakerRate({
      sourceCcy: 'USDT', targetCcy: 'NGN', rate: '1530.25', timestamp: Date.UTC(2026, 0, 15, 9), ageSeconds: 4, change24hPct: '-1.23456', mode: 'sandbox',
    });
    expect(validateAgainstXsd(xml, 'FxTradStsAndDtls')).toEqual([]);
    expect(parseXml(xml, { roots: ['FxTradStsAndDtls'] }).body).toEqual({
      SrcCcy: 'USDT', TrgtCcy: 'NGN', XchgRate: '1530.25', RateSrc: 'market_maker',
      TmStmp: '2026-01-15T09:00:00.000Z', AgeSecs: '4', PctChg24H: '-1.2346', OprgMd: 'sandbox',
    });
  });

  it('MsgRjct carries the code, type, message and details of the error, in admi.002 order', () => {
    const err = new SandboxError('VALIDATION_ERROR', 'Invalid request body: CcyPair/BaseCcy is required.', [
      { field: 'CcyPair/BaseCcy', issue: 'is required: send a currency code' },
      { field: 'AmtDrctn', issue: 'must be one of BUY, SELL' },
    ]);
    const xml = buildReject(err, { ref: 'POST /api/v1/partners/fx/trades', at: '2026-01-15T09:00:00Z', mode: 'sandbox' });
    expect(validateAgainstXsd(xml, 'MsgRjct')).toEqual([]);
    expect(parseXml(xml, { roots: ['MsgRjct'] }).body).toEqual({
      RltdRef: { Ref: 'POST /api/v1/partners/fx/trades' },
      Rsn: {
        RjctgPtyRsn: 'VALIDATION_ERROR',
        RjctnDtTm: '2026-01-15T09:00:00.000Z',
        ErrLctn: 'CcyPair/BaseCcy, AmtDrctn',
        RsnDesc: 'Invalid request body: CcyPair/BaseCcy is required.',
        AddtlData: 'CcyPair/BaseCcy: is required: send a currency code; AmtDrctn: must be one of BUY, SELL',
      },
      ErrTp: 'invalid_request_error',
      OprgMd: 'sandbox',
    });
  });

  it('MsgRjct without details or mode, and with an over-long message clipped to ISO length', () => {
    const err = new SandboxError('INVALID_API_KEY', `Unknown key ${'k'.repeat(400)}`);
    const xml = buildReject(err, { ref: 'req_1', at: new Date(0) });
    expect(validateAgainstXsd(xml, 'MsgRjct')).toEqual([]);
    const { body } = parseXml(xml, { roots: ['MsgRjct'] });
    expect(Object.keys(body)).toEqual(['RltdRef', 'Rsn', 'ErrTp']);
    expect((body.Rsn as { RsnDesc: string }).RsnDesc).toHaveLength(350);
    expect(body.ErrTp).toBe('authentication_error');
  });
});
