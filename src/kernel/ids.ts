// Reference formats used across the API, drawn from a tenant's seeded randomness.
import type { TenantRandom } from './random.js';

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
