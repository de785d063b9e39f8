/**
 * A map keyed by URL strings that stays within a number of entries and of key characters, for
 * results that are worth keeping across a crawl's pages (a link's verdict under the crawl's fixed
 * rules, `companion/crawl/link-rules.ts`) or a page's links (an href resolved, `normalize-url.ts`).
 *
 * Why bounded both ways: the keys come from pages, so a hostile site can send any number of
 * distinct, long URLs; an entry count alone would let 2 KB keys take hundreds of megabytes.
 * When either bound would be passed, the oldest entries go first (insertion order, as a `Map`
 * keeps it): a crawl's links cluster by site and time, and a reset costs only recomputation.
 */
export interface UrlCacheLimits {
  /** Most entries kept. */
  maxEntries: number;
  /** Most characters of keys kept, all entries together. */
  maxKeyChars: number;
}

export class UrlCache<V> {
  readonly #map = new Map<string, V>();
  readonly #limits: UrlCacheLimits;
  #keyChars = 0;

  constructor(limits: UrlCacheLimits) {
    if (!(limits.maxEntries >= 1 && limits.maxKeyChars >= 1)) throw new RangeError('UrlCache: maxEntries and maxKeyChars must be at least 1');
    this.#limits = limits;
  }

  get size(): number {
    return this.#map.size;
  }

  /** Characters of keys held now. */
  get keyChars(): number {
    return this.#keyChars;
  }

  /** The value kept for `key`, or undefined (so a cache of `V` that may be undefined cannot tell "absent" apart: wrap it). */
  get(key: string): V | undefined {
    return this.#map.get(key);
  }

  /** Keep `value` under `key`, evicting the oldest entries past either bound; a key longer than the character bound is not kept. */
  set(key: string, value: V): void {
    const { maxEntries, maxKeyChars } = this.#limits;
    if (key.length > maxKeyChars) return;
    const map = this.#map;
    if (map.has(key)) {
      map.set(key, value);
      return;
    }
    while (map.size > 0 && (map.size >= maxEntries || this.#keyChars + key.length > maxKeyChars)) {
      const oldest = map.keys().next().value as string;
      map.delete(oldest);
      this.#keyChars -= oldest.length;
    }
    map.set(key, value);
    this.#keyChars += key.length;
  }

  clear(): void {
    this.#map.clear();
    this.#keyChars = 0;
  }
}
