import { describe, expect, it } from 'vitest';
import { TenantRandom, tenantSeed } from './random.js';

describe('TenantRandom', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const a = new TenantRandom(42);
    const b = new TenantRandom(42);
    const c = new TenantRandom(43);
    const seqA = [a.uuid(), a.hex(24), a.digits(6)];
    expect([b.uuid(), b.hex(24), b.digits(6)]).toEqual(seqA);
    expect(c.uuid()).not.toBe(seqA[0]);
  });

  it('draws well-formed ids and numbers in range', () => {
    const r = new TenantRandom(7);
    for (let i = 0; i < 500; i++) {
      expect(r.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(r.hex(64)).toMatch(/^[0-9a-f]{64}$/);
      expect(r.hex(5, 'upper')).toMatch(/^[0-9A-F]{5}$/);
      expect(r.digits(6)).toMatch(/^\d{6}$/);
      const n = r.int(3, 5);
      expect(n >= 3 && n <= 5 && Number.isInteger(n)).toBe(true);
      const f = r.float(1, 2);
      expect(f >= 1 && f < 2).toBe(true);
    }
  });

  it('draws a uuid as the 32 hex digits of hex(32) with the version and variant set', () => {
    const ids = new TenantRandom(42);
    const digits = new TenantRandom(42);
    for (let i = 0; i < 2000; i++) {
      const h = digits.hex(32);
      const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
      expect(ids.uuid()).toBe(`${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`);
    }
  });

  it('spreads digits evenly enough', () => {
    const r = new TenantRandom(1);
    const counts = Array(10).fill(0);
    for (const ch of r.digits(20_000)) counts[Number(ch)]++;
    for (const c of counts) expect(c).toBeGreaterThan(1700);
  });

  it('derives a fixed tenant seed from the global seed', () => {
    expect(tenantSeed(5, 'abc')).toBe(tenantSeed(5, 'abc'));
    expect(tenantSeed(5, 'abc')).not.toBe(tenantSeed(6, 'abc'));
  });
});
