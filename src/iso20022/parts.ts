// Element groups shared by several FX messages, written in the order their XSDs fix.
import type { XmlContent } from './xml.js';

export type TradeStatus = 'NEWT' | 'SETT' | 'COMP' | 'CANC';

export interface CurrencyPair {
  /** Source currency (BaseCcy): what the partner pays. */
  baseCcy: string;
  /** Destination currency (QtdCcy). */
  quotedCcy: string;
}

/** Where the partner pays in: SttlmInstr/BkPayInDtls. */
export interface PayInDetails {
  accountName: string;
  accountNumber: string;
  bankName: string;
  reference: string;
}

export const ccyPair = (p: CurrencyPair): XmlContent => ({ BaseCcy: p.baseCcy, QtdCcy: p.quotedCcy });

export const settlementInstruction = (d: PayInDetails): XmlContent => ({
  BkPayInDtls: { AcctNm: d.accountName, AcctNb: d.accountNumber, BkNm: d.bankName, Ref: d.reference },
});
