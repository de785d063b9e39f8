import { describe, expect, it } from 'vitest';
import { rocAuc } from '../../../shared/metrics/ranking.ts';

const pairs = (rows: [number, 0 | 1][]) => rows.map(([score, actual]) => ({ score, actual }));

describe('rocAuc', () => {
  it('is 1 for a perfect ranking, 0 for a reversed one, whatever the scores’ scale', () => {
    expect(rocAuc(pairs([[0.9, 1], [0.8, 1], [0.001, 0], [0.0001, 0]]))).toBe(1);
    expect(rocAuc(pairs([[0.1, 1], [0.9, 0]]))).toBe(0);
  });

  it('counts the ordered pairs by hand: 3 positives × 2 negatives, 4 of 6 pairs in order', () => {
    // positives 0.9, 0.4, 0.2; negatives 0.5, 0.1: (0.9>0.5, 0.9>0.1, 0.4>0.1, 0.2>0.1) = 4
    expect(rocAuc(pairs([[0.9, 1], [0.5, 0], [0.4, 1], [0.2, 1], [0.1, 0]]))).toBeCloseTo(4 / 6, 12);
  });

  it('counts a tie between the classes as half a pair', () => {
    expect(rocAuc(pairs([[0.5, 1], [0.5, 0]]))).toBe(0.5);
    // positive 0.7 above both negatives (2), positive 0.3 ties one (0.5) and is above none else
    expect(rocAuc(pairs([[0.7, 1], [0.3, 1], [0.3, 0], [0.2, 0]]))).toBeCloseTo(3.5 / 4, 12);
  });

  it('is null when a class is missing', () => {
    expect(rocAuc(pairs([[0.4, 1], [0.6, 1]]))).toBeNull();
    expect(rocAuc([])).toBeNull();
  });
});
