import { describe, expect, it } from 'vitest';
import { dedupeExamples, seededShuffle, splitExamples } from '../../../companion/cli/link-training.ts';
import { createPatternLabeler } from '../../../companion/cli/pattern-labeler.ts';
import { parseLabeledJsonl } from '../../../companion/cli/labeled-jsonl.ts';
import type { LabeledLink } from '../../../shared/model/types.ts';

const link = (anchor: string, label: 0 | 1, url = 'http://a.cn/x'): LabeledLink => ({
  url, pageUrl: 'http://a.cn/', anchor, before: '', after: '', label, source: 'pattern', topic: 't',
});

describe('the eval split', () => {
  const items = Array.from({ length: 100 }, (_, i) => i);

  it('shuffles into a permutation, the same one for the same seed and another for another seed', () => {
    const a = seededShuffle(items, 1);
    expect([...a].sort((x, y) => x - y)).toEqual(items);
    expect(seededShuffle(items, 1)).toEqual(a);
    expect(seededShuffle(items, 2)).not.toEqual(a);
    expect(a).not.toEqual(items);
  });

  it('cuts round(n·fraction) for training and keeps the rest apart for testing', () => {
    const { train, test } = splitExamples(items, 0.7, 3);
    expect(train).toHaveLength(70);
    expect(test).toHaveLength(30);
    expect(new Set([...train, ...test]).size).toBe(100);
  });
});

describe('dedupeExamples', () => {
  it('keeps the first of a repeated context and counts repeats and label conflicts', () => {
    const { examples, duplicates, conflicts } = dedupeExamples([link('股票', 1), link('股票', 1), link('股票', 0), link('足球', 0)]);
    expect(examples.map((e) => [e.anchor, e.label])).toEqual([['股票', 1], ['足球', 0]]);
    expect(duplicates).toBe(1);
    expect(conflicts).toBe(1);
  });
});

describe('createPatternLabeler (seed 000 §3.2.2)', () => {
  it('without negatives, everything not positive is negative', () => {
    const label = createPatternLabeler(['finance.example.cn'], []);
    expect(label('http://www.finance.example.cn/a')).toBe(1);
    expect(label('http://sports.example.cn/a')).toBe(0);
  });

  it('with negatives, positive wins an overlap and an unmatched link is left out', () => {
    const label = createPatternLabeler(['example.cn/finance/*'], ['example.cn', 'other.cn/news/*']);
    expect(label('http://example.cn/finance/1.html')).toBe(1);
    expect(label('http://example.cn/sports/1.html')).toBe(0);
    expect(label('http://third.cn/')).toBeNull();
  });

  it('names the flag of a bad pattern', () => {
    expect(() => createPatternLabeler(['  '], [])).toThrow(/^--positive "  ": URL pattern is empty/);
  });
});

describe('parseLabeledJsonl', () => {
  it('defaults optional fields and names each bad line by file and number', () => {
    const text = ['{"url":"http://a/","anchor":"股票","label":1}', '[1]', '{"url":"http://a/","anchor":"x","label":1,"before":3}', '{"url'].join('\n');
    const { examples, problems } = parseLabeledJsonl(text, 'f.jsonl');
    expect(examples).toEqual([{ url: 'http://a/', pageUrl: '', anchor: '股票', before: '', after: '', label: 1, source: 'pattern', topic: '' }]);
    expect(problems).toEqual(['f.jsonl:2: not a JSON object', 'f.jsonl:3: field "before" must be a string', 'f.jsonl:4: not JSON']);
  });
});
