/**
 * `bfs`: breadth-first. A link's priority is −(its depth), so shallower pages are crawled
 * sooner; within one depth the frontier's tie-break (discovery order) makes it FIFO. Seeds are
 * depth 0 and score 0. Because a URL met again keeps its highest score, a URL first found deep
 * and later found shallow moves up to the shallower level, as breadth-first requires.
 */
import type { CrawlStrategy } from './crawl-strategy.ts';

export function createBfsStrategy(): CrawlStrategy {
  return {
    name: 'bfs',
    seedScore: 0,
    scoreLinks: (parent, links) => links.map(() => -(parent.depth + 1)),
    scoresLinksAlone: true,
  };
}
