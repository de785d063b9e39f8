/**
 * Whether a fetched page is on topic: what exploit/explore (`strategies/nb-strategy.ts`), the
 * host budget (`host-budget.ts`) and online learning (`online-learning.ts`) act on, and the
 * `relevance` recorded in pages.jsonl. One rule, in this order:
 *
 *   1. the topic's URL patterns, when the model carries them (`train --positive`): 1 when the
 *      page's URL (or the URL it redirected to) matches, else 0 (seed 000 §3.2.2's labelling,
 *      applied to the pages themselves);
 *   2. else the page classifier, when one is given (`--page-model`): its relevance;
 *   3. else the link classifier's P(+) of the link that led to the page, when the strategy has
 *      one and the link's context was kept;
 *   4. else the page is not judged.
 */
import type { PageSegments } from '../../shared/segments/types.ts';
import type { LinkText } from '../store/records.ts';
import type { CrawlOptions } from './crawl-options.ts';

export interface JudgedTask {
  url: string;
  parent: string | null;
  context?: LinkText;
}

/** The page's relevance in [0, 1], or undefined when nothing can judge it. */
export async function judgePage(options: CrawlOptions, task: JudgedTask, finalUrl: string, page: PageSegments): Promise<number | undefined> {
  if (options.onTopicUrl) return options.onTopicUrl(finalUrl) || options.onTopicUrl(task.url) ? 1 : 0;
  if (options.pageJudge) {
    const relevance = await options.pageJudge(page);
    if (!(relevance >= 0 && relevance <= 1)) throw new Error(`the page judge returned ${relevance}, not a relevance in [0, 1]`);
    return relevance;
  }
  if (options.strategy.linkRelevance && task.context && task.parent !== null) {
    return options.strategy.linkRelevance({ ...task.context, url: task.url, pageUrl: task.parent });
  }
  return undefined;
}
