/**
 * Shared record types of the model and its training data, as stored in the one Dexie schema
 * (`db-schema.ts`) and as written in JSON lines by the companion.
 */
import type { FeatureGroup } from '../features/types.ts';

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
export type NbForm = 'bernoulli' | 'multinomial';

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
}

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
