// A Map that holds at most `max` entries: setting a new key when it is full drops the oldest entry,
// not every one, so the keys in use stay kept. For caches of values worked out from their key alone
// (a parsed header, a price of a minute), where a dropped entry only costs working it out again.
//
// The oldest is the first set (a read costs one lookup, as a Map's does) or, with `recent`, the least
// recently read or set (a read then moves its entry to the newest place: a delete and a set more).

export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  /** `max`: most entries (1 or more); `recent`: the oldest is the least recently read, not the first
   * set; `longestKey`: a text key longer than this is not kept (set does nothing), so a client
   * sending long values cannot fill the map with them. */
  constructor(
    readonly max: number,
    private readonly recent = false,
    private readonly longestKey = Infinity,
  ) {
    if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`BoundedMap holds 1 entry or more, not ${max}`);
  }

  get size(): number {
    return this.map.size;
  }

  /** The value of `key`, or undefined; with `recent`, the entry becomes the newest. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (this.recent && value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Keep `value` under `key`; a new key when full drops the oldest entry first. */
  set(key: K, value: V): this {
    if (typeof key === 'string' && key.length > this.longestKey) return this;
    if (this.map.has(key)) {
      if (this.recent) this.map.delete(key);
    } else if (this.map.size >= this.max) {
      this.map.delete(this.map.keys().next().value as K);
    }
    this.map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  /** The keys, oldest first. */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }
}
