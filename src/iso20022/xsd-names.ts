// The XSD published for each FX message root, served as /xsd/{name}.xsd from the xsd/ folder, where
// that folder is, and each file's text, read once: the requests' structures (xsd-reader.ts), the
// /xsd/ route and drifted FX answers all read it from here.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const XSD_NAMES = {
  FXTradInstr: 'FXTradInstr.xsd',
  FXTradInstrRspn: 'FXTradInstrRspn.xsd',
  FXTradAccptReq: 'FXTradAccptReq.xsd',
  FXTradStsAndDtlsNtfctn: 'FXTradStsAndDtlsNtfctn.xsd',
  FXTradCxlReq: 'FXTradCxlReq.xsd',
  FXTradCxlRspn: 'FXTradCxlRspn.xsd',
  FXTradConfReq: 'FXTradConfReq.xsd',
  FXTradConfStsAdvc: 'FXTradConfStsAdvc.xsd',
  FndPrcgPsptRpt: 'FndPrcgPsptRpt.xsd',
  FxTradStsAndDtls: 'FxTradStsAndDtls.xsd',
  MsgRjct: 'MsgRjct.xsd',
} as const;

export type XsdName = keyof typeof XSD_NAMES;

export const isXsdName = (name: string): name is XsdName => Object.hasOwn(XSD_NAMES, name);

let dir: string | undefined;

/**
 * The repository's xsd/ folder (with a trailing slash), found once from src/iso20022/ (tests), from
 * dist/ (the built server, whose image copies xsd/ beside it) or from a bundle one folder below
 * dist/ (the bench's).
 */
export function xsdDir(): string {
  if (dir) return dir;
  for (const rel of ['../xsd/', '../../xsd/']) {
    const candidate = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${candidate}${XSD_NAMES.MsgRjct}`)) return (dir = candidate);
  }
  throw new Error('The xsd/ directory was not found next to the server; reinstall the package.');
}

const texts = new Map<XsdName, string>();

/** The text of xsd/<root>.xsd, read on first use and kept. */
export function xsdText(root: XsdName): string {
  let text = texts.get(root);
  if (text === undefined) texts.set(root, (text = readFileSync(xsdDir() + XSD_NAMES[root], 'utf8')));
  return text;
}
