import { describe, expect, it } from 'vitest';
import { dedupeExamples, splitExamples } from '../../../companion/training/link-training.ts';
import { seededShuffle } from '../../../shared/random/seeded-random.ts';
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
