/**
 * Token ids: each distinct token text a tokenizer hands out from its Han-run cache gets a whole
 * number, so that what a caller keeps per token (a feature's slot, `FeatureList`) is found by an
 * array index rather than by hashing and comparing the token's string in a `Map`.
 *
 * Why (issue 14's worker profile): most of a link's tokens are jieba's pieces of Han runs the
 * tokenizer has cut before, and `FeatureList.add` looked every one up by name: about 20 look-ups
 * a link, the largest single cost of listing its features. A run's pieces are interned once, when
 * the run is cut, and their ids kept beside them in the run cache.
 *
 * Ids come from one counter for every tokenizer in the realm and are never reused (a float's 2^53
 * of them), so an id names one token text for good, whichever tokenizer gave it. The table from text to id is bounded: past
 * `maxTexts` it is emptied and texts get new ids as they come again (an id is a cache key only: a
 * text with a new id is looked up by name once more, never taken for another).
 *
 * Interning also makes every piece with the same text one string: jieba makes a new string for
 * each piece of each cut, and a look-up by name then found equal strings by comparing characters.
 */

/** The next id of any `TokenIds` (see the file header: never reused). */
let nextId = 1;

/**
 * Texts a table keeps ids for by default before it starts again: about 3 MB of `Map` entries,
 * records and strings (65,536 pieces of two to four Han characters took 6.0 MB of heap), the
 * strings shared with the run cache while it holds their runs. The extension bench's pool of
 * contexts has 10,229 distinct Han runs and 3,692 distinct pieces.
 */
export const DEFAULT_MAX_TOKEN_TEXTS = 2 ** 15;

/** A text's id and the one string kept for it. */
interface Interned {
  readonly text: string;
  readonly id: number;
}

export class TokenIds {
  readonly #interned = new Map<string, Interned>();
  readonly #maxTexts: number;

  constructor(maxTexts = DEFAULT_MAX_TOKEN_TEXTS) {
    if (!(Number.isInteger(maxTexts) && maxTexts >= 1)) throw new RangeError(`maxTexts must be a whole number ≥ 1, got ${maxTexts}`);
    this.#maxTexts = maxTexts;
  }

  /** Texts with an id now. */
  get size(): number {
    return this.#interned.size;
  }

  /**
   * Gives each of `pieces` its id, written at the same index of `ids`, and replaces it by the one
   * string kept for its text (the same text, so the same token).
   */
  intern(pieces: string[], ids: number[]): void {
    for (let i = 0; i < pieces.length; i++) {
      let interned = this.#interned.get(pieces[i]!);
      if (interned === undefined) {
        if (this.#interned.size >= this.#maxTexts) this.#interned.clear();
        interned = { text: pieces[i]!, id: nextId++ };
        this.#interned.set(interned.text, interned);
      }
      pieces[i] = interned.text;
      ids[i] = interned.id;
    }
  }
}
