// POST /trades (fxtr.014.001.05): the FXTradInstr request and its FXTradInstrRspn (status NEWT).
import type { Decimal } from '../kernel/money.js';
import { ccyPair, type CurrencyPair } from './parts.js';
import { BodyReader, rules } from './read.js';
import { amount, count, rate, type OperatingMode } from './values.js';
import { buildXml, parseXml } from './xml.js';
import { requestStructure } from './xsd-reader.js';

/**
 * The partner always pays BaseCcy and receives QtdCcy. AmtDrctn says which side TradgCcyAmt is on:
 * BUY fixes the QtdCcy amount bought, SELL fixes the BaseCcy amount sold.
 */
export type AmountDirection = 'BUY' | 'SELL';

export interface TradeInstruction extends CurrencyPair {
  /** TradAmts/TradgCcyAmt, exactly as sent (plain decimal text; QtdCcy for BUY, BaseCcy for SELL). */
  tradingAmount: string;
  /** AgrdRate/XchgRate, exactly as sent; absent when the partner takes the offered rate. */
  agreedRate?: string;
  direction: AmountDirection;
}

const DIRECTION = rules.oneOf(['BUY', 'SELL']);

export function parseTradeInstruction(input: string | Uint8Array): TradeInstruction {
  const { body } = parseXml(input, { roots: ['FXTradInstr'], structure: requestStructure('FXTradInstr') });
  const r = new BodyReader(body);
  const baseCcy = r.text('CcyPair/BaseCcy', rules.currency);
  const quotedCcy = r.text('CcyPair/QtdCcy', rules.currency);
  const tradingAmount = r.text('TradAmts/TradgCcyAmt', rules.amount);
  // AgrdRate is optional, but once sent it must carry the rate: a limit that cannot be read is refused,
  // never dropped.
  const agreedRate = r.has('AgrdRate') ? r.text('AgrdRate/XchgRate', rules.rate) : undefined;
  const direction = r.text('AmtDrctn', DIRECTION) as AmountDirection;
  if (baseCcy && baseCcy === quotedCcy) r.problem('CcyPair/QtdCcy', 'must differ from CcyPair/BaseCcy');
  r.finish();
  return { baseCcy, quotedCcy, tradingAmount, ...(agreedRate === undefined ? {} : { agreedRate }), direction };
}

export interface TradeAmounts {
  /** TradgCcyAmt, as sent. */
  trading: Decimal.Value;
  /** SttlmCcyAmt. */
  settlement: Decimal.Value;
  /** CntrValCcyAmt, in QtdCcy. */
  counterValue: Decimal.Value;
}

export interface TradeInstructionResponse {
  txId: string;
  pair: CurrencyPair;
  amounts: TradeAmounts;
  /** AllcnDtls/TtlSttlmAmt. */
  totalSettlementAmount: Decimal.Value;
  /** AllcnDtls/WtdAvrgRate. */
  weightedAverageRate: Decimal.Value;
  ttlSeconds: number;
  mode: OperatingMode;
}

export const tradeAmounts = (a: TradeAmounts) => ({
  TradgCcyAmt: amount(a.trading),
  SttlmCcyAmt: amount(a.settlement),
  CntrValCcyAmt: amount(a.counterValue),
});

/** FXTradInstrRspn for a new trade: UnqTxIdr, TradSts (NEWT), CcyPair, TradAmts, AllcnDtls, TTL, OprgMd. */
export function buildTradeInstructionResponse(r: TradeInstructionResponse): string {
  return buildXml('FXTradInstrRspn', {
    UnqTxIdr: { TxId: r.txId },
    TradSts: { Sts: 'NEWT' },
    CcyPair: ccyPair(r.pair),
    TradAmts: tradeAmounts(r.amounts),
    AllcnDtls: { TtlSttlmAmt: amount(r.totalSettlementAmount), WtdAvrgRate: rate(r.weightedAverageRate) },
    TTL: count(r.ttlSeconds),
    OprgMd: r.mode,
  });
}
