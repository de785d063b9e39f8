/**
 * A map keyed by URL strings that stays within a number of entries and of key characters, for
 * results that are worth keeping across a crawl's pages (a link's verdict under the crawl's fixed
 * rules, `companion/crawl/link-rules.ts`).
 *
 * Why bounded both ways: the keys come from pages, so a hostile site can send any number of
 * distinct, long URLs; an entry count alone would let 2 KB keys take hundreds of megabytes.
 *
 * Why two generations rather than one `Map` whose oldest key goes first: a `Map` keeps deleted
 * entries as holes until it rehashes, and `keys().next()` walks past every hole from the start,
 * so evicting one key at a time cost 16 µs a set once the map was full of distinct URLs (the
 * frontier bench's site links a thousand new URLs a page: its bfs crawl ran 25 % slower). Here a
 * key goes into the young generation; when that holds half of either bound, it becomes the old
 * one and the old one is dropped whole. A key found in the old generation moves to the young
 * one, so what a crawl keeps linking (navigation, indexes) stays while the rest ages out. Every
 * operation is a `Map`'s own, O(1).
 */
export interface UrlCacheLimits {
  /** Most entries kept, both generations together. */
  maxEntries: number;
  /** Most characters of keys kept, both generations together. */
  maxKeyChars: number;
}

export class UrlCache<V> {
  #young = new Map<string, V>();
  #old = new Map<string, V>();
  #youngChars = 0;
  #oldChars = 0;
  /** Each generation's bounds: half of the cache's. */
  readonly #entries: number;
  readonly #chars: number;

  constructor(limits: UrlCacheLimits) {
    if (!(limits.maxEntries >= 2 && limits.maxKeyChars >= 2)) throw new RangeError('UrlCache: maxEntries and maxKeyChars must be at least 2');
    this.#entries = Math.floor(limits.maxEntries / 2);
    this.#chars = Math.floor(limits.maxKeyChars / 2);
  }

  /** Entries held now, both generations (a key moved to the young one may be counted twice until the old one goes). */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  /** Characters of keys held now, both generations. */
  get keyChars(): number {
    return this.#youngChars + this.#oldChars;
  }

  /** The value kept for `key`, or undefined (so a cache of `V` that may be undefined cannot tell "absent" apart: wrap it). */
  get(key: string): V | undefined {
    const young = this.#young.get(key);
    if (young !== undefined || this.#young.has(key)) return young;
    if (!this.#old.has(key)) return undefined;
    const value = this.#old.get(key) as V;
    this.set(key, value);
    return value;
  }

  /** Keep `value` under `key`; a key longer than half the character bound is not kept. */
  set(key: string, value: V): void {
    if (key.length > this.#chars) return;
    if (this.#young.has(key)) {
      this.#young.set(key, value);
      return;
    }
    if (this.#young.size >= this.#entries || this.#youngChars + key.length > this.#chars) {
      this.#old = this.#young;
      this.#oldChars = this.#youngChars;
      this.#young = new Map();
      this.#youngChars = 0;
    }
    this.#young.set(key, value);
    this.#youngChars += key.length;
  }

  clear(): void {
    this.#young.clear();
    this.#old.clear();
    this.#youngChars = 0;
    this.#oldChars = 0;
  }
}
