import { describe, expect, it } from 'vitest';
import { harvestCurve, targetRecall } from '../../../shared/metrics/harvest.ts';

describe('harvestCurve', () => {
  it('gives relevant / fetched after every page', () => {
    expect(harvestCurve([true, false, true, true]).rates).toEqual([1, 1 / 2, 2 / 3, 3 / 4]);
  });

  it('reports the requested checkpoints that the crawl reached, in the order asked', () => {
    const { checkpoints } = harvestCurve([true, false, true, true], [4, 2, 10]);
    expect(checkpoints).toEqual([
      { pages: 4, relevant: 3, harvestRate: 0.75 },
      { pages: 2, relevant: 1, harvestRate: 0.5 },
    ]);
  });

  it('is empty for an empty crawl and rejects a checkpoint that is not a positive integer', () => {
    expect(harvestCurve([], [1])).toEqual({ rates: [], checkpoints: [] });
    expect(() => harvestCurve([true], [0])).toThrow(RangeError);
    expect(() => harvestCurve([true], [1.5])).toThrow(RangeError);
  });
});

describe('targetRecall', () => {
  it('gives the share of distinct targets fetched after every fetch', () => {
    const result = targetRecall(['a', 'x', 'b', 'a', 'c'], ['a', 'b', 'c', 'd']);
    expect(result).toEqual({ curve: [0.25, 0.25, 0.5, 0.5, 0.75], found: 3, targets: 4, recall: 0.75 });
  });

  it('is 0 with no targets', () => {
    expect(targetRecall(['a', 'b'], [])).toEqual({ curve: [0, 0], found: 0, targets: 0, recall: 0 });
  });
});
