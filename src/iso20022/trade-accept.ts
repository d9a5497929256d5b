// POST /trades/{id}/accept (fxtr.014.001.05): FXTradAccptReq names where the bought currency goes,
// in exactly one of three forms; the answer is an FXTradInstrRspn with status SETT and pay-in details.
import { ccyPair, settlementInstruction, type CurrencyPair, type PayInDetails } from './parts.js';
import { BodyReader, rules } from './read.js';
import { tradeAmounts, type TradeAmounts } from './trade-instruction.js';
import type { OperatingMode } from './values.js';
import { buildXml, parseXml } from './xml.js';
import { requestStructure } from './xsd-reader.js';

export type SettlementDestination =
  | { kind: 'bank'; accountName: string; accountNumber: string; bankCode: string }
  | { kind: 'account'; accountId: string }
  | { kind: 'blockchain'; address: string };

const FORMS = [
  { kind: 'bank', path: 'SttlmDstn/BkDstn' },
  { kind: 'account', path: 'AcctId' },
  { kind: 'blockchain', path: 'SttlmDstn/BlkChnDstn' },
] as const;

const BANK = { name: rules.text(200), number: rules.text(34), code: rules.text(20) };

export function parseTradeAccept(input: string | Uint8Array): SettlementDestination {
  // The structure check holds the message to its XSD's choices: exactly one of the three forms.
  const { body } = parseXml(input, { roots: ['FXTradAccptReq'], structure: requestStructure('FXTradAccptReq') });
  const r = new BodyReader(body);
  const form = FORMS.find((f) => r.has(f.path))!;
  const dest = read(r, form.kind);
  r.finish();
  return dest;
}

function read(r: BodyReader, kind: SettlementDestination['kind']): SettlementDestination {
  switch (kind) {
    case 'bank':
      return {
        kind,
        accountName: r.text('SttlmDstn/BkDstn/AcctNm', BANK.name),
        accountNumber: r.text('SttlmDstn/BkDstn/AcctNb', BANK.number),
        bankCode: r.text('SttlmDstn/BkDstn/BkCd', BANK.code),
      };
    case 'account':
      return { kind, accountId: r.text('AcctId', rules.uuid) };
    case 'blockchain':
      return { kind, address: r.text('SttlmDstn/BlkChnDstn/Adr', rules.evmAddress) };
  }
}

export interface TradeAcceptResponse {
  txId: string;
  pair: CurrencyPair;
  amounts: TradeAmounts;
  payIn: PayInDetails;
  mode: OperatingMode;
}

/** FXTradInstrRspn for an accepted trade: UnqTxIdr, TradSts (SETT), CcyPair, TradAmts, SttlmInstr, OprgMd. */
export function buildTradeAcceptResponse(r: TradeAcceptResponse): string {
  return buildXml('FXTradInstrRspn', {
    UnqTxIdr: { TxId: r.txId },
    TradSts: { Sts: 'SETT' },
    CcyPair: ccyPair(r.pair),
    TradAmts: tradeAmounts(r.amounts),
    SttlmInstr: settlementInstruction(r.payIn),
    OprgMd: r.mode,
  });
}
