import { describe, expect, it } from 'vitest';
import { classificationMetrics } from '../../../shared/metrics/classification.ts';

type Pair = { predicted: 0 | 1; actual: 0 | 1 };
const repeat = (pair: Pair, times: number): Pair[] => Array.from({ length: times }, () => pair);

describe('classificationMetrics', () => {
  it('computes a hand-checked confusion matrix: tp 3, fp 1, fn 2, tn 4', () => {
    const pairs = [
      ...repeat({ predicted: 1, actual: 1 }, 3),
      ...repeat({ predicted: 1, actual: 0 }, 1),
      ...repeat({ predicted: 0, actual: 1 }, 2),
      ...repeat({ predicted: 0, actual: 0 }, 4),
    ];
    const m = classificationMetrics(pairs);
    expect({ tp: m.tp, fp: m.fp, fn: m.fn, tn: m.tn, n: m.n }).toEqual({ tp: 3, fp: 1, fn: 2, tn: 4, n: 10 });
    expect(m.precision).toBeCloseTo(3 / 4, 12);
    expect(m.recall).toBeCloseTo(3 / 5, 12);
    expect(m.f1).toBeCloseTo(2 / 3, 12); // 2·0.75·0.6 / 1.35
    expect(m.accuracy).toBeCloseTo(7 / 10, 12);
  });

  it('accepts any iterable, a generator included', () => {
    function* pairs(): Generator<Pair> {
      yield { predicted: 1, actual: 1 };
      yield { predicted: 0, actual: 1 };
    }
    expect(classificationMetrics(pairs())).toMatchObject({ tp: 1, fn: 1, precision: 1, recall: 0.5, n: 2 });
  });

  it('defines every 0/0 as 0', () => {
    expect(classificationMetrics([])).toEqual({ precision: 0, recall: 0, f1: 0, accuracy: 0, n: 0, tp: 0, fp: 0, tn: 0, fn: 0 });
    const allNegative = classificationMetrics(repeat({ predicted: 0, actual: 0 }, 3));
    expect(allNegative).toMatchObject({ precision: 0, recall: 0, f1: 0, accuracy: 1, tn: 3 });
  });
});
