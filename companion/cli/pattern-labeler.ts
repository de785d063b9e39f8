/**
 * Seed 000 §3.2.2's automatic labelling: a link's label comes from its target URL alone.
 *
 * Positive wins: a URL that matches both a positive and a negative pattern is positive. The
 * positive patterns are the user's list of on-topic sites, named one by one; the negative ones
 * are usually broad ("everything else on this portal"), so an overlap means "this part of the
 * broad site is on topic". With no negative pattern, every non-positive link is negative;
 * with some, a link matching neither is left unlabeled (null) rather than guessed.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import { compileUrlPattern, matchesAny, type UrlMatcher } from '../../shared/urls/url-pattern.ts';
import type { Label, LabeledLink } from '../../shared/model/types.ts';
import { UsageError } from './errors.ts';

export type PatternLabeler = (url: string) => Label | null;

function compileAll(flag: string, patterns: readonly string[]): UrlMatcher[] {
  return patterns.map((pattern) => {
    try {
      return compileUrlPattern(pattern);
    } catch (error) {
      throw new UsageError(`--${flag} "${pattern}": ${(error as Error).message}`);
    }
  });
}

/** Compiles the patterns (a bad one is a `UsageError` naming its flag) into a labeler. */
export function createPatternLabeler(positive: readonly string[], negative: readonly string[]): PatternLabeler {
  const positives = compileAll('positive', positive);
  const negatives = compileAll('negative', negative);
  return (url) => {
    if (matchesAny(url, positives)) return 1;
    if (negatives.length === 0 || matchesAny(url, negatives)) return 0;
    return null;
  };
}

/** The labeled links a page's contexts yield under `label`; contexts it says nothing of are left out. */
export function labelContexts(
  contexts: readonly LinkContext[],
  label: PatternLabeler,
  { source, topic }: Pick<LabeledLink, 'source' | 'topic'>,
): LabeledLink[] {
  const links: LabeledLink[] = [];
  for (const { url, pageUrl, anchor, before, after } of contexts) {
    const value = label(url);
    if (value !== null) links.push({ url, pageUrl, anchor, before, after, label: value, source, topic });
  }
  return links;
}
