// A Map for collections that grow large, whose growth never holds the event loop for long.
//
// A JavaScript Map grows by building its table anew at twice the size, all at once: at 65,536
// entries that takes about 3 ms, at a million about 70 ms, and a tenant's records, jobs and
// idempotency records all cross the same size on the same request. This map keeps its entries in
// segments of at most SEGMENT entries, in the order they were added, so no table is rebuilt
// larger than a segment's; past the first segment, which segment holds a key is found in one of
// SHARDS maps chosen by the key's hash, each a SHARDS-th of the whole. Up to SEGMENT entries it
// is one plain Map and costs nothing more.
//
// It behaves as a Map: iteration is in insertion order (a key deleted and set again goes last, a
// key set again keeps its place), an iterator sees what is added while it runs and not what is
// deleted, and clear() empties it in place: an iterator still in the first segment goes on with
// what is added after, as a Map's does, one past it ends.

/** Entries a segment holds before the next one opens: its table is rebuilt in well under 1 ms. */
export const SEGMENT = 8192;
/** Maps the segment-of-key index is split into (a power of two). */
const SHARDS = 64;

/** Drawn once per process: which keys share a shard cannot be chosen by a client sending ids. */
const SEED = (Math.random() * 2 ** 32) | 0;

/** A shard for a text key: a hash of all its characters. */
export const textShard = (key: string): number => {
  let h = SEED ^ key.length;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return (h ^ (h >>> 11) ^ (h >>> 22)) & (SHARDS - 1);
};

/** A shard for a whole-number key (a counter spreads evenly; any number gives a shard). */
export const numberShard = (key: number): number => (key >>> 0) & (SHARDS - 1);

export class SegmentedMap<K, V> implements Map<K, V> {
  /** Segments in insertion order; the last takes new keys. One that empties (not the last) is left
   * empty, so a running iterator's position stays right. */
  private readonly segments: Map<K, V>[] = [new Map()];
  /** Past the first segment: the segment number of each key, split by shard. */
  private where: Map<K, number>[] | undefined;
  private count = 0;

  /** `shardOf`: textShard or numberShard; `segment`: entries per segment (SEGMENT but in tests). */
  constructor(
    private readonly shardOf: (key: K) => number,
    private readonly segment = SEGMENT,
  ) {}

  private segmentOf(key: K): number | undefined {
    return this.where![this.shardOf(key)]!.get(key);
  }

  get(key: K): V | undefined {
    if (this.where === undefined) return this.segments[0]!.get(key);
    const n = this.segmentOf(key);
    return n === undefined ? undefined : this.segments[n]!.get(key);
  }

  has(key: K): boolean {
    return this.where === undefined ? this.segments[0]!.has(key) : this.segmentOf(key) !== undefined;
  }

  set(key: K, value: V): this {
    const where = this.where ?? (this.segments[0]!.size < this.segment || this.segments[0]!.has(key) ? undefined : this.spread());
    if (where === undefined) {
      this.segments[0]!.set(key, value);
      return this;
    }
    const shard = where[this.shardOf(key)]!;
    const n = shard.get(key);
    if (n !== undefined) {
      this.segments[n]!.set(key, value);
      return this;
    }
    let last = this.segments.length - 1;
    if (this.segments[last]!.size >= this.segment) this.segments.push(new Map()), last++;
    this.segments[last]!.set(key, value);
    shard.set(key, last);
    this.count++;
    return this;
  }

  /** The first segment is full: index its keys, so the next key can go to a new segment. */
  private spread(): Map<K, number>[] {
    const where = Array.from({ length: SHARDS }, () => new Map<K, number>());
    for (const key of this.segments[0]!.keys()) where[this.shardOf(key)]!.set(key, 0);
    this.count = this.segments[0]!.size;
    return (this.where = where);
  }

  delete(key: K): boolean {
    if (this.where === undefined) return this.segments[0]!.delete(key);
    const shard = this.where[this.shardOf(key)]!;
    const n = shard.get(key);
    if (n === undefined) return false;
    shard.delete(key);
    this.segments[n]!.delete(key);
    this.count--;
    return true;
  }

  clear(): void {
    // In place: an iterator in the first segment goes on with what is added next, as a Map's does.
    for (const segment of this.segments) segment.clear();
    this.segments.length = 1;
    this.where = undefined;
    this.count = 0;
  }

  get size(): number {
    return this.where === undefined ? this.segments[0]!.size : this.count;
  }

  /** Each segment's iterator in turn, by index read again each time: a segment opened while
   * iterating is reached too. */
  private *each<T>(of: (segment: Map<K, V>) => IterableIterator<T>): MapIterator<T> {
    for (let i = 0; i < this.segments.length; i++) yield* of(this.segments[i]!);
  }

  entries(): MapIterator<[K, V]> {
    return this.each((s) => s.entries());
  }

  keys(): MapIterator<K> {
    return this.each((s) => s.keys());
  }

  values(): MapIterator<V> {
    return this.each((s) => s.values());
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: K, map: Map<K, V>) => void, self?: unknown): void {
    for (const [key, value] of this.entries()) fn.call(self, value, key, this);
  }

  get [Symbol.toStringTag](): string {
    return 'Map';
  }
}
