import { describe, expect, it } from 'vitest';
import { informationGain, topFeatures } from '../../../companion/page-classifier/information-gain.ts';

describe('informationGain (seed 004 eq. 4-1)', () => {
  // Four pages, two per class. "股票" is in both finance pages only; "比赛" in one sports page;
  // "新闻" everywhere; "基金" in one finance and one sports page.
  const documents = [
    { features: ['股票', '新闻', '基金'], label: 1 as const },
    { features: ['股票', '新闻'], label: 1 as const },
    { features: ['比赛', '新闻', '基金'], label: 0 as const },
    { features: ['新闻'], label: 0 as const },
  ];
  const gains = informationGain(documents);

  it('a feature that splits the classes perfectly gains H(C) = 1 bit', () => {
    expect(gains.get('股票')).toBeCloseTo(1, 12);
  });

  it('a feature present everywhere, or spread evenly over the classes, gains nothing', () => {
    expect(gains.get('新闻')).toBeCloseTo(0, 12);
    expect(gains.get('基金')).toBeCloseTo(0, 12);
  });

  it('matches the worked fraction for a feature in one negative page', () => {
    // P(t) = 1/4 with H(C|t) = 0; P(t̄) = 3/4 with classes 2:1, H = log2 3 − 2/3.
    const expected = 1 - (3 / 4) * (Math.log2(3) - 2 / 3);
    expect(gains.get('比赛')).toBeCloseTo(expected, 12);
  });

  it('counts presence, not frequency: a repeated feature counts once per document', () => {
    const repeated = informationGain([
      { features: ['a', 'a', 'a'], label: 1 },
      { features: ['b'], label: 0 },
    ]);
    expect(repeated.get('a')).toBeCloseTo(1, 12);
  });

  it('topFeatures keeps the K best, ties by name', () => {
    expect(topFeatures(gains, 2)).toEqual(['股票', '比赛']);
    expect(topFeatures(new Map([['b', 0.5], ['a', 0.5], ['c', 0.9]]), 3)).toEqual(['c', 'a', 'b']);
  });
});
