// Seeded randomness per tenant: the same seed, tenant and requests give the same ids and names.
import { createHash, randomInt } from 'node:crypto';
import { Faker, en } from '@faker-js/faker';

export class TenantRandom {
  readonly faker: Faker;

  constructor(seed: number) {
    this.faker = new Faker({ locale: [en] });
    this.faker.seed(seed);
  }

  uuid(): string {
    return this.faker.string.uuid();
  }

  hex(length: number, casing: 'lower' | 'upper' = 'lower'): string {
    return this.faker.string.hexadecimal({ length, casing, prefix: '' });
  }

  digits(length: number): string {
    return this.faker.string.numeric({ length, allowLeadingZeros: true });
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.faker.number.float({ min: 0, max: 1 }) * (max - min);
  }

  int(min: number, max: number): number {
    return this.faker.number.int({ min, max });
  }
}

/** A tenant's seed: derived from the global seed and the tenant, or random when none is set. */
export function tenantSeed(globalSeed: number | undefined, tenantId: string): number {
  if (globalSeed === undefined) return randomInt(0, 2 ** 31 - 1);
  const h = createHash('sha256').update(`${globalSeed}:${tenantId}`).digest();
  return h.readUInt32BE(0) & 0x7fffffff;
}
