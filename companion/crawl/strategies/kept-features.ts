/**
 * The listed features of the queued links that online learning re-scores, kept between its
 * re-scorings (`crawl/online-learning.ts`): the same rows come back every update, and listing a
 * link's features from its anchor, context and URL again (tokenizing, naming) cost more than
 * asking both classifiers about them (issue 14's profile: 4.5 % of the nb crawl's event loop,
 * against 5.2 % for the two classifiers).
 *
 * A link's features depend on its URL, anchor and context alone (`emitLinkFeatures`; the topic's
 * options and lexicon are fixed for the crawl, and the tokenizer is deterministic), so a kept
 * list is used only while the row still holds the very text it was listed from: an upsert from a
 * better parent replaces a queued row's context (`store/frontier-queries.ts`), and its features
 * are then listed again. The models' counts are not kept: every score is asked of the models as
 * they are, so a re-score gives, to the last bit, what listing the features again would give.
 *
 * Bounded: at most `maxRows` links, the least recently used dropped first (an `LruCache`: a `Map`
 * that evicted its first key was 3.5 µs a kept link dearer once full, as V8 leaves a deleted
 * entry's hole for a fresh iterator to walk, and the frontier bench's nb crawl keeps a thousand
 * new links a page; `shared/tokens/lru-cache.ts`). A re-scoring visits the
 * frontier's head in order, best first, so the rows it met last time and not yet this time are the
 * next to go: links claimed since (which never come back), then rows that fell below the head.
 *
 * The nb strategy keeps a second set, of the links it listed lately (`DEFAULT_LISTED_ROWS`), for
 * what follows a new link: its row's first re-scoring, its claim, the update that learns from it.
 *
 * Compact: a link keeps one reference per feature, to the feature list's own record of the name
 * (its slot: the name made once, whether it is an attribute, and the link classifier's memo of
 * its counts, `FeatureMemo`), shared with the list while the list holds it; its counts only when
 * one is not 1 (feature version 1); and its text to check against. No `Map`, no string made.
 */
import { FeatureList, type FeatureMemo, type FeatureSequence } from '../../../shared/features/feature-list.ts';
import type { FeatureVector } from '../../../shared/features/types.ts';
import { LruCache } from '../../../shared/tokens/lru-cache.ts';
import type { LinkText } from '../../store/records.ts';

/** A feature as the feature list records it: its name, whether an attribute, its model memo. */
interface Named extends FeatureMemo {
  readonly name: string;
  readonly attribute: boolean;
}

/**
 * Links kept by default: one re-scoring's rows (`DEFAULT_RESCORE_TOP`, 4,096) and a quarter more,
 * so that rows newly queued at the head do not push out rows met last time before this re-scoring
 * reaches them.
 */
export const DEFAULT_KEPT_ROWS = 5120;

/** What is kept of one link. */
export interface KeptLink {
  readonly anchor: string;
  readonly before: string;
  readonly after: string;
  /** The topic's patterns call its URL on topic: its value is 1, and no feature is kept. */
  readonly byPattern: boolean;
  readonly features: readonly Named[];
  /** Each feature's count; undefined when every count is 1. */
  readonly counts: readonly number[] | undefined;
  /**
   * What its features gave the nb strategy's level classifier under one revision of its counts (the
   * future value, `nb-strategy.ts`): its features never change, so the value holds while the
   * revision is the same. Set by the strategy, changed in place; undefined until it asks.
   */
  memo: KeptMemo | undefined;
}

/** A value worked out from a kept link's features, and the revision of the model's counts it holds for. */
export interface KeptMemo {
  revision: number;
  value: number;
}

export class KeptFeatures {
  /** URL → kept link; a use makes it the most recently used. */
  readonly #links: LruCache<string, KeptLink>;
  /** The sequence a kept link is scored through, reused: scoring is synchronous and never nests. */
  readonly #sequence = { length: 0, names: [] as string[], counts: [] as ArrayLike<number>, attributes: [] as boolean[], memos: [] as readonly FeatureMemo[] };
  /** Counts of 1, as many as the longest list needed so far. */
  readonly #ones: number[] = [];

