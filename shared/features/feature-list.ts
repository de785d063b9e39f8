/**
 * A link's features as parallel arrays that one scorer reuses from link to link: what
 * `linkFeatures` puts in a `FeatureVector`, in the same order with the same counts, without a
 * `Map` and without building a name per feature per link.
 *
 * Why (issue 14's worker profile): building each link's vector cost more than scoring it. Every
 * feature name was concatenated anew (`'c:' + token`), and a new string must be flattened and
 * hashed before a `Map` can take it or a model look it up. Here a name is made once per
 * (prefix, token) and kept: the tokens come from the tokenizer's cache, whose strings already
 * carry their hash, so finding a token's name is one lookup, and the model's lookup by that name
 * hashes nothing either. A repeated feature within one link is found by a stamp on its slot
 * rather than by a per-link set.
 *
 * The names kept are bounded (`maxNames`): past that, all are dropped at the start of the next
 * link and made again as they come, which costs time, never a different feature.
 */
import { ownString } from '../tokens/own-string.ts';
import type { FeatureEmit } from './link-features.ts';
import { isAttributeFeature, type FeatureVector } from './types.ts';

/**
 * Where a model may keep what it found for a feature, so that the next link with the feature
 * does not look it up again: `value` holds while the model's counts are `owner` at `revision`
 * (`NaiveBayes.scoreSequence` decides; the list only keeps the place).
 */
export interface FeatureMemo {
  owner: unknown;
  revision: number;
  value: unknown;
}

/** A feature's name, made once, and where it sits in the link being listed. */
interface Slot extends FeatureMemo {
  name: string;
  attribute: boolean;
  /** The link (`FeatureList.#stamp`) that last listed it, and its index in that link's arrays. */
  stamp: number;
  index: number;
}

/** What a model's scoring reads: the present features of one example, in order, with their counts. */
export interface FeatureSequence {
  readonly length: number;
  readonly names: readonly string[];
  /** Occurrences, > 0. */
  readonly counts: ArrayLike<number>;
  /** Whether each is an attribute (`isAttributeFeature`). */
  readonly attributes: ArrayLike<boolean>;
  /** Optionally, a place per feature for the model's lookups (`FeatureMemo`). */
  readonly memos?: readonly FeatureMemo[];
}

/**
 * Names kept by default: about 4 MiB, at the 219 bytes a kept name was measured to take (its
 * name, its key, its slot; 49,900 URL-token names held 10.9 MB of heap), beside the tokenizer's
 * 8 MiB token cache. A crawl of a wide site meets new URL tokens at every link and fills any
 * bound: at 50,000 names (11 MB) the 1M-URL frontier bench's nb crawl peaked at 304.5 MB, at this
 * bound at 289.8 and 280.5 MB (goal 300), with no change in the extension bench's worker rate.
 */
export const DEFAULT_MAX_NAMES = 19_000;

export class FeatureList implements FeatureSequence {
  length = 0;
  readonly names: string[] = [];
  readonly counts: number[] = [];
  readonly attributes: boolean[] = [];
  readonly memos: Slot[] = [];
  /** Emits into this list (`emitLinkFeatures`'s callback), bound once. */
  readonly emit: FeatureEmit;
  readonly #byPrefix = new Map<string, Map<string, Slot>>();
  readonly #maxNames: number;
  #named = 0;
  #stamp = 0;
  #counted = false;
  /** The last prefix asked for and its slots: a link's features come in runs of one prefix. */
  #prefix = '';
  #slots: Map<string, Slot> | undefined;

  constructor(maxNames = DEFAULT_MAX_NAMES) {
    this.#maxNames = maxNames;
    this.emit = (prefix, value) => this.add(prefix, value);
  }

  /** Which link the list holds now: it changes at every `begin`. */
  get stamp(): number {
    return this.#stamp;
  }

  /**
   * Empties the list for the next link. `counted`: repeats add to a feature's count (feature
   * version 1), else a feature is present once (version 2).
   */
  begin(counted: boolean): void {
    this.#stamp++;
    this.length = 0;
    this.#counted = counted;
    if (this.#named > this.#maxNames) {
      this.#byPrefix.clear();
      this.#slots = undefined;
      this.#named = 0;
    }
  }

  /** One occurrence of the feature `prefix + value`. */
  add(prefix: string, value: string): void {
    let slots = this.#slots;
    if (slots === undefined || prefix !== this.#prefix) {
      slots = this.#byPrefix.get(prefix);
      if (slots === undefined) {
        slots = new Map();
        this.#byPrefix.set(prefix, slots);
      }
      this.#prefix = prefix;
      this.#slots = slots;
    }
    let slot = slots.get(value);
    if (slot === undefined) {
      const name = ownString(prefix + value); // kept for good: flattened once here, not by the first lookup
      slot = { name, attribute: isAttributeFeature(name), stamp: 0, index: 0, owner: undefined, revision: 0, value: undefined };
      // Keyed by the caller's string itself: a token comes from the tokenizer's caches, so the
      // next link hands the very same string, and a hit is then found by identity, not by
      // comparing characters (a copy as the key made every hit compare them). Those strings
      // are the tokenizer's own (`ownString`, jieba's new strings, the URL head's), never a
      // slice that would keep a page alive.
      slots.set(value, slot);
      this.#named++;
    }
    if (slot.stamp === this.#stamp) {
      if (this.#counted) this.counts[slot.index]! += 1;
      return;
    }
    slot.stamp = this.#stamp;
    slot.index = this.length;
    this.names[this.length] = slot.name;
    this.counts[this.length] = 1;
    this.attributes[this.length] = slot.attribute;
    this.memos[this.length] = slot;
    this.length++;
  }
}

/** `presentFeatures`' arrays, reused from call to call: scoring is synchronous and never nests. */
const VECTOR_SCRATCH: { length: number; names: string[]; counts: number[]; attributes: boolean[] } = { length: 0, names: [], counts: [], attributes: [] };

/**
 * A vector's present features (count > 0) in its order, as a sequence for the models' scoring
 * loops (`NaiveBayes.scoreSequence`, `LevelClassifier.posteriorSequence`): how a caller with a
 * `FeatureVector` scores through the one loop. Valid until the next call.
 */
export function presentFeatures(x: FeatureVector): FeatureSequence {
  const present = VECTOR_SCRATCH;
  present.length = 0;
  for (const [feature, n] of x) {
    if (!(n > 0)) continue;
    present.names[present.length] = feature;
    present.counts[present.length] = n;
    present.attributes[present.length] = isAttributeFeature(feature);
    present.length++;
  }
  return present;
}
