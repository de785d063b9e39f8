/**
 * Which of a page's scored links go to the frontier, and with what entry.
 *
 * Not followed: every link of a page with `<meta name="robots" content="nofollow">`; a link
 * whose every occurrence on the page is `rel="nofollow"`; a link to the page itself; a link
 * deeper than maxDepth; a trap-shaped URL (`traps.ts`); a link to a host that reached its page
 * cap. A URL linked several times on one page enters once, with its highest score.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import { hostOf } from '../../shared/urls/normalize-url.ts';
import type { FrontierEntry } from '../store/records.ts';
import type { UrlTask } from './crawl-hooks.ts';
import type { CrawlOptions } from './crawl-options.ts';
import { trapReason } from './traps.ts';

export interface FollowResult {
  followed: boolean[];
  children: FrontierEntry[];
}

export function followLinks(
  task: UrlTask,
  finalUrl: string,
  page: PageSegments,
  contexts: readonly LinkContext[],
  scores: readonly number[],
  options: Pick<CrawlOptions, 'maxDepth' | 'traps'>,
  hostOpen: (host: string) => boolean,
  strategyName: string,
): FollowResult {
  if (scores.length !== contexts.length) {
    throw new Error(`strategy ${strategyName} gave ${scores.length} scores for ${contexts.length} links`);
  }
  const depth = task.depth + 1;
  if (page.robots.nofollow || depth > options.maxDepth) {
    return { followed: contexts.map(() => false), children: [] };
  }
  const followable = new Set<string>();
  for (const segment of page.segments) if (segment.kind === 'link' && !segment.nofollow) followable.add(segment.url);

  const best = new Map<string, FrontierEntry>();
  const followed = contexts.map((context, i) => {
    const score = scores[i]!;
    if (!Number.isFinite(score)) throw new Error(`strategy ${strategyName} gave a non-finite score (${score}) for ${context.url}`);
    const url = context.url;
    if (!followable.has(url) || url === finalUrl || url === task.url) return false;
    if (trapReason(url, options.traps) !== null) return false;
    const host = hostOf(url);
    if (host === '' || !hostOpen(host)) return false;
    const previous = best.get(url);
    if (!previous || score > previous.score) best.set(url, { url, score, depth, parent: finalUrl, host });
    return true;
  });
  return { followed, children: [...best.values()] };
}
