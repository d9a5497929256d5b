// A collection's map in memory. Ids of the engine's numbered records (evt_0000000001, job_42) are
// a prefix and a counter: while every id of a collection has one prefix and one way of writing its
// number, the map keys entries by the number (a small integer, held in the entry itself) and writes
// the id again when listed, so no id is kept as text. The first id that does not fit turns the map
// into one keyed by text, in the same order. Either way it behaves as a Map of text ids, kept in
// segments (SegmentedMap) so that its growth never rebuilds one large table.

import { numberShard, SegmentedMap, textShard } from '../kernel/segmented-map.js';

/** Longest counter kept as a number: 15 digits stay exact in a double. */
const MAX_DIGITS = 15;

export class NumberedMap<V> implements Map<string, V> {
  private prefix: string | undefined;
  /** Digits the number is zero-padded to (0: written as is, no leading zero). */
  private width = 0;
  private byNumber: Map<number, V> | undefined = new SegmentedMap<number, V>(numberShard);
  private byText: Map<string, V> | undefined;

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

  private idOf(n: number): string {
    const digits = String(n);
    return this.prefix! + (this.width ? digits.padStart(this.width, '0') : digits);
  }

  /** Take the prefix and width from the first id; false when it has no counter to key by. */
  private learn(id: string): boolean {
    let i = id.length;
    while (i > 0 && id.charCodeAt(i - 1) >= 48 && id.charCodeAt(i - 1) <= 57) i--;
    const digits = id.length - i;
    if (digits < 1 || digits > MAX_DIGITS) return false;
    this.prefix = id.slice(0, i);
    this.width = digits > 1 && id.charCodeAt(i) === 48 ? digits : 0;
    return true;
  }

  /** From here on keyed by text, in the order the entries were added. */
  private toText(): Map<string, V> {
    const text = new SegmentedMap<string, V>(textShard);
    for (const [n, v] of this.byNumber!) text.set(this.idOf(n), v);
    this.byNumber = undefined;
    this.byText = text;
    return text;
  }

  get(id: string): V | undefined {
    if (this.byText) return this.byText.get(id);
    const n = this.numberOf(id);
    return n === undefined ? undefined : this.byNumber!.get(n);
  }

  has(id: string): boolean {
    if (this.byText) return this.byText.has(id);
    const n = this.numberOf(id);
    return n !== undefined && this.byNumber!.has(n);
  }

  set(id: string, value: V): this {
    if (this.byText) {
      this.byText.set(id, value);
      return this;
    }
    if (this.byNumber!.size === 0 && !this.learn(id)) {
      this.toText().set(id, value);
      return this;
    }
    const n = this.numberOf(id);
    if (n === undefined) this.toText().set(id, value);
    else this.byNumber!.set(n, value);
    return this;
  }

  delete(id: string): boolean {
    if (this.byText) return this.byText.delete(id);
    const n = this.numberOf(id);
    return n !== undefined && this.byNumber!.delete(n);
  }

  clear(): void {
    // Empty, it learns its ids again from the next one.
    this.byText = undefined;
    this.byNumber = new SegmentedMap<number, V>(numberShard);
    this.prefix = undefined;
  }

  get size(): number {
    return (this.byText ?? this.byNumber!).size;
  }

  *keys(): MapIterator<string> {
    if (this.byText) return yield* this.byText.keys();
    for (const n of this.byNumber!.keys()) yield this.idOf(n);
  }

  values(): MapIterator<V> {
    return (this.byText ?? this.byNumber!).values();
  }

  *entries(): MapIterator<[string, V]> {
    if (this.byText) return yield* this.byText.entries();
    for (const [n, v] of this.byNumber!) yield [this.idOf(n), v];
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
