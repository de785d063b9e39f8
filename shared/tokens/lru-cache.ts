/**
 * A bounded least-recently-used cache on a `Map`.
 *
 * A `Map` iterates in insertion order, so re-inserting a key on every hit keeps the least
 * recently used entry first; evicting is then deleting `keys().next()`. Every operation is O(1).
 * The tokenizer needs no more than this (no TTL, no size by weight), so no library is pulled in.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #capacity: number;

  /** @param capacity Most entries kept; 0 keeps nothing. A non-negative integer. */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`LRU capacity must be a non-negative integer, got ${capacity}`);
    }
    this.#capacity = capacity;
  }

  get capacity(): number {
    return this.#capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The cached value, marked as most recently used; `undefined` on a miss. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Stores `value` as the most recently used entry, evicting the least recently used ones. */
  set(key: K, value: V): void {
    if (this.#capacity === 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}
