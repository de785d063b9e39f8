/**
 * Seed 000 §3.2.2's automatic labelling (Han et al. 2010): a link's label comes from its target
 * URL alone, matched against the topic's on-topic and off-topic URL patterns. The one
 * implementation behind the extension's passive labels, `linkscent collect` and the examples a
 * served crawl learns.
 *
 * The rules, all here:
 *
 * 1. **Positive wins.** A URL that matches both an on-topic and an off-topic pattern is on topic:
 *    the on-topic patterns name the user's sites one by one, the off-topic ones are usually broad
 *    ("everything else on this portal"), so an overlap means "this part of the broad site".
 * 2. **No off-topic pattern: every other link is negative.** With some, a link matching neither
 *    is left unlabeled (null) rather than guessed.
 * 3. **No on-topic pattern: nothing is labeled.** "Every link is negative" would teach the model
 *    nothing but a prior.
 * 4. **A link to the page itself (or to a fragment of it) is not an example.** It says nothing
 *    about where links lead: "Top", "Comments" or the page's own title link would otherwise
 *    become positives of every on-topic page. Link URLs are normalised without their fragment
 *    (`normalizeUrl`), so the page URL is compared the same way.
 */
import type { LinkContext } from '../contexts/types.ts';
import type { Label, LabeledLink, Topic } from '../model/types.ts';
import { normalizeUrl } from '../urls/normalize-url.ts';
import { compileUrlPattern, matchesAny, type UrlMatcher } from '../urls/url-pattern.ts';

/** A topic's URL patterns, compiled. */
export interface TopicPatterns {
  positive: UrlMatcher[];
  negative: UrlMatcher[];
}

/** Which list a pattern came from: `positive` on topic, `negative` off topic. */
export type PatternSide = 'positive' | 'negative';

/** A pattern that does not compile; `message` is the compiler's reason, without the pattern. */
export class TopicPatternError extends Error {
  override readonly name = 'TopicPatternError';
  constructor(
    readonly side: PatternSide,
    readonly pattern: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Compiles a topic's patterns. A bad one throws `TopicPatternError` (callers at an edge reword
 * it for their user), or with `skipBad` is left out: a page being labelled should not fail for a
 * pattern that only a hand-edited file can carry, when the edges refuse it on entry.
 */
export function compileTopicPatterns(
  topic: Partial<Pick<Topic, 'positive' | 'negative'>>,
  { skipBad = false }: { skipBad?: boolean } = {},
): TopicPatterns {
  const compile = (side: PatternSide, patterns: readonly string[]) =>
    patterns.flatMap((pattern) => {
      try {
        return [compileUrlPattern(pattern)];
      } catch (error) {
        if (skipBad) return [];
        throw new TopicPatternError(side, pattern, (error as Error).message);
      }
    });
  return { positive: compile('positive', topic.positive ?? []), negative: compile('negative', topic.negative ?? []) };
}

/** Rule 3: whether the patterns label anything at all (they need an on-topic pattern). */
export function labelsAnything(patterns: TopicPatterns): boolean {
  return patterns.positive.length > 0;
}

/** The label the patterns give a target URL, or null when they say nothing (rules 1–3). */
export function patternLabel(url: string, patterns: TopicPatterns): Label | null {
  if (!labelsAnything(patterns)) return null;
  if (matchesAny(url, patterns.positive)) return 1;
  if (patterns.negative.length === 0 || matchesAny(url, patterns.negative)) return 0;
  return null;
}

/** Rule 4: whether a link leads back to the page it is on (a fragment of it included). */
export function isSelfLink({ url, pageUrl }: Pick<LinkContext, 'url' | 'pageUrl'>): boolean {
  return url === pageUrl || url === normalizeUrl(pageUrl, pageUrl);
}

/**
 * The labeled links a page's contexts yield: every context the patterns label, self-links
 * left out, in page order, stamped with `source` and `topic` (in a model file, the topic's id).
 */
export function labelContexts(
  contexts: readonly LinkContext[],
  patterns: TopicPatterns,
  { source, topic }: Pick<LabeledLink, 'source' | 'topic'>,
): LabeledLink[] {
  const links: LabeledLink[] = [];
  if (!labelsAnything(patterns)) return links;
  for (const context of contexts) {
    if (isSelfLink(context)) continue;
    const label = patternLabel(context.url, patterns);
    if (label === null) continue;
    const { url, pageUrl, anchor, before, after } = context;
    links.push({ url, pageUrl, anchor, before, after, label, source, topic });
  }
  return links;
}
