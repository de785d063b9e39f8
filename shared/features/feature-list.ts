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
 * A token that comes with an id (`TokenEmit`: jieba's pieces of a Han run the tokenizer has cut
 * before) finds its slot by the id, without hashing the token (`PrefixSlots`).
 *
 * The names kept are bounded (`maxNames`): past that, all are dropped at the start of the next
 * link and made again as they come, which costs time, never a different feature.
 *
 * A feature is named for good from its second sighting on (a `SightingFilter` remembers the first):
 * on its first it is listed for its link alone, without a slot or a memo (a "passing" feature).
 * Why (issue 14's worker profile): a page's links bring words met once (numbers, names; in the
 * worker bench, a salt word per link), and naming each for good cost a slot, a name kept, a
 * model memo, and, since the bound filled within a page, dropping every name once a page and
 * making the page's 6,000 recurring ones again with their model look-ups; kept until the bound
 * dropped them, they also outlived young-generation GCs. Only what is kept changes, never what
 * a link lists: a passing feature has its name, count and place as a kept one would.
 */
import { ownString } from '../tokens/own-string.ts';
import { SightingFilter } from '../tokens/sighting-filter.ts';
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
  /** The token id (`TokenEmit`) it was last found by; 0: none (ids start at 1). */
  tokenId: number;
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
  /** Optionally, a place per feature for the model's lookups (`FeatureMemo`); undefined: none for this one. */
  readonly memos?: readonly (FeatureMemo | undefined)[];
}

/**
 * One prefix's slots: by the value's string, and, for tokens that come with an id (`TokenEmit`:
 * jieba's pieces from the tokenizer's run cache), by the id, direct-mapped (`DEFAULT_ID_SLOTS`).
 * Found by id, a slot costs an array index and one comparison of numbers; by string, a `Map`'s
 * hash and probe, the largest part of `add`'s time (issue 14's worker profile).
 */
interface PrefixSlots {
  byValue: Map<string, Slot>;
  /** `id & (idSlots − 1)` → the slot last found by an id there; made at the first id. */
  byId: (Slot | undefined)[] | undefined;
}

/**
 * Places in a prefix's table by id, by default (64 KiB of references each for `a:` and `c:`): a
 * page's recurring word features are a few thousand, so most ids have a place of their own; two
 * ids on one place take it in turns, each found by string when the other holds it.
 */
export const DEFAULT_ID_SLOTS = 2 ** 13;

/** A feature listed for one link only (its first sighting): what finds it again within the link. */
interface Passing {
  prefix: string;
  value: string;
  /** Its index in the link's arrays. */
  index: number;
}

/**
 * Names kept by default: about 4 MiB, at the 219 bytes a kept name was measured to take (its
 * name, its key, its slot; 49,900 URL-token names held 10.9 MB of heap), beside the tokenizer's
 * 8 MiB token cache. A crawl of a wide site meets new URL tokens at every link and fills any
 * bound: at 50,000 names (11 MB) the 1M-URL frontier bench's nb crawl peaked at 304.5 MB, at this
 * bound at 289.8 and 280.5 MB (goal 300), with no change in the extension bench's worker rate.
 */
export const DEFAULT_MAX_NAMES = 19_000;

/**
 * Features the sighting filter remembers (256 KiB): a 5,000-link page lists about 16,000
 * distinct features, and those that recur must still be remembered on the next page.
 */
export const NAME_ADMISSION_SLOTS = 2 ** 16;

/**
 * Passing features one link may have; past that, first sightings are named for good as before.
 * Each first sighting is compared with the link's passing ones (a link has a few), so a link of
 * thousands of new words (a long anchor) must not make that quadratic.
 */
const MAX_PASSING = 64;

export class FeatureList implements FeatureSequence {
  length = 0;
  readonly names: string[] = [];
  readonly counts: number[] = [];
  readonly attributes: boolean[] = [];
  /** The features' slots; undefined for a passing feature (listed for this link only). */
  readonly memos: (Slot | undefined)[] = [];
  /** Emits into this list (`emitLinkFeatures`'s callback), bound once. */
  readonly emit: FeatureEmit;
  readonly #byPrefix = new Map<string, PrefixSlots>();
  readonly #maxNames: number;
  #named = 0;
  #stamp = 0;
  #counted = false;
  readonly #admit: boolean;
  /** The last prefix asked for and its slots: a link's features come in runs of one prefix. */
  #prefix = '';
  #slots: PrefixSlots | undefined;
  /** Which features were sighted lately: a feature is named for good on its second sighting. */
  readonly #sighted: SightingFilter;
  /** This link's passing features, `#passingLength` of them (the objects are reused). */
  readonly #passing: Passing[] = [];
  #passingLength = 0;
  /** Places in each prefix's table by id, and the mask that picks one (`PrefixSlots.byId`). */
  readonly #idSlots: number;
  readonly #idMask: number;

