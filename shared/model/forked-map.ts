/**
 * Copy-on-write tables for models that many users start from and each then changes a little.
 *
 * A service running twenty crawls with one model built the model's counts twenty times (3.2 MB
 * each for a 13,000-feature topic), because online learning changes each crawl's copy. A fork
 * reads the shared counts and keeps only what it changed: a value is copied into the fork the
 * first time the fork writes it (`forWriting`), and a key it deletes is hidden from it.
 *
 * The base must not change while forks of it exist: whoever forks keeps the base to itself.
 */

/** What a model's feature table needs of a `Map`: a plain `Map` is one, so is a `ForkedMap`. */
export interface CountTable<V> {
  get(key: string): V | undefined;
  has(key: string): boolean;
  set(key: string, value: V): unknown;
  delete(key: string): boolean;
  readonly size: number;
  keys(): Iterable<string>;
}

export class ForkedMap<V> implements CountTable<V> {
  readonly #base: CountTable<V>;
  readonly #copy: (value: V) => V;
  /** The values this fork wrote, base values it copied to change them included. */
  readonly #own = new Map<string, V>();
  /** Base keys this fork changed or deleted: their base values are not its own any more. */
  readonly #shadowed = new Set<string>();
  #size: number;
  /** Base values copied so far to be changed (`writable`): each replaced the value a reader held by reference. */
  #copies = 0;

  /** @param copy A copy of a base value deep enough that changing it leaves the base as it was. */
  constructor(base: CountTable<V>, copy: (value: V) => V) {
    this.#base = base;
    this.#copy = copy;
    this.#size = base.size;
  }

  get size(): number {
    return this.#size;
  }

  /** How many base values this fork has copied to change them (`NbCounts.detached`). */
  get copies(): number {
    return this.#copies;
  }

  get(key: string): V | undefined {
    const own = this.#own.get(key);
    if (own !== undefined || this.#shadowed.has(key)) return own;
    return this.#base.get(key);
  }

  has(key: string): boolean {
    return this.#own.has(key) || (!this.#shadowed.has(key) && this.#base.has(key));
  }

  set(key: string, value: V): this {
    if (!this.has(key)) this.#size++;
    this.#own.set(key, value);
    if (this.#base.has(key)) this.#shadowed.add(key);
    return this;
  }

  delete(key: string): boolean {
    if (!this.has(key)) return false;
    this.#own.delete(key);
    if (this.#base.has(key)) this.#shadowed.add(key);
    this.#size--;
    return true;
  }

  *keys(): IterableIterator<string> {
    yield* this.#own.keys();
    for (const key of this.#base.keys()) if (!this.#shadowed.has(key)) yield key;
  }

  /** The value to change in place: a base value is copied into this fork first. */
  writable(key: string): V | undefined {
    const own = this.#own.get(key);
    if (own !== undefined || this.#shadowed.has(key)) return own;
    const base = this.#base.get(key);
    if (base === undefined) return undefined;
    const mine = this.#copy(base);
    this.#copies++;
    this.#own.set(key, mine);
    this.#shadowed.add(key);
    return mine;
  }
}

/** `table`'s value for `key`, safe to change in place (a fork's base value is copied first). */
export function forWriting<V>(table: CountTable<V>, key: string): V | undefined {
  return table instanceof ForkedMap ? (table as ForkedMap<V>).writable(key) : table.get(key);
}
