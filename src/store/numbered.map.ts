// A collection's map in memory. Ids of the engine's numbered records (evt_0000000001, job_42) are
// a prefix and a counter: the map learns the prefix and the way the number is written from its first
// id, and keys each id that fits by its number (a small integer, held in the entry itself), writing
// the id again when listed, so no such id is kept as text. An id that does not fit is keyed by its
// text, in the same map: entries of both kinds stay in the order they were added, and nothing is
// moved when the first such id arrives, so an iterator running then (a retention pass, between its
// slices) goes on as a Map's would. It behaves as a Map of text ids, kept in segments
// (SegmentedMap) so that its growth never rebuilds one large table; clear() empties it in place.

import { numberShard, SegmentedMap, textShard } from '../kernel/segmented-map.js';

/** Longest counter kept as a number: 15 digits stay exact in a double. */
const MAX_DIGITS = 15;

const shardOf = (key: number | string): number => (typeof key === 'number' ? numberShard(key) : textShard(key));

export class NumberedMap<V> implements Map<string, V> {
  private prefix: string | undefined;
  /** Digits the number is zero-padded to (0: written as is, no leading zero). */
  private width = 0;
  /** Every entry in the order added: keyed by its number when its id fits, else by the id itself. */
  private readonly map = new SegmentedMap<number | string, V>(shardOf);

  /** The number `id` is written with under this map's prefix and width; undefined when it does not fit. */
  private numberOf(id: string): number | undefined {
    const prefix = this.prefix;
    if (prefix === undefined) return undefined;
    const digits = id.length - prefix.length;
    if (digits < 1 || digits > MAX_DIGITS || !id.startsWith(prefix)) return undefined;
    if (this.width ? digits < this.width : digits > 1 && id.charCodeAt(prefix.length) === 48) return undefined;
    if (this.width && digits > this.width && id.charCodeAt(prefix.length) === 48) return undefined;
    let n = 0;
    for (let i = prefix.length; i < id.length; i++) {
      const c = id.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return undefined;
      n = n * 10 + c;
    }
    return n;
  }

  /** The key `id` is held under: its number when it fits, else its text (one key per id). */
  private keyOf(id: string): number | string {
    return this.numberOf(id) ?? id;
  }

  private idOf(key: number | string): string {
    if (typeof key === 'string') return key;
    const digits = String(key);
    return this.prefix! + (this.width ? digits.padStart(this.width, '0') : digits);
  }

  /** Take the prefix and width from the first id; none when it has no counter to key by. */
  private learn(id: string): void {
    let i = id.length;
    while (i > 0 && id.charCodeAt(i - 1) >= 48 && id.charCodeAt(i - 1) <= 57) i--;
    const digits = id.length - i;
    if (digits < 1 || digits > MAX_DIGITS) {
      this.prefix = undefined;
      return;
    }
    this.prefix = id.slice(0, i);
    this.width = digits > 1 && id.charCodeAt(i) === 48 ? digits : 0;
  }

  get(id: string): V | undefined {
    return this.map.get(this.keyOf(id));
  }

  has(id: string): boolean {
    return this.map.has(this.keyOf(id));
  }

  set(id: string, value: V): this {
    // Empty, it learns its ids again from the next one: no key is held under the old ones.
    if (this.map.size === 0) this.learn(id);
    this.map.set(this.keyOf(id), value);
    return this;
  }

  delete(id: string): boolean {
    return this.map.delete(this.keyOf(id));
  }

  clear(): void {
    this.map.clear();
    this.prefix = undefined;
  }

  get size(): number {
    return this.map.size;
  }

  *keys(): MapIterator<string> {
    for (const key of this.map.keys()) yield this.idOf(key);
  }

  values(): MapIterator<V> {
    return this.map.values();
  }

  *entries(): MapIterator<[string, V]> {
    for (const [key, v] of this.map) yield [this.idOf(key), v];
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, id: string, map: Map<string, V>) => void, self?: unknown): void {
    for (const [id, v] of this.entries()) fn.call(self, v, id, this);
  }

  get [Symbol.toStringTag](): string {
    return 'Map';
  }
}
