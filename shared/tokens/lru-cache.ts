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
 * The tokenizer needs no more than this (no TTL, no size by weight), so no library is pulled in.
 */
const NONE = -1;

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

  /** @param capacity Most entries kept; 0 keeps nothing. A non-negative integer. */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`LRU capacity must be a non-negative integer, got ${capacity}`);
    }
    this.#capacity = capacity;
    // The links grow with the entries, so a large capacity costs nothing until it is used.
    this.#newer = new Int32Array(Math.min(capacity, 1024));
    this.#older = new Int32Array(Math.min(capacity, 1024));
  }

  get capacity(): number {
    return this.#capacity;
  }

  get size(): number {
    return this.#slotOf.size;
  }

  /** The cached value, marked as most recently used; `undefined` on a miss. */
  get(key: K): V | undefined {
    const slot = this.#slotOf.get(key);
    if (slot === undefined) return undefined;
    this.#touch(slot);
    return this.#values[slot];
  }

  has(key: K): boolean {
    return this.#slotOf.has(key);
  }

  /** Stores `value` as the most recently used entry, evicting the least recently used one. */
  set(key: K, value: V): void {
    if (this.#capacity === 0) return;
    let slot = this.#slotOf.get(key);
    if (slot !== undefined) {
      this.#values[slot] = value;
      this.#touch(slot);
      return;
    }
    if (this.#slotOf.size < this.#capacity) {
      slot = this.#slotOf.size; // slots fill in order and are only ever reused after that
      if (slot === this.#newer.length) this.#grow();
    } else {
      slot = this.#oldest;
      this.#slotOf.delete(this.#keys[slot] as K);
      this.#unlink(slot);
    }
    this.#slotOf.set(key, slot);
    this.#keys[slot] = key;
    this.#values[slot] = value;
    this.#linkNewest(slot);
  }

  clear(): void {
    this.#slotOf.clear();
    this.#keys.length = 0;
    this.#values.length = 0;
    this.#newest = NONE;
    this.#oldest = NONE;
  }

  #grow(): void {
    const length = Math.min(this.#capacity, this.#newer.length * 2);
    const newer = new Int32Array(length);
    const older = new Int32Array(length);
    newer.set(this.#newer);
    older.set(this.#older);
    this.#newer = newer;
    this.#older = older;
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
