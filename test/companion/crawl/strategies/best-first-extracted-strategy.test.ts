import { describe, expect, it } from 'vitest';
import type { LinkContext } from '../../../../shared/contexts/types.ts';
import { parseKnowledgeBase } from '../../../../shared/features/knowledge-base.ts';
import { segmentsFromHtml } from '../../../../shared/segments/from-html.ts';
import type { Tokenizer } from '../../../../shared/tokens/types.ts';
import { createBestFirstExtractedStrategy } from '../../../../companion/crawl/strategies/best-first-extracted-strategy.ts';
import { createBestFirstStrategy } from '../../../../companion/crawl/strategies/best-first-strategy.ts';

/** Words split at white space and , . — the numbers below are worked out by hand with it. */
const words: Tokenizer = { tokenize: (text) => text.split(/[\s,.]+/u).filter((word) => word !== '') };
const pageUrl = 'http://x.test/news/a.html';
const page = segmentsFromHtml(
  '<title>news</title><ul><li><a href="/news/b.html">rocket</a></li></ul><p>the missile flew, fast.</p><div>rocket rocket rocket</div>',
  pageUrl,
);
const child: LinkContext = { url: 'http://x.test/news/b.html', pageUrl, anchor: 'rocket', before: '', after: '' };
const score = (strategy: ReturnType<typeof createBestFirstStrategy>) => strategy.scoreLinks({ url: pageUrl, page, depth: 0, score: 1 }, [child])[0]!;

/*
 * Extraction (seed 004 §3.4) keeps the title "news" and the p "the missile flew, fast." (it has
 * punctuation); the li holds only a link (its text goes), the div is not a p/li/td/h1 block.
 * Parent vector {news, the, missile, flew, fast}, 1 each, length √5. The child is under the
 * parent's directory /news/: k = 1. α = 0.6, β = 0.4.
 */
describe('best-first-extracted (seed 004: extraction, knowledge-base expansion, eq. 5-4)', () => {
  it('expands the topic from the knowledge base: missile → {missile, rocket}', () => {
    // sim(parent, topic′) = 1 / (√5·√2) = 0.3162; sim("rocket", topic′) = 1/√2 = 0.7071;
    // v = 0.6·2·0.3162 + 0.4·0.7071 = 0.3795 + 0.2828 = 0.6623.
    const base = parseKnowledgeBase('missile: rocket\n', 'kb');
    expect(score(createBestFirstExtractedStrategy({ tokenizer: words, topic: 'missile', knowledgeBase: base }))).toBeCloseTo(0.6623, 4);
  });

  it('without a knowledge base is best-first over the extracted content', () => {
    // topic {missile}: sim(parent) = 1/√5 = 0.4472, sim("rocket") = 0; v = 1.2·0.4472 = 0.5367.
    expect(score(createBestFirstExtractedStrategy({ tokenizer: words, topic: 'missile' }))).toBeCloseTo(0.5367, 4);
    // Plain best-first reads every word, the nav anchor and the div too: {news, rocket: 4, the,
    // missile, flew, fast}, length √21; v = 1.2 / √21 = 0.2619.
    expect(score(createBestFirstStrategy({ tokenizer: words, topic: 'missile' }))).toBeCloseTo(0.2619, 4);
  });

  it('runs under its own name and says so in its errors', () => {
    const strategy = createBestFirstExtractedStrategy({ tokenizer: words, topic: 'missile' });
    expect(strategy.name).toBe('best-first-extracted');
    expect(strategy.seedScore).toBe(1.6);
    expect(() => createBestFirstExtractedStrategy({ tokenizer: words, topic: ' ' })).toThrow('best-first-extracted: the topic text has no words');
  });
});
