import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.js';

describe('BoundedMap', () => {
  it('drops the first set entry when a new key comes to a full map, and only that one', () => {
    const m = new BoundedMap<string, number>(3);
    m.set('a', 1).set('b', 2).set('c', 3);
    expect(m.get('a')).toBe(1);
    m.set('d', 4);
    expect([...m.keys()]).toEqual(['b', 'c', 'd']);
    expect([m.get('a'), m.get('b'), m.get('d'), m.size]).toEqual([undefined, 2, 4, 3]);
  });

  it('replaces the value of a key it holds without dropping anything, in its place', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('a', 10);
    expect([...m.keys()]).toEqual(['a', 'b']);
    expect(m.get('a')).toBe(10);
    m.set('c', 3);
    expect([...m.keys()]).toEqual(['b', 'c']);
  });

  it('with recent, keeps what is read: the least recently read or set goes', () => {
    const m = new BoundedMap<string, number>(3, true);
    m.set('a', 1).set('b', 2).set('c', 3);
    expect(m.get('a')).toBe(1);
    m.set('d', 4);
    expect([...m.keys()]).toEqual(['c', 'a', 'd']);
    m.set('c', 30);
    m.set('e', 5);
    expect([...m.keys()]).toEqual(['d', 'c', 'e']);
    expect(m.has('a')).toBe(false);
  });

  it('keeps null values (a header found to be no media type) and tells them from a missing key', () => {
    const m = new BoundedMap<string, number | null>(2, true);
    m.set('x', null);
    expect([m.get('x'), m.get('y'), m.has('x')]).toEqual([null, undefined, true]);
  });

  it('never holds more than its bound however many keys pass, and forgets on delete and clear', () => {
    const m = new BoundedMap<number, number>(64);
    for (let i = 0; i < 10_000; i++) m.set(i, i * 2);
    expect(m.size).toBe(64);
    expect([...m.keys()][0]).toBe(10_000 - 64);
    expect(m.delete(9_999)).toBe(true);
    expect(m.size).toBe(63);
    m.clear();
    expect(m.size).toBe(0);
    expect(() => new BoundedMap(0)).toThrow('BoundedMap holds 1 entry or more, not 0');
  });

  it('keeps no text key longer than its longest, and sets the others as before', () => {
    const m = new BoundedMap<string, number>(3, false, 4);
    m.set('abcd', 1).set('abcde', 2);
    expect([...m.keys()]).toEqual(['abcd']);
    expect([m.get('abcde'), m.size]).toEqual([undefined, 1]);
  });
});
