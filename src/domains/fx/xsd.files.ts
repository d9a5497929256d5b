// The published XSDs by the names /xsd/ serves them under: a message root, or an ISO 20022 message
// id that names one message. The files themselves are read (once) by iso20022/xsd-names.ts.
import { isXsdName, XSD_NAMES, xsdText, type XsdName } from '../../iso20022/xsd-names.js';

/**
 * ISO 20022 message ids that name exactly one message of the interface, served under the id too.
 * fxtr.014.001.05 names four (the trade instruction, its response, the accept request and the maker
 * rate), so it has no alias: those are served by root name only.
 */
export const XSD_ALIASES: Record<string, XsdName> = {
  'fxtr.016.001.05': 'FXTradCxlRspn',
  'fxtr.017.001.05': 'FXTradStsAndDtlsNtfctn',
  'fxtr.037.001.02': 'FXTradConfStsAdvc',
  'reda.041.001.01': 'FndPrcgPsptRpt',
};

/** The text of xsd/<root>.xsd (or of the message an ISO id names), or undefined when none fits. */
export function servedXsd(file: string): string | undefined {
  const name = file.endsWith('.xsd') ? file.slice(0, -4) : undefined;
  const root = name !== undefined && Object.hasOwn(XSD_ALIASES, name) ? XSD_ALIASES[name] : name;
  return root && isXsdName(root) ? xsdText(root) : undefined;
}

/** The message roots /xsd/ serves a file for (FXTradInstr: /xsd/FXTradInstr.xsd). */
export const XSD_ROOTS: readonly string[] = Object.keys(XSD_NAMES);

/** Every file /xsd/ serves: each message root's, then the ISO 20022 ids that name one message. */
export const SERVED_XSD_FILES: readonly string[] = [...Object.values(XSD_NAMES), ...Object.keys(XSD_ALIASES).map((id) => `${id}.xsd`)];

/** A served file whose name differs from `file` only in case, or by a missing .xsd. */
export function nearXsd(file: string): string | undefined {
  const wanted = file.toLowerCase();
  return SERVED_XSD_FILES.find((f) => f.toLowerCase() === wanted || f.toLowerCase() === `${wanted}.xsd`);
}
