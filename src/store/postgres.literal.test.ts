import { describe, expect, it } from 'vitest';
import { int, lastResults, text } from './postgres.literal.js';

describe('SQL literals of a session', () => {
  it('doubles quotes, and writes a string with backslashes as an escape string with them doubled', () => {
    expect(text('plain')).toBe("'plain'");
    expect(text("it's")).toBe("'it''s'");
    expect(text("a\\'b")).toBe("E'a\\\\''b'");
    expect(text('')).toBe("''");
  });

  it('refuses a NUL character, which PostgreSQL text cannot hold', () => {
    expect(() => text('a\0b')).toThrow('NUL character');
  });

  it('writes whole numbers, NULL for null, and refuses what is not a number', () => {
    expect(int(1_700_000_000_123)).toBe('1700000000123');
    expect(int(null)).toBe('NULL');
    expect(int(-3)).toBe('-3');
    expect(() => int(Number.NaN)).toThrow('bigint');
  });

  it('picks the last result sets of a reply, one result or several', () => {
    const one = Object.assign([{ a: 1 }], { command: 'SELECT' });
    expect(lastResults(one, 1)).toEqual([one]);
    expect(lastResults([[], [{ a: 1 }], []], 2)).toEqual([[{ a: 1 }], []]);
    expect(lastResults([], 1)).toEqual([[]]);
  });
});
