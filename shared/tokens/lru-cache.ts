/**
 * A bounded least-recently-used cache: a `Map` from key to slot, and the recency order as a
 * doubly linked list over typed arrays of slot numbers.
 *
 * Why not the usual `Map`-only LRU (delete and re-insert on every hit, evict `keys().next()`):
 * V8 leaves a hole for every deleted `Map` entry until the table is rehashed, and a fresh
 * iterator walks the holes from the start. With a full cache and a hit-heavy load the holes pile
 * up at the front, and each eviction cost ≈ 20 µs at 50,000 entries (issue 13's soak profile had
 * `get`/`set` at 36–70 % of the service's CPU). Here the `Map` is only looked up, inserted into
 * on a miss and deleted from on an eviction; order changes are a few array writes. Every
 * operation is O(1), and the policy is exact LRU.
 *
 * Optionally the cache is also bounded by weight (`maxWeight`, each entry weighed once when set):
 * least recently used entries go until the new one fits. An entry count alone bounds memory only
 * by count × the largest entry; the tokenizer's texts run from 2 to 1,000 characters, and on a
 * crawl of pages whose every link is new (the frontier bench's site) 50,000 entries held 23 MB
 * of heap that were never hit again. Eviction by weight may free several slots at once, so freed
 * slots are kept on a free list and reused before new ones.
 * The tokenizer needs no more than this (no TTL), so no library is pulled in.
 */
const NONE = -1;

export interface LruWeightOptions<K, V> {
  /** Most total weight kept. An entry heavier than this on its own is not kept at all. */
  maxWeight: number;
  /** An entry's weight (any unit, ≥ 0; `maxWeight` is in the same unit), computed once when set. */
  weigh: (key: K, value: V) => number;
}

export class LruCache<K, V> {
  readonly #capacity: number;
  readonly #slotOf = new Map<K, number>();
  readonly #keys: (K | undefined)[] = [];
  readonly #values: (V | undefined)[] = [];
  /** Neighbours in recency order: `#newer[s]` is used more recently than `s`. */
  #newer: Int32Array;
  #older: Int32Array;
  #newest = NONE;
  #oldest = NONE;
  /** Slots never used yet start here; slots freed by eviction or `delete` wait in `#free`. */
  #unused = 0;
  readonly #free: number[] = [];
  readonly #weight: LruWeightOptions<K, V> | undefined;
  /** Each slot's weight, when the cache is bounded by weight. */
  #weights: Float64Array;
  #totalWeight = 0;
  /**
   * The key `get` last missed, while nothing changed since: the usual miss is followed by a `set`
   * of the same key (the tokenizer's texts and runs, the template links), which then skips a
   * second lookup of a key it knows is absent. A hash lookup in a table of thousands of entries
   * costs cache misses; comparing the two keys, both just read, costs none.
   */
  #missed: K | undefined;
  #hasMissed = false;

