// Ids derived from text: the same text, the same id. A resource's own reference formats (HPR-TRSF-…,
// TRF-…) live in its domain, drawn from the tenant's seeded randomness (random.ts).
import { hash } from 'node:crypto';

/** A version-4-shaped uuid derived from text (its SHA-256): the same text gives the same id. */
export function derivedUuid(text: string): string {
  const h = hash('sha256', text, 'hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