  constructor(maxRows = DEFAULT_KEPT_ROWS) {
    if (!Number.isInteger(maxRows) || maxRows < 0) throw new RangeError(`kept features: maxRows must be a whole number ≥ 0, got ${maxRows}`);
    this.#links = new LruCache(maxRows);
  }

  /** Links kept now. */
  get size(): number {
    return this.#links.size;
  }

  /** What is kept of `url`, if its row still holds the text it was kept with. */
  get(url: string, text: LinkText): KeptLink | undefined {
    const kept = this.trusted(url);
    if (kept === undefined || keptWith(kept, text)) return kept;
    this.#links.delete(url); // kept for another text: of no more use
    return undefined;
  }

  /**
   * What is kept of `url`, taken as still matching its row's text: for a caller told of every
   * change to the row since it was kept (`forget`). A use: it moves the link last.
   */
  trusted(url: string): KeptLink | undefined {
    return this.#links.get(url);
  }

  /**
   * What is kept of `url` if it was kept with `text`, left where it is in the order, and left kept
   * when the texts differ: a look that changes nothing (a claimed link's log-odds).
   */
  peek(url: string, text: LinkText): KeptLink | undefined {
    const kept = this.#links.peek(url);
    return kept !== undefined && keptWith(kept, text) ? kept : undefined;
  }

  /** Drops what is kept of `url` (its row changed). */
  forget(url: string): void {
    this.#links.delete(url);
  }

  /**
   * Keeps `url`'s features as `list` holds them now (valid only until its next link), or none
   * when `byPattern`; the link kept, undefined when it keeps none (`maxRows` 0).
   */
  keep(url: string, text: LinkText, byPattern: boolean, list?: FeatureSequence): KeptLink | undefined {
    if (this.#links.capacity === 0) return undefined;
    let features: Named[] = [];
    let counts: number[] | undefined;
    if (!byPattern && list !== undefined) {
      const n = list.length;
      // A feature list's slots are kept as they are; any other sequence's features get records of their own.
      const slots = list instanceof FeatureList ? list.memos : undefined;
      features = new Array<Named>(n);
      for (let j = 0; j < n; j++) {
        features[j] = slots?.[j] ?? { name: list.names[j]!, attribute: list.attributes[j]!, owner: undefined, revision: 0, value: undefined };
        if (list.counts[j] !== 1) counts ??= [];
      }
      if (counts !== undefined) for (let j = 0; j < n; j++) counts[j] = list.counts[j]!;
    }
    const link: KeptLink = { anchor: text.anchor, before: text.before, after: text.after, byPattern, features, counts, memo: undefined };
    this.adopt(url, link);
    return link;
  }

  /** Keeps `link` as `url`'s, as another `KeptFeatures` kept it (a kept link's text and features never change). */
  adopt(url: string, link: KeptLink): void {
    this.#links.set(url, link);
  }

  /**
   * A kept link's features as a vector: the names and counts it was listed with, in that order,
   * which is the vector `linkFeatures` builds of the same link (a feature enters it when first
   * emitted, as it takes its place in a feature list). A new `Map`, the caller's to keep.
   */
  vector(kept: KeptLink): FeatureVector {
    const { features, counts } = kept;
    const vector: FeatureVector = new Map();
    for (let j = 0; j < features.length; j++) vector.set(features[j]!.name, counts?.[j] ?? 1);
    return vector;
  }

  /**
   * A kept link's features as the models' scoring reads them: the names and counts it was listed
   * with, in that order. Valid until the next call.
   */
  sequence(kept: KeptLink): FeatureSequence {
    const { features } = kept;
    const n = features.length;
    const sequence = this.#sequence;
    const { names, attributes } = sequence;
    for (let j = 0; j < n; j++) {
      const feature = features[j]!;
      names[j] = feature.name;
      attributes[j] = feature.attribute;
    }
    if (kept.counts === undefined) {
      const ones = this.#ones;
      while (ones.length < n) ones.push(1);
      sequence.counts = ones;
    } else sequence.counts = kept.counts;
    sequence.memos = features;
    sequence.length = n;
    return sequence;
  }
}

/** Whether `kept` was kept with `text`: its features are those of this very text. */
function keptWith(kept: KeptLink, text: LinkText): boolean {
  return kept.anchor === text.anchor && kept.before === text.before && kept.after === text.after;
}
