/**
 * A topic's defaults, stated once for both halves: the extension's new topics and options page,
 * the command line's flags and help, and the service's crawls all read them from here.
 */
import { DEFAULT_CONTEXT_WINDOW } from '../contexts/extract-contexts.ts';
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
