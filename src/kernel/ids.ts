// Reference formats used across the API, drawn from a tenant's seeded randomness, and ids derived
// from text (the same text, the same id).
import { createHash } from 'node:crypto';
import type { TenantRandom } from './random.js';

/** A version-4-shaped uuid derived from text (its SHA-256): the same text gives the same id. */
export function derivedUuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const ids = {
  uuid: (r: TenantRandom) => r.uuid(),
  /** The service's own payout reference: HPR-TRSF- plus hex. */
  payoutReference: (r: TenantRandom) => `HPR-TRSF-${r.hex(24, 'upper')}`,
  /** Bank withdrawal reference: TRF- plus 32 hex. */
  withdrawalReference: (r: TenantRandom) => `TRF-${r.hex(32, 'upper')}`,
  /** Blockchain transaction hash: 0x plus 64 hex. */
  transactionHash: (r: TenantRandom) => `0x${r.hex(64)}`,
  /** Order reference of webhook payloads: HPR- plus 32 hex. */
  orderReference: (r: TenantRandom) => `HPR-${r.hex(32)}`,
  /** Payment-specific quote reference: HR-REF- plus 6 digits. */
  hyperRailReference: (r: TenantRandom) => `HR-REF-${r.digits(6)}`,
};
