import { describe, expect, it } from 'vitest';
import { countTokens, klDivergence } from '../../../shared/metrics/kl-divergence.ts';

describe('klDivergence (Han et al. 2010 §3.2.1, eqs. 3–5)', () => {
  it('is 0 for identical or proportional distributions', () => {
    const counts = new Map([['股票', 5], ['基金', 3], ['新闻', 7]]);
    expect(klDivergence(counts, counts).divergence).toBe(0);
    const doubled = new Map([...counts].map(([w, c]) => [w, 2 * c] as [string, number]));
    expect(klDivergence(counts, doubled).divergence).toBeCloseTo(0, 12);
  });

  it('matches a hand-computed two-word case, in nats and in bits', () => {
    // P_link = (3/4, 1/4), P_page = (1/2, 1/2): KL = 3/4·ln(3/2) + 1/4·ln(1/2) ≈ 0.130812
    const link = new Map([['x', 3], ['y', 1]]);
    const page = new Map([['x', 1], ['y', 1]]);
    const expected = 0.75 * Math.log(1.5) + 0.25 * Math.log(0.5);
    expect(expected).toBeCloseTo(0.130812, 6);
    expect(klDivergence(link, page).divergence).toBeCloseTo(expected, 12);
    expect(klDivergence(link, page, { base: 2 }).divergence).toBeCloseTo(expected / Math.LN2, 12);
    // Not symmetric: KL(P_page ‖ P_link) = 1/2·ln(2/3) + 1/2·ln 2 ≈ 0.143841
    expect(klDivergence(page, link).divergence).toBeCloseTo(0.5 * Math.log(2 / 3) + 0.5 * Math.log(2), 12);
  });

  it('keeps only shared words and renormalises over them', () => {
    const link = new Map([['x', 3], ['y', 1], ['only-link', 100], ['zero', 0]]);
    const page = new Map([['x', 1], ['y', 1], ['only-page', 50], ['zero', 4]]);
    const result = klDivergence(link, page);
    expect(result.divergence).toBeCloseTo(0.75 * Math.log(1.5) + 0.25 * Math.log(0.5), 12);
    expect({ linkWords: result.linkWords, pageWords: result.pageWords, sharedWords: result.sharedWords }).toEqual({
      linkWords: 3,
      pageWords: 4,
      sharedWords: 2,
    });
  });

  it('refuses collections with no shared word, negative counts and bad bases', () => {
    expect(() => klDivergence(new Map([['a', 1]]), new Map([['b', 1]]))).toThrow(RangeError);
    expect(() => klDivergence(new Map([['a', -1]]), new Map([['a', 1]]))).toThrow(RangeError);
    expect(() => klDivergence(new Map([['a', 1]]), new Map([['a', 1]]), { base: 1 })).toThrow(RangeError);
  });
});

describe('countTokens', () => {
  it('counts occurrences', () => {
    expect(countTokens(['a', 'b', 'a'])).toEqual(new Map([['a', 2], ['b', 1]]));
  });
});
