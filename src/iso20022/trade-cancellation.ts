// PUT /trades/{id}/cancellation (fxtr.016.001.05). The document shows no request body: an empty body
// is the normal call; an optional FXTradCxlReq may carry a free-text Rsn. The answer is FXTradCxlRspn.
import { BodyReader, rules } from './read.js';
import type { OperatingMode } from './values.js';
import { buildXml, isEmptyBody, parseXml } from './xml.js';
import { requestStructure } from './xsd-reader.js';

export interface TradeCancellationRequest {
  /** Rsn: why the partner cancels, kept for the journal only. */
  reason?: string;
}

const REASON = rules.text(350);

export function parseTradeCancellation(input: string | Uint8Array | undefined | null): TradeCancellationRequest {
  if (isEmptyBody(input)) return {};
  const { body } = parseXml(input as string | Uint8Array, { roots: ['FXTradCxlReq'], structure: requestStructure('FXTradCxlReq') });
  const r = new BodyReader(body);
  const reason = r.optionalText('Rsn', REASON);
  r.finish();
  return reason === undefined ? {} : { reason };
}

export interface TradeCancellationResponse {
  txId: string;
  mode: OperatingMode;
}

/** TxId, Sts (CANC), TTL (0), OprgMd. */
export function buildTradeCancellationResponse(r: TradeCancellationResponse): string {
  return buildXml('FXTradCxlRspn', { TxId: r.txId, Sts: 'CANC', TTL: '0', OprgMd: r.mode });
}
