// POST /trades/{id}/confirmation (fxtr.037.001.02). The document shows no request body: an empty body
// is the normal call; an optional FXTradConfReq may carry free-text Rmrks. The answer is
// FXTradConfStsAdvc with status COMP and the pay-in details.
import { settlementInstruction, type PayInDetails } from './parts.js';
import { BodyReader, rules } from './read.js';
import type { OperatingMode } from './values.js';
import { buildXml, isEmptyBody, parseXml } from './xml.js';
import { requestStructure } from './xsd-reader.js';

export interface TradeConfirmationRequest {
  /** Rmrks: a note from the partner, kept for the journal only. */
  remarks?: string;
}

const REMARKS = rules.text(350);

export function parseTradeConfirmation(input: string | Uint8Array | undefined | null): TradeConfirmationRequest {
  if (isEmptyBody(input)) return {};
  const { body } = parseXml(input as string | Uint8Array, { roots: ['FXTradConfReq'], structure: requestStructure('FXTradConfReq') });
  const r = new BodyReader(body);
  const remarks = r.optionalText('Rmrks', REMARKS);
  r.finish();
  return remarks === undefined ? {} : { remarks };
}

export interface TradeConfirmationResponse {
  txId: string;
  payIn: PayInDetails;
  mode: OperatingMode;
}

/** TxId, Sts (COMP), SttlmInstr/BkPayInDtls, OprgMd. */
export function buildTradeConfirmationResponse(r: TradeConfirmationResponse): string {
  return buildXml('FXTradConfStsAdvc', {
    TxId: r.txId,
    Sts: 'COMP',
    SttlmInstr: settlementInstruction(r.payIn),
    OprgMd: r.mode,
  });
}
