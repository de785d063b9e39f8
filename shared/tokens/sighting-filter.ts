/**
 * Which strings were seen lately, approximately: a cache's doorkeeper, so that a text is cached
 * on its second sighting rather than its first (the "doorkeeper" of Einziger, Friedman & Manes
 * 2017, "TinyLFU: A highly efficient cache admission policy", §3.4.2).
 *
 * Why (issue 14's worker profile): a page's link contexts are mostly new texts, each seen once.
 * Caching every one on its first sighting costs its copy, its insertion, the eviction of an older
 * entry, and the heap it holds until then (8 MiB of texts that survive young-generation GCs into
 * the old generation); and a page of 5,000 links (15,000 texts) wipes the cache's navigation
 * anchors, which are what it is for. A text that recurs (a menu, a site's template) is cached at
 * its second sighting and hits from the third on.
 *
 * The memory is a direct-mapped table of 32-bit hashes (FNV-1a over UTF-16 code units): a slot
 * holds the last string hashed to it. Both of its errors cost time only, never a different
 * answer from the cache: two strings with one hash admit each other early (as before, when every
 * text was admitted), and a string whose slot another took waits for one more sighting.
 */

/** FNV-1a's 32-bit offset basis and prime (Fowler, Noll, Vo; IETF draft-eastlake-fnv §2). */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a of the string's UTF-16 code units, as a 32-bit integer (never 0: 0 marks an empty slot).
 * With `prefix`, the hash of `prefix + s`, without making that string.
 */
export function stringHash(s: string, prefix = ''): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < prefix.length; i++) hash = Math.imul(hash ^ prefix.charCodeAt(i), FNV_PRIME);
  for (let i = 0; i < s.length; i++) hash = Math.imul(hash ^ s.charCodeAt(i), FNV_PRIME);
  return hash === 0 ? 1 : hash;
}

export class SightingFilter {
  readonly #table: Int32Array;
  readonly #mask: number;

  /** @param slots Strings remembered at most, a power of two ≥ 1 (4 bytes each). */
  constructor(slots: number) {
    if (!(Number.isInteger(slots) && slots >= 1 && (slots & (slots - 1)) === 0)) throw new RangeError(`slots must be a power of two ≥ 1, got ${slots}`);
    this.#table = new Int32Array(slots);
    this.#mask = slots - 1;
  }

  /**
   * Whether `s` (with `prefix`, `prefix + s`) was seen lately (its slot holds its hash); either
   * way, it is the slot's now.
   */
  sight(s: string, prefix = ''): boolean {
    const hash = stringHash(s, prefix);
    // The high half folded into the low, which picks the slot: FNV-1a's low bits mix least.
    const slot = ((hash >>> 16) ^ hash) & this.#mask;
    if (this.#table[slot] === hash) return true;
    this.#table[slot] = hash;
    return false;
  }

  /** Forgets everything. */
  clear(): void {
    this.#table.fill(0);
  }
}
