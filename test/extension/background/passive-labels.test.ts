import { describe, expect, it } from 'vitest';
import { passiveExamples, passivePatterns } from '../../../extension/background/passive-labels.ts';
import type { Topic } from '../../../shared/model/types.ts';

// The rules themselves are tested with the one labeler (test/shared/labels/pattern-labels.test.ts);
// here, what the background adds: source 'pattern', the topic's id, and lenience to bad patterns.
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

  it('labels nothing for a topic without on-topic patterns', () => {
    expect(passiveExamples({ ...topic, positive: [], negative: ['x.org'] }, [link('https://x.org/'), link('https://y.org/')])).toEqual([]);
  });

  it('skips a pattern that does not compile instead of failing the page', () => {
    const patterns = passivePatterns({ positive: ['  ', 'finance.example.org'], negative: [] });
    expect(patterns.positive).toHaveLength(1);
    expect(passiveExamples({ ...topic, positive: ['  ', 'finance.example.org'] }, [link('https://finance.example.org/2')])).toHaveLength(1);
  });
});