  /**
   * @param capacity Most entries kept; 0 keeps nothing. A non-negative integer.
   * @param weight Also keep the entries' total weight at most `maxWeight`. Default: no such bound.
   */
  constructor(capacity: number, weight?: LruWeightOptions<K, V>) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`LRU capacity must be a non-negative integer, got ${capacity}`);
    }
    if (weight !== undefined && !(weight.maxWeight >= 0)) {
      throw new RangeError(`LRU maxWeight must be a non-negative number, got ${weight.maxWeight}`);
    }
    this.#capacity = capacity;
    this.#weight = weight;
    // The links grow with the entries, so a large capacity costs nothing until it is used.
    this.#newer = new Int32Array(Math.min(capacity, 1024));
    this.#older = new Int32Array(Math.min(capacity, 1024));
    this.#weights = new Float64Array(weight === undefined ? 0 : Math.min(capacity, 1024));
  }

  get capacity(): number {
    return this.#capacity;
  }

  get size(): number {
    return this.#slotOf.size;
  }

  /** The entries' total weight (0 when the cache is not bounded by weight). */
  get weight(): number {
    return this.#totalWeight;
  }

  /** The cached value, marked as most recently used; `undefined` on a miss. */
  get(key: K): V | undefined {
    const slot = this.#slotOf.get(key);
    if (slot === undefined) {
      this.#missed = key;
      this.#hasMissed = true;
      return undefined;
    }
    this.#touch(slot);
    return this.#values[slot];
  }

  /** The cached value, its place in the order left as it is; `undefined` on a miss. */
  peek(key: K): V | undefined {
    const slot = this.#slotOf.get(key);
    return slot === undefined ? undefined : this.#values[slot];
  }

  has(key: K): boolean {
    return this.#slotOf.has(key);
  }

  /** Stores `value` as the most recently used entry, evicting the least recently used one. */
  set(key: K, value: V): void {
    const absent = this.#hasMissed && this.#missed === key;
    this.#forgetMiss();
    if (this.#capacity === 0) return;
    const weight = this.#weight === undefined ? 0 : this.#weight.weigh(key, value);
    if (this.#weight !== undefined && weight > this.#weight.maxWeight) {
      this.delete(key); // too heavy to keep: an older value must not stay in its place
      return;
    }
    let slot = absent ? undefined : this.#slotOf.get(key);
    if (slot !== undefined) {
      this.#values[slot] = value;
      this.#touch(slot);
    } else {
      if (this.#slotOf.size === this.#capacity) this.#evict(this.#oldest);
      slot = this.#free.pop() ?? this.#unused++;
      if (slot === this.#newer.length) this.#grow();
      this.#slotOf.set(key, slot);
      this.#keys[slot] = key;
      this.#values[slot] = value;
      this.#linkNewest(slot);
    }
    if (this.#weight === undefined) return;
    this.#totalWeight += weight - this.#weights[slot]!;
    this.#weights[slot] = weight;
    // The new entry is the newest and fits on its own, so this stops before reaching it.
    while (this.#totalWeight > this.#weight.maxWeight) this.#evict(this.#oldest);
  }

  /** Removes `key`'s entry; whether there was one. */
  delete(key: K): boolean {
    this.#forgetMiss();
    const slot = this.#slotOf.get(key);
    if (slot === undefined) return false;
    this.#evict(slot);
    return true;
  }

  clear(): void {
    this.#forgetMiss();
    this.#slotOf.clear();
    this.#keys.length = 0;
    this.#values.length = 0;
    this.#free.length = 0;
    this.#unused = 0;
    this.#totalWeight = 0;
    this.#weights.fill(0); // a slot's weight is read back when it is set again
    this.#newest = NONE;
    this.#oldest = NONE;
  }

  /** Frees `slot`: its key and value are let go (not left for the slot's next user to overwrite). */
  #evict(slot: number): void {
    this.#slotOf.delete(this.#keys[slot] as K);
    this.#unlink(slot);
    this.#keys[slot] = undefined;
    this.#values[slot] = undefined;
    if (this.#weight !== undefined) {
      this.#totalWeight -= this.#weights[slot]!;
      this.#weights[slot] = 0;
    }
    this.#free.push(slot);
  }

  #forgetMiss(): void {
    this.#hasMissed = false;
    this.#missed = undefined; // not kept alive by the cache
  }

  #grow(): void {
    const length = Math.min(this.#capacity, this.#newer.length * 2);
    const newer = new Int32Array(length);
    const older = new Int32Array(length);
    newer.set(this.#newer);
    older.set(this.#older);
    this.#newer = newer;
    this.#older = older;
    if (this.#weight !== undefined) {
      const weights = new Float64Array(length);
      weights.set(this.#weights);
      this.#weights = weights;
    }
  }

  #touch(slot: number): void {
    if (slot === this.#newest) return;
    this.#unlink(slot);
    this.#linkNewest(slot);
  }

  #unlink(slot: number): void {
    const newer = this.#newer[slot]!;
    const older = this.#older[slot]!;
    if (newer === NONE) this.#newest = older;
    else this.#older[newer] = older;
    if (older === NONE) this.#oldest = newer;
    else this.#newer[older] = newer;
  }

  #linkNewest(slot: number): void {
    this.#older[slot] = this.#newest;
    this.#newer[slot] = NONE;
    if (this.#newest === NONE) this.#oldest = slot;
    else this.#newer[this.#newest] = slot;
    this.#newest = slot;
  }
}
