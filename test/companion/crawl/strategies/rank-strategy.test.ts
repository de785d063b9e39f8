import { describe, expect, it } from 'vitest';
import type { LinkContext } from '../../../../shared/contexts/types.ts';
import type { PageSegments } from '../../../../shared/segments/types.ts';
import { createStrategy, StrategyConfigError } from '../../../../companion/crawl/strategies/index.ts';
import { createIPageRankStrategy, createPageRankStrategy, rankPriority } from '../../../../companion/crawl/strategies/rank-strategy.ts';
import { createRwRelevance } from '../../../../companion/crawl/strategies/rw-relevance.ts';
import { parseSynonymList } from '../../../../companion/crawl/strategies/synonym-list.ts';

const spaces = { tokenize: (text: string) => text.split(/\s+/).filter((w) => w !== '') };
const page = (url: string): PageSegments => ({ pageUrl: url, baseUrl: url, title: '', description: '', keywords: '', robots: { noindex: false, nofollow: false }, segments: [] });
const link = (pageUrl: string, url: string, anchor: string): LinkContext => ({ url, pageUrl, anchor, before: '', after: '' });
const parent = (url: string) => ({ url, page: page(url), depth: 0, score: 1 });

describe('ipagerank and pagerank strategies (seed 003 formulas 3 and 2)', () => {
  const relevance = createRwRelevance({ tokenizer: spaces, topic: '股票', synonyms: parseSynonymList('0.5: 股票 股市\n', 's'), threshold: 0 });

  it('queues a link with its target\'s IPageRank as x / (1 + x), the link weighted by RW', () => {
    const s = createIPageRankStrategy(relevance, { damping: 0.5, epsilon: 1e-12 });
    // The seed S links 股票 → A, 股市 → B, 天气 → C, and itself (left out: k = 3).
    const scores = s.scoreLinks(parent('S'), [link('S', 'A', '股票'), link('S', 'B', '股市'), link('S', 'C', '天气'), link('S', 'S', '首页')]);
    // x_S = ½; x_A = ½ + ½·1·½/3 = 7/12; x_B = ½ + ½·½·½/3 = 13/24; x_C = ½ (RW 0).
    expect(scores).toEqual([rankPriority(7 / 12), rankPriority(13 / 24), rankPriority(1 / 2), rankPriority(1 / 2)].map((x) => expect.closeTo(x, 12)));
    expect(rankPriority(7 / 12)).toBeCloseTo(7 / 19, 12);
    expect(s.seedScore).toBe(1);
  });

  it('hands the crawl the queued URLs whose rank moved, every `every` pages', () => {
    const s = createPageRankStrategy({ damping: 0.5, epsilon: 1e-12, every: 2 });
    s.scoreLinks(parent('S'), [link('S', 'A', ''), link('S', 'B', '')]);
    expect(s.refresh!()).toBeUndefined(); // one page: not due
    // A is fetched and links to B: B's rank rises from ½ + ½·½/2 = 5/8 by ½·x_A/1 = ½·(5/8).
    s.scoreLinks(parent('A'), [link('A', 'B', '')]);
    const moved = s.refresh!()!;
    // S and A are fetched (not queued): only B is handed back.
    expect(moved).toEqual([{ url: 'B', score: expect.closeTo(rankPriority(5 / 8 + 5 / 16), 12) }]);
    expect(s.refresh!()).toBeUndefined();
  });

  it('is in the registry, with the topic rw and ipagerank need', () => {
    expect(createStrategy('pagerank').name).toBe('pagerank');
    expect(createStrategy('ipagerank', { tokenizer: spaces, topicText: '股票' }).name).toBe('ipagerank');
    expect(createStrategy('rw', { tokenizer: spaces, topicText: '股票' }).scoreLinks(parent('S'), [link('S', 'A', '股票 天气')])).toEqual([0.5]);
    expect(() => createStrategy('ipagerank', { tokenizer: spaces })).toThrow(StrategyConfigError);
    expect(() => createStrategy('rw', { tokenizer: spaces })).toThrow('strategy rw needs a topic (--topic "keywords…", --topic-file FILE or --topic-dir DIR --topic-name NAME)');
    expect(() => createStrategy('rw', { tokenizer: spaces, topicText: 'a', rwThreshold: -1 })).toThrow('rw: threshold must lie in [0, 1], got -1');
  });
});
