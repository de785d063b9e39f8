/**
 * Passive labeling (Han et al. 2010 §3.2.2): while the user browses, the links of every page are
 * labelled by the active topic's URL patterns, through the one labeler both halves share
 * (`shared/labels/`: on-topic wins, no off-topic pattern means every other link is negative, no
 * on-topic pattern labels nothing, self-links are skipped).
 *
 * Pure: no browser API, so the rule is tested in Node.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import { compileTopicPatterns, labelContexts, type TopicPatterns } from '../../shared/labels/pattern-labels.ts';
import type { LabeledLink, Topic } from '../../shared/model/types.ts';

/**
 * A topic's patterns as the background labels with them. A pattern that does not compile is
 * skipped here: the options page refuses it on save (`validateTopic`), so only a hand-edited
 * import can carry one, and it should not cost the page its other labels.
 */
export function passivePatterns(topic: Pick<Topic, 'positive' | 'negative'>): TopicPatterns {
  return compileTopicPatterns(topic, { skipBad: true });
}

/** The labeled examples (source 'pattern') a batch of a page's link contexts yields. */
export function passiveExamples(topic: Topic, contexts: readonly LinkContext[], patterns = passivePatterns(topic)): LabeledLink[] {
  return labelContexts(contexts, patterns, { source: 'pattern', topic: topic.id });
}