  /**
   * @param maxNames Names kept at most (then all dropped at the next `begin`).
   * @param admissionSlots The sighting filter's size (a power of two); 0 names every feature on its first sighting.
   * @param idSlots Places in each prefix's table by token id (a power of two).
   */
  constructor(maxNames = DEFAULT_MAX_NAMES, admissionSlots = NAME_ADMISSION_SLOTS, idSlots = DEFAULT_ID_SLOTS) {
    if (!(Number.isInteger(idSlots) && idSlots >= 1 && (idSlots & (idSlots - 1)) === 0)) throw new RangeError(`idSlots must be a power of two ≥ 1, got ${idSlots}`);
    this.#idSlots = idSlots;
    this.#idMask = idSlots - 1;
    this.#maxNames = maxNames;
    this.#sighted = new SightingFilter(Math.max(1, admissionSlots));
    this.#admit = admissionSlots > 0;
    this.emit = (prefix, value, id) => this.add(prefix, value, id);
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
    this.#passingLength = 0;
    this.#counted = counted;
    if (this.#named > this.#maxNames) {
      this.#byPrefix.clear();
      this.#slots = undefined;
      this.#named = 0;
    }
  }

  /** One occurrence of the feature `prefix + value`; `id`, the token's id if it has one (`TokenEmit`). */
  add(prefix: string, value: string, id?: number): void {
    let slots = this.#slots;
    if (slots === undefined || prefix !== this.#prefix) {
      slots = this.#byPrefix.get(prefix);
      if (slots === undefined) {
        slots = { byValue: new Map(), byId: undefined };
        this.#byPrefix.set(prefix, slots);
      }
      this.#prefix = prefix;
      this.#slots = slots;
    }
    let slot: Slot | undefined;
    if (id === undefined) slot = slots.byValue.get(value);
    else {
      const byId = (slots.byId ??= new Array<Slot | undefined>(this.#idSlots).fill(undefined));
      slot = byId[id & this.#idMask];
      if (slot === undefined || slot.tokenId !== id) {
        // An id names one text for good (`token-ids.ts`), so a slot found by it is this feature's.
        slot = slots.byValue.get(value);
        if (slot !== undefined) {
          slot.tokenId = id;
          byId[id & this.#idMask] = slot;
        }
      }
    }
    if (slot === undefined) {
      if (this.#admit) {
        // Listed earlier in this link, as a passing feature?
        const passing = this.#passing;
        for (let k = 0; k < this.#passingLength; k++) {
          const seen = passing[k]!;
          if (seen.value === value && seen.prefix === prefix) {
            if (this.#counted) this.counts[seen.index]! += 1;
            return;
          }
        }
        // First sighting lately: listed for this link alone (see the file header).
        if (this.#passingLength < MAX_PASSING && !this.#sighted.sight(value, prefix)) {
          this.#addPassing(prefix, value);
          return;
        }
      }
      const name = ownString(prefix + value); // kept for good: flattened once here, not by the first lookup
      slot = { name, attribute: isAttributeFeature(name), tokenId: id ?? 0, stamp: 0, index: 0, owner: undefined, revision: 0, value: undefined };
      // Keyed by the caller's string itself: a token comes from the tokenizer's caches, so the
      // next link hands the very same string, and a hit is then found by identity, not by
      // comparing characters (a copy as the key made every hit compare them). Those strings
      // are the tokenizer's own (`ownString`, jieba's new strings, the URL head's), never a
      // slice that would keep a page alive.
      slots.byValue.set(value, slot);
      if (id !== undefined) slots.byId![id & this.#idMask] = slot;
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

  /** Lists `prefix + value` with no slot: its name is made for this link, and the model gets no memo. */
  #addPassing(prefix: string, value: string): void {
    let passing = this.#passing[this.#passingLength];
    if (passing === undefined) {
      passing = { prefix, value, index: 0 };
      this.#passing.push(passing);
    } else {
      passing.prefix = prefix;
      passing.value = value;
    }
    passing.index = this.length;
    this.#passingLength++;
    const name = prefix + value;
    this.names[this.length] = name;
    this.counts[this.length] = 1;
    this.attributes[this.length] = isAttributeFeature(name);
    this.memos[this.length] = undefined;
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
