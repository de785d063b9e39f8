/**
 * Shared record types of the model and its training data, as stored in the one Dexie schema
 * (`db-schema.ts`) and as written in JSON lines by the companion.
 */
import type { FeatureGroup, FeatureVersion } from '../features/types.ts';

/** 1 = on topic, 0 = off topic. A number, not a boolean: IndexedDB cannot index booleans. */
export type Label = 0 | 1;

/** Where a labeled example came from. */
export type LabelSource =
  | 'pattern' // the URL matched the topic's on-/off-topic patterns (seed 000 §3.2.2)
  | 'user' // the user marked the link from the context menu
  | 'page' // the user marked the target page from the popup
  | 'crawl'; // learned during a companion crawl

/** A labeled link: the training example of the link classifier. */
export interface LabeledLink {
  url: string;
  pageUrl: string;
  anchor: string;
  before: string;
  after: string;
  label: Label;
  source: LabelSource;
  topic: string;
}

/** Naive Bayes event model. */
/** Naive Bayes event model (`naive-bayes.ts` has each one's formulas). */
export type NbForm = 'bernoulli' | 'multinomial' | 'mixed';

/** A topic: what the user is collecting, and how its links are featurised and judged. */
export interface Topic {
  /** Stable id (also the key of its model). */
  id: string;
  name: string;
  /** Domain-lexicon terms, one per entry. */
  lexicon: string[];
  /** URL patterns of on-topic targets: a glob (`*` = any run) or a bare host name. */
  positive: string[];
  /** URL patterns of off-topic targets. Empty: every non-positive link is negative. */
  negative: string[];
  /** P(+) at or above which a link counts as on topic. Default 0.5. */
  threshold: number;
  featureGroup: FeatureGroup;
  form: NbForm;
  /** Context window W in characters (seed 000 §3.3). Default 80. */
  window: number;
  /**
   * Whether the topic's model was trained with URL host and path tokens as features (`u:`,
   * `features/url-tokens.ts`), so scoring must add them too. Written by the companion's
   * `train --url-tokens`; absent (false) in topics the extension creates. Optional, so model
   * files written before it existed still read.
   */
  urlTokens?: boolean;
  /**
   * The feature rules the topic's model was trained with (`FeatureVersion`,
   * `features/types.ts`). Absent: 1, as in every topic written before versions existed, which so
   * keep scoring as they did; new topics and new model files get `FEATURE_VERSION`.
   */
  featureVersion?: FeatureVersion;
  /**
   * How `threshold` is chosen (issue 12): 'f1' = calibrated on held-out examples to the F1-best
   * cut; 'precision' = the lowest cut whose held-out precision reaches `targetPrecision`;
   * 'fixed' = `threshold` as the user set it. Absent: 'fixed', so topics written before
   * calibration keep the threshold they had; the extension creates new topics with 'f1'.
   */
  thresholdMode?: ThresholdMode;
  /** The precision `thresholdMode: 'precision'` aims at, in (0, 1). */
  targetPrecision?: number;
}

export type ThresholdMode = 'f1' | 'precision' | 'fixed';

/** Per-feature log-odds contribution in a score's explanation. */
export interface Contribution {
  feature: string;
  /** log P(f|+)/P(f|−) as this feature enters the score; > 0 pushes towards on topic. */
  weight: number;
}

export interface Score {
  /** P(+ | features). */
  p: number;
  /** log P(+|x) − log P(−|x). */
  logOdds: number;
  /** The features that moved the score most, largest |weight| first. */
  top: Contribution[];
}

// ---------------------------------------------------------------------------------------------
// Stored rows (the tables of `db-schema.ts`). Plain JSON, so that a Dexie export file is readable
// by eye and by other tools. Times are epoch milliseconds (numbers, not Dates, for the same reason).

/** Per-class pair, indexed by `Label`: `[off topic (0), on topic (1)]`. */
export type ClassPair = [number, number];

/**
 * A Naive Bayes model's header row (table `models`, key `topic`): the class-level counts. With
 * its `NbFeatureRow`s it is the whole model: every probability is derived from these counts
 * (`naive-bayes.ts`).
 */
export interface NbHeaderRow {
  /** The topic's id (`Topic.id`). */
  topic: string;
  /** Row format; raised when the meaning of a field changes. */
  rowsVersion: 1;
  form: NbForm;
  /** Laplace pseudo-count α (> 0); 1 gives seed 000's eq. (2). */
  alpha: number;
  /** Count_i: training examples per class. */
  count: ClassPair;
  /** Σ occurrences of every feature per class (the multinomial form's denominator). */
  tokens: ClassPair;
  /** How many `NbFeatureRow`s belong to this header: a check against a partial write. */
  vocabularySize: number;
  /** When the counts were saved. */
  savedAt: number;
}

/** One feature's counts (table `features`, key `[topic+feature]`). */
export interface NbFeatureRow {
  topic: string;
  feature: string;
  /** Count(Fj, Ci): examples of each class containing the feature (the Bernoulli counts). */
  count: ClassPair;
  /** Occurrences of the feature in each class's examples (the multinomial counts). */
  occurrences: ClassPair;
}

/** A stored training example (table `examples`): the labeled link plus its dedupe key. */
export interface ExampleRow extends LabeledLink {
  /** Auto-incremented by IndexedDB; absent before the first write. */
  id?: number;
  /** `exampleKey(link)`: unique per topic, so one link context is one example. */
  key: string;
  addedAt: number;
}

/** A page the user saw or marked (table `pages`, key `[topic+url]`). */
export interface PageRow {
  topic: string;
  url: string;
  title: string;
  /** Set when the user marked the page on (1) or off (0) topic. */
  label?: Label;
  seenAt: number;
}

/** One setting (table `settings`, key `key`). */
export interface SettingRow {
  key: string;
  value: unknown;
}

/**
 * The level classifier's header row (future value, issue 11; seed 001's Q-value bins): a
 * multinomial Naive Bayes over the same link features, whose classes are the link's distance
 * to the nearest on-topic page, 0 … L−1 (the last class means "L−1 or more hops"). Arrays are
 * indexed by level and have length `levels`. Stored beside the link model, one per topic.
 */
export interface LevelHeaderRow {
  topic: string;
  /** Row format; raised when the meaning of a field changes. */
  rowsVersion: 1;
  /** L, the number of classes (≥ 2). */
  levels: number;
  /** Laplace pseudo-count α (> 0). */
  alpha: number;
  /** Training examples per level. */
  count: number[];
  /** Σ occurrences of every feature per level. */
  tokens: number[];
  /** How many `LevelFeatureRow`s belong to this header. */
  vocabularySize: number;
  savedAt: number;
}

/** One feature's occurrences per level (the level classifier's feature row). */
export interface LevelFeatureRow {
  topic: string;
  feature: string;
  /** Occurrences of the feature in each level's examples; length `levels`. */
  occurrences: number[];
}
