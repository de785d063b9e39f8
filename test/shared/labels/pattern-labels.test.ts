import { describe, expect, it } from 'vitest';
import { compileTopicPatterns, isSelfLink, labelContexts, patternLabel, TopicPatternError } from '../../../shared/labels/index.ts';
import type { LinkContext } from '../../../shared/contexts/types.ts';

const finance = { positive: ['finance.example.org', 'news.example.com/money/*'], negative: [] };
const context = (url: string, pageUrl = 'https://portal.example.net/', anchor = 'a'): LinkContext => ({ url, pageUrl, anchor, before: 'b', after: 'c' });

describe('patternLabel (seed 000 §3.2.2)', () => {
  it('labels links into on-topic sites 1 and, with no off-topic pattern, every other link 0', () => {
    const patterns = compileTopicPatterns(finance);
    expect(patternLabel('https://finance.example.org/stocks', patterns)).toBe(1);
    expect(patternLabel('https://www.finance.example.org/', patterns)).toBe(1);
    expect(patternLabel('http://news.example.com/money/today.html', patterns)).toBe(1);
    expect(patternLabel('http://news.example.com/sport/today.html', patterns)).toBe(0);
    expect(patternLabel('https://xfinance.example.org/', patterns)).toBe(0);
  });

  it('with off-topic patterns: positive wins an overlap, off-topic is 0, a link matching neither is left out', () => {
    const patterns = compileTopicPatterns({ positive: ['example.cn/finance/*'], negative: ['example.cn', 'other.cn/news/*'] });
    expect(patternLabel('http://example.cn/finance/1.html', patterns)).toBe(1);
    expect(patternLabel('http://example.cn/sports/1.html', patterns)).toBe(0);
    expect(patternLabel('http://other.cn/news/1.html', patterns)).toBe(0);
    expect(patternLabel('http://third.cn/', patterns)).toBeNull();
  });

  it('labels nothing without an on-topic pattern, with or without off-topic ones', () => {
    for (const negative of [[], ['x.org']]) {
      const patterns = compileTopicPatterns({ positive: [], negative });
      expect(patternLabel('https://x.org/', patterns)).toBeNull();
      expect(patternLabel('https://finance.example.org/', patterns)).toBeNull();
      expect(labelContexts([context('https://x.org/')], patterns, { source: 'crawl', topic: 't' })).toEqual([]);
    }
  });
});

describe('self-links', () => {
  it('are links to the page itself, a #fragment of it included, but not to another path or query', () => {
    expect(isSelfLink(context('https://portal.example.net/'))).toBe(true);
    // Link URLs are normalised without their fragment; the page URL (location.href) may keep one.
    expect(isSelfLink(context('https://portal.example.net/a', 'https://portal.example.net/a#top'))).toBe(true);
    expect(isSelfLink(context('https://portal.example.net/a?page=2', 'https://portal.example.net/a'))).toBe(false);
    expect(isSelfLink(context('https://portal.example.net/b', 'https://portal.example.net/a'))).toBe(false);
  });
});

describe('labelContexts', () => {
  it('turns a page of contexts into labeled links in page order, stamped with source and topic, self-links skipped', () => {
    const patterns = compileTopicPatterns({ ...finance, negative: ['sport.example.com'] });
    const links = labelContexts(
      [
        context('https://finance.example.org/1', 'https://finance.example.org/1#comments'),
        context('https://finance.example.org/2', 'https://finance.example.org/1#comments', '股票'),
        context('https://portal.example.net/'),
        context('https://weather.example.net/'),
        context('https://sport.example.com/x'),
      ],
      patterns,
      { source: 'crawl', topic: 't1' },
    );
    expect(links).toEqual([
      { url: 'https://finance.example.org/2', pageUrl: 'https://finance.example.org/1#comments', anchor: '股票', before: 'b', after: 'c', label: 1, source: 'crawl', topic: 't1' },
      { url: 'https://sport.example.com/x', pageUrl: 'https://portal.example.net/', anchor: 'a', before: 'b', after: 'c', label: 0, source: 'crawl', topic: 't1' },
    ]);
  });
});

describe('compileTopicPatterns', () => {
  it('names the side and the pattern of one that does not compile', () => {
    let caught: unknown;
    try {
      compileTopicPatterns({ positive: ['ok.example.org'], negative: ['exa mple.org'] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TopicPatternError);
    expect(caught).toMatchObject({ side: 'negative', pattern: 'exa mple.org', message: expect.stringMatching(/not a valid host name/) });
  });

  it('with skipBad, leaves the bad pattern out and keeps the others', () => {
    const patterns = compileTopicPatterns({ positive: ['  ', 'finance.example.org'], negative: [] }, { skipBad: true });
    expect(patterns.positive).toHaveLength(1);
    expect(patternLabel('https://finance.example.org/', patterns)).toBe(1);
  });
});
