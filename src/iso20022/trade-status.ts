// GET /trades/{id} (fxtr.017.001.05): FXTradStsAndDtlsNtfctn, the trade as it stands.
import type { Decimal } from '../kernel/money.js';
import { ccyPair, type CurrencyPair, type TradeStatus } from './parts.js';
import { amount, count, type OperatingMode } from './values.js';
import { buildXml } from './xml.js';

export interface TradeStatusNotification {
  txId: string;
  status: TradeStatus;
  pair: CurrencyPair;
  /** TradgCcyAmt, as sent with the trade. */
  tradingAmount: Decimal.Value;
  /** CntrValCcyAmt, in QtdCcy. */
  counterValueAmount: Decimal.Value;
  /** Seconds left to act on the trade; 0 once cancelled or expired. */
  ttlSeconds: number;
  mode: OperatingMode;
}

/** TxId, Sts, CcyPair, TradAmts (TradgCcyAmt, CntrValCcyAmt), TTL, OprgMd. */
export function buildTradeStatus(n: TradeStatusNotification): string {
  return buildXml('FXTradStsAndDtlsNtfctn', {
    TxId: n.txId,
    Sts: n.status,
    CcyPair: ccyPair(n.pair),
    TradAmts: { TradgCcyAmt: amount(n.tradingAmount), CntrValCcyAmt: amount(n.counterValueAmount) },
    TTL: count(n.ttlSeconds),
    OprgMd: n.mode,
  });
}
