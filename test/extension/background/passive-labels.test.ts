import { describe, expect, it } from 'vitest';
import { compileTopicPatterns, passiveExamples, patternLabel } from '../../../extension/background/passive-labels.ts';
import type { Topic } from '../../../shared/model/types.ts';

const topic: Topic = {
  id: 't1',
  name: 'finance',
  lexicon: [],
  positive: ['finance.example.org', 'news.example.com/money/*'],
  negative: [],
  threshold: 0.5,
  featureGroup: 2,
  form: 'bernoulli',
  window: 80,
};

const link = (url: string, anchor = 'a') => ({ url, pageUrl: 'https://portal.example.net/', anchor, before: 'b', after: 'c' });

describe('passive labeling', () => {
  it('labels links into on-topic sites 1 and, with no off-topic patterns, every other link 0', () => {
    const matchers = compileTopicPatterns(topic);
    expect(patternLabel('https://finance.example.org/stocks', matchers)).toBe(1);
    expect(patternLabel('https://www.finance.example.org/', matchers)).toBe(1);
    expect(patternLabel('http://news.example.com/money/today.html', matchers)).toBe(1);
    expect(patternLabel('http://news.example.com/sport/today.html', matchers)).toBe(0);
    expect(patternLabel('https://xfinance.example.org/', matchers)).toBe(0);
  });

  it('labels only links matching an off-topic pattern 0 when there are off-topic patterns', () => {
    const matchers = compileTopicPatterns({ ...topic, negative: ['sport.example.com'] });
    expect(patternLabel('https://sport.example.com/x', matchers)).toBe(0);
    expect(patternLabel('https://other.example.com/x', matchers)).toBeNull();
    expect(patternLabel('https://finance.example.org/', matchers)).toBe(1);
  });

  it('labels nothing when the topic has no on-topic pattern', () => {
    expect(patternLabel('https://finance.example.org/', compileTopicPatterns({ positive: [], negative: ['x.org'] }))).toBeNull();
  });

  it('turns a batch of contexts into labeled examples of source "pattern", skipping self-links', () => {
    const examples = passiveExamples(topic, [
      link('https://finance.example.org/1', '股票'),
      link('https://portal.example.net/'),
      link('https://weather.example.net/'),
    ]);
    expect(examples).toEqual([
      { url: 'https://finance.example.org/1', pageUrl: 'https://portal.example.net/', anchor: '股票', before: 'b', after: 'c', label: 1, source: 'pattern', topic: 't1' },
      { url: 'https://weather.example.net/', pageUrl: 'https://portal.example.net/', anchor: 'a', before: 'b', after: 'c', label: 0, source: 'pattern', topic: 't1' },
    ]);
  });

  it('skips a pattern that does not compile instead of failing the page', () => {
    const matchers = compileTopicPatterns({ positive: ['  ', 'finance.example.org'], negative: [] });
    expect(matchers.positive).toHaveLength(1);
  });
});
