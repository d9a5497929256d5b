// The XML error answer of the FX interface, modelled on ISO 20022 admi.002.001.01 MessageReject:
// RltdRef/Ref and Rsn (RjctgPtyRsn, RjctnDtTm, ErrLctn, RsnDesc, AddtlData) in ISO's order, then
// our ErrTp and OprgMd. It carries the same code, text and details as the JSON envelope.
import type { SandboxError } from '../kernel/errors.js';
import { dateTime, type OperatingMode } from './values.js';
import { buildXml } from './xml.js';

export interface RejectContext {
  /** What is rejected: the request id, or the method and path when there is none. */
  ref: string;
  /** When it was rejected (the tenant's clock). */
  at: Date | string | number;
  /** Omitted when the failure came before the key was known (e.g. a missing Authorization). */
  mode?: OperatingMode;
}

// ISO 20022 lengths: RsnDesc and ErrLctn are Max350Text; AddtlData is Max20000Text. Ref is wider
// than ISO's 35 so a path always fits.
const LIMITS = { ref: 256, desc: 350, location: 350, data: 20000 };

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function buildReject(err: SandboxError, ctx: RejectContext): string {
  const details = err.details;
  return buildXml('MsgRjct', {
    RltdRef: { Ref: clip(ctx.ref || '-', LIMITS.ref) },
    Rsn: {
      RjctgPtyRsn: err.code,
      RjctnDtTm: dateTime(ctx.at),
      ErrLctn: details.length ? clip(details.map((d) => d.field).join(', '), LIMITS.location) : undefined,
      // A message written for the JSON envelope points at error.details; here the list is AddtlData.
      RsnDesc: clip((err.message || err.code).replaceAll('listed in error.details', 'listed in AddtlData'), LIMITS.desc),
      AddtlData: details.length
        ? clip(details.map((d) => `${d.field}: ${d.issue}`).join('; '), LIMITS.data)
        : undefined,
    },
    ErrTp: err.type,
    OprgMd: ctx.mode,
  });
}
