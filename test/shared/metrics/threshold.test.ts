import { describe, expect, it } from 'vitest';
import { calibrateThreshold, type ScoredExample } from '../../../shared/metrics/threshold.ts';

const ex = (p: number, label: 0 | 1): ScoredExample => ({ p, label });

/**
 * Ten held-out examples, two on topic in ten (imbalanced), worked by hand:
 *   p     0.95 0.9 0.8 0.7 0.6 0.4 0.3 0.2 0.1 0.05
 *   label  1   0   1   0   0   0   0   0   0   0  ... plus one positive at 0.3
 */
const examples = [ex(0.95, 1), ex(0.9, 0), ex(0.8, 1), ex(0.7, 0), ex(0.6, 0), ex(0.4, 0), ex(0.3, 1), ex(0.2, 0), ex(0.1, 0), ex(0.05, 0)];

describe('calibrateThreshold', () => {
  it('picks the F1-best cut: the top three (tp 2, fp 1, fn 1, F1 = 4/6) beats every other', () => {
    // cut after 1: F1 = 2/(2+0+2) = 0.5; after 3: 4/(4+1+1) = 0.667; after 7: 6/(6+4+0) = 0.6.
    const calibration = calibrateThreshold(examples)!;
    expect(calibration.f1).toBeCloseTo(4 / 6, 12);
    expect(calibration.precision).toBeCloseTo(2 / 3, 12);
    expect(calibration.recall).toBeCloseTo(2 / 3, 12);
    // Halfway between the lowest accepted (0.8) and the highest rejected (0.7) score.
    expect(calibration.threshold).toBeCloseTo(0.75, 12);
    // Specificity 6/7 (one of the seven negatives accepted): balanced accuracy (2/3 + 6/7) / 2.
    expect(calibration.balancedAccuracy).toBeCloseTo((2 / 3 + 6 / 7) / 2, 12);
    expect(calibration).toMatchObject({ n: 10, positives: 3, reached: true });
  });

  it('for a target precision, takes the lowest cut that reaches it (the most recall at that precision)', () => {
    const one = calibrateThreshold(examples, { kind: 'precision', precision: 0.9 })!;
    expect(one).toMatchObject({ precision: 1, reached: true });
    expect(one.recall).toBeCloseTo(1 / 3, 12);
    expect(one.threshold).toBeGreaterThan(0.9);
    const lower = calibrateThreshold(examples, { kind: 'precision', precision: 0.6 })!;
    expect(lower.precision).toBeCloseTo(2 / 3, 12);
    expect(lower.recall).toBeCloseTo(2 / 3, 12);
  });

  it('says when no cut reaches the target, and gives the most precise one', () => {
    const calibration = calibrateThreshold([ex(0.9, 0), ex(0.8, 1), ex(0.1, 0)], { kind: 'precision', precision: 0.99 })!;
    expect(calibration.reached).toBe(false);
    expect(calibration.precision).toBe(0.5);
  });

  it('accepts or rejects equal scores together', () => {
    const calibration = calibrateThreshold([ex(0.7, 1), ex(0.7, 0), ex(0.7, 1), ex(0.2, 0)])!;
    expect(calibration.precision).toBeCloseTo(2 / 3, 12);
    expect(calibration.threshold).toBeLessThanOrEqual(0.7);
    expect(calibration.threshold).toBeGreaterThan(0.2);
  });

  it('puts the cut between separated classes halfway in probability, not near the negatives', () => {
    // Naive Bayes scores: on-topic 0.9 and up, off-topic 1e-30 and below. A log-odds midpoint
    // would be about 1e-14, lighting every link scored anything but 0.
    const calibration = calibrateThreshold([ex(0.999, 1), ex(0.9, 1), ex(1e-30, 0), ex(1e-40, 0)])!;
    expect(calibration.threshold).toBeCloseTo(0.45, 12);
  });

  it('keeps the threshold strictly inside (0, 1) when scores are exactly 0 and 1', () => {
    const calibration = calibrateThreshold([ex(1, 1), ex(1, 1), ex(0, 0)])!;
    expect(calibration.threshold).toBeGreaterThan(0);
    expect(calibration.threshold).toBeLessThan(1);
    expect(calibration.f1).toBe(1);
  });

  it('cannot calibrate on one class only', () => {
    expect(calibrateThreshold([ex(0.9, 0), ex(0.1, 0)])).toBeNull();
    expect(calibrateThreshold([])).toBeNull();
    expect(() => calibrateThreshold(examples, { kind: 'precision', precision: 1 })).toThrow(/target precision/);
  });
});
