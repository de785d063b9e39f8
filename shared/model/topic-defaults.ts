/**
 * A topic's defaults, stated once for both halves: the extension's new topics and options page,
 * the command line's flags and help, and the service's crawls all read them from here.
 */
import { DEFAULT_CONTEXT_WINDOW } from '../contexts/extract-contexts.ts';
import { FEATURE_VERSION } from '../features/types.ts';
import { DEFAULT_NB_FORM } from './nb-counts.ts';
import type { Topic } from './types.ts';

export const TOPIC_DEFAULTS = {
  /** P(+) at or above which a link (or, under the pattern judge, a page) counts as on topic. */
  threshold: 0.5,
  /** Seed 000's feature group 2: anchor, context and lexicon flags. */
  featureGroup: 2,
  form: DEFAULT_NB_FORM,
  /** Context window W in characters (seed 000 §3.3): the context stage's own default, 80. */
  window: DEFAULT_CONTEXT_WINDOW,
} as const satisfies Partial<Topic>;

/**
 * What a topic created now gets that a topic written earlier lacks (kept apart from
 * `TOPIC_DEFAULTS`, since an absent field of an old topic still means what it meant then): URL
 * features, since on most sites the path names the section (ACHE uses URL tokens too), with the
 * current feature rules; and, in the extension, a threshold calibrated on held-out examples for
 * the best F1 rather than fixed at 0.5. `linkscent train` writes its models the same way.
 */
export const NEW_TOPIC_DEFAULTS = {
  urlTokens: true,
  featureVersion: FEATURE_VERSION,
  thresholdMode: 'f1',
} as const satisfies Partial<Topic>;
