/**
 * Passive labeling (Han et al. 2010 §3.2.2): while the user browses, every link whose target URL
 * matches the active topic's on-topic patterns becomes a positive example, one matching its
 * off-topic patterns a negative one. As in `linkscent collect`, a topic with on-topic patterns
 * but no off-topic ones treats every other link as negative; a topic with no on-topic patterns
 * labels nothing passively (it learns from the user's marks only).
 *
 * Pure: no browser API, so the rule is tested in Node.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { Label, LabeledLink, Topic } from '../../shared/model/types.ts';
import { compileUrlPattern, matchesAny, type UrlMatcher } from '../../shared/urls/url-pattern.ts';

export interface TopicMatchers {
  positive: UrlMatcher[];
  negative: UrlMatcher[];
}

/**
 * Compiles a topic's patterns. A pattern that does not compile is skipped here: the options page
 * refuses it on save (`validateTopic`), so only a hand-edited import can carry one.
 */
export function compileTopicPatterns(topic: Pick<Topic, 'positive' | 'negative'>): TopicMatchers {
  const compile = (patterns: readonly string[]) =>
    patterns.flatMap((pattern) => {
      try {
        return [compileUrlPattern(pattern)];
      } catch {
        return [];
      }
    });
  return { positive: compile(topic.positive), negative: compile(topic.negative) };
}

/** The label the patterns give a target URL, or null when they say nothing. On-topic wins. */
export function patternLabel(url: string, matchers: TopicMatchers): Label | null {
  if (matchers.positive.length === 0) return null;
  if (matchesAny(url, matchers.positive)) return 1;
  if (matchers.negative.length === 0 || matchesAny(url, matchers.negative)) return 0;
  return null;
}

/** The labeled examples (source 'pattern') a batch of a page's link contexts yields. */
export function passiveExamples(topic: Topic, contexts: readonly LinkContext[], matchers = compileTopicPatterns(topic)): LabeledLink[] {
  const examples: LabeledLink[] = [];
  for (const { url, pageUrl, anchor, before, after } of contexts) {
    // A link to the page itself says nothing about where links lead.
    if (url === pageUrl) continue;
    const label = patternLabel(url, matchers);
    if (label === null) continue;
    examples.push({ url, pageUrl, anchor, before, after, label, source: 'pattern', topic: topic.id });
  }
  return examples;
}
