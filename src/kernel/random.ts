// Seeded randomness per tenant: the same seed, tenant and requests give the same ids and numbers.
// sfc32 (a small, fast, well-studied 32-bit generator) seeded through splitmix32: ids are drawn on
// every create, so this stays cheap, and it loads nothing at start.
import { createHash, randomInt } from 'node:crypto';

const HEX = '0123456789abcdef';
/** Two hex digits per byte value: ids are drawn on every create. */
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const BYTE_HEX_UPPER = BYTE_HEX.map((h) => h.toUpperCase());

export class TenantRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = this.b = this.c = this.d = 0;
    this.reseed(seed);
  }

  /** Start the stream again from a seed: the same seed gives the same stream. */
  reseed(seed: number): void {
    let s = seed >>> 0;
    const split = () => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = split();
    this.b = split();
    this.c = split();
    this.d = split();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  unit(): number {
    return this.next() / 4294967296;
  }

  /** A version 4 UUID: the 32 hex digits of hex(32) with the version and variant set, written from
   * four draws without an intermediate string (ids are drawn on every create). */
  uuid(): string {
    const a = this.next();
    const b = this.next();
    const c = this.next();
    const d = this.next();
    const t = BYTE_HEX;
    return (
      t[a >>> 24] + t[(a >>> 16) & 0xff] + t[(a >>> 8) & 0xff] + t[a & 0xff] + '-' +
      t[b >>> 24] + t[(b >>> 16) & 0xff] + '-4' + HEX[(b >>> 8) & 0xf] + t[b & 0xff] + '-' +
      HEX[((c >>> 28) & 0x3) | 0x8] + HEX[(c >>> 24) & 0xf] + t[(c >>> 16) & 0xff] + '-' +
      t[(c >>> 8) & 0xff] + t[c & 0xff] + t[d >>> 24] + t[(d >>> 16) & 0xff] + t[(d >>> 8) & 0xff] + t[d & 0xff]
    );
  }

  hex(length: number, casing: 'lower' | 'upper' = 'lower'): string {
    const table = casing === 'upper' ? BYTE_HEX_UPPER : BYTE_HEX;
    let out = '';
    while (out.length < length) {
      const n = this.next();
      out += table[n >>> 24] + table[(n >>> 16) & 0xff] + table[(n >>> 8) & 0xff] + table[n & 0xff];
    }
    return out.length === length ? out : out.slice(0, length);
  }

  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String(this.next() % 10);
    return out;
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.unit() * (max - min);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.unit() * (max - min + 1));
  }
}

/** A tenant's seed: derived from the global seed and the tenant, or random when none is set. */
export function tenantSeed(globalSeed: number | undefined, tenantId: string): number {
  if (globalSeed === undefined) return randomInt(0, 2 ** 31 - 1);
  const h = createHash('sha256').update(`${globalSeed}:${tenantId}`).digest();
  return h.readUInt32BE(0) & 0x7fffffff;
}
