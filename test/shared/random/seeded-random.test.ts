import { describe, expect, it } from 'vitest';
import { seededRandom, seededShuffle } from '../../../shared/random/seeded-random.ts';

describe('seededRandom', () => {
  it('gives the same numbers for the same seed, in [0, 1), spread evenly', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const draws = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(draws);
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    // Ten equal bins of 1,000 expected each; a badly mixed generator piles into a few.
    const bins = new Array<number>(10).fill(0);
    for (const x of draws) bins[Math.floor(x * 10)]! += 1;
    expect(Math.min(...bins)).toBeGreaterThan(900);
    expect(Math.max(...bins)).toBeLessThan(1100);
    expect(seededRandom(43)()).not.toBe(seededRandom(42)());
  });

  it('shuffles with a seed or with a generator drawn on, leaving the input as it was', () => {
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(seededShuffle(items, 9)).toEqual(seededShuffle(items, seededRandom(9)));
    expect(items).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
