/**
 * What a crawl started with a model adds to the plain crawl (docs/service-api.md "Harvest" and
 * "Labels learned"), as crawl hooks and a page judge:
 *
 * - **Harvest judge.** A page is on topic when its final URL matches the topic's on-topic URL
 *   patterns: seed 000's labelling rule, the same judge `collect` labels with. A topic without
 *   patterns falls back to the link model: the page is on topic when the model scored the link
 *   that led to it (its frontier score, under nb) at or above the topic's threshold.
 * - **Learned labels.** Every link context the crawl meets whose URL the topic's patterns label
 *   (`shared/labels/`, the rules `collect` and the extension label by) is stored in the crawl's
 *   `labeled_links` table with source `crawl`.
 */
import type { LabeledLink, Topic } from '../../shared/model/types.ts';
import { compileTopicPatterns, labelContexts, labelsAnything, TopicPatternError } from '../../shared/labels/pattern-labels.ts';
import { matchesAny } from '../../shared/urls/url-pattern.ts';
import type { CrawlHooks } from '../crawl/crawl-hooks.ts';
import type { PageJudge } from '../crawl/crawl-options.ts';

export interface TopicCrawlParts {
  hooks: CrawlHooks[];
  pageJudge?: PageJudge;
  relevanceThreshold?: number;
}

export interface TopicCrawlInput {
  /** The crawl's topic, when it was started with a model. */
  topic: Topic | null;
  /** Whether frontier scores are the link model's P(+) (strategy nb). */
  scoresAreModel: boolean;
  /** Stores labeled links (the crawl's `labeled_links`). */
  addLabels(links: LabeledLink[]): void;
}

/** Checks a topic's URL patterns; the message names the bad one. */
export function checkTopicPatterns(topic: Topic): string | undefined {
  try {
    compileTopicPatterns(topic);
    return undefined;
  } catch (error) {
    if (!(error instanceof TopicPatternError)) throw error;
    const kind = error.side === 'positive' ? 'on-topic' : 'off-topic';
    return `topic "${topic.name}" has a bad ${kind} URL pattern ${JSON.stringify(error.pattern)}: ${error.message}`;
  }
}

export function topicCrawlParts(input: TopicCrawlInput): TopicCrawlParts {
  const hooks: CrawlHooks[] = [];
  const { topic } = input;
  if (topic === null) return { hooks };

  const patterns = compileTopicPatterns(topic); // checked when the crawl was asked for
  if (labelsAnything(patterns)) {
    hooks.push({
      afterParse({ contexts }) {
        // In the model file an example's topic is its topic's id (the examples table's key).
        const links = labelContexts(contexts, patterns, { source: 'crawl', topic: topic.id });
        if (links.length > 0) input.addLabels(links);
      },
    });
    // The pattern judge says 1 or 0, so a page is relevant exactly when it says 1.
    return { hooks, pageJudge: (page) => (matchesAny(page.pageUrl, patterns.positive) ? 1 : 0), relevanceThreshold: 1 };
  }

  if (!input.scoresAreModel) return { hooks }; // bfs scores are −depth, not P(+): no judge
  // The judge sees the parsed page, not its frontier row: remember each page's score from
  // afterParse (which runs before the judge for the same page) under the URL the page carries.
  const scores = new Map<string, number>();
  hooks.push({
    afterParse({ task, fetched }) {
      scores.set(fetched.finalUrl, task.score);
    },
  });
  return {
    hooks,
    pageJudge(page) {
      const score = scores.get(page.pageUrl) ?? 0;
      scores.delete(page.pageUrl);
      return Math.min(1, Math.max(0, score));
    },
    relevanceThreshold: topic.threshold,
  };
}
