import { describe, expect, it } from 'vitest';
import { levelOf, verdictOf } from '../../../extension/worker/verdicts.ts';

describe('highlight levels', () => {
  it('is 0 below the threshold and 1..3 in equal steps above it', () => {
    expect(levelOf(0.49, 0.5)).toBe(0);
    expect(levelOf(0.5, 0.5)).toBe(1);
    expect(levelOf(0.66, 0.5)).toBe(1);
    expect(levelOf(0.67, 0.5)).toBe(2);
    expect(levelOf(0.84, 0.5)).toBe(3);
    expect(levelOf(1, 0.5)).toBe(3);
    expect(levelOf(0.95, 0.9)).toBe(2);
  });

  it('never highlights NaN', () => {
    expect(levelOf(Number.NaN, 0.5)).toBe(0);
  });

  it('keeps only the top features a hover shows', () => {
    const top = Array.from({ length: 9 }, (_, i) => ({ feature: `a:w${i}`, weight: 9 - i }));
    const verdict = verdictOf(4, { p: 0.9, logOdds: 2.2, top }, 0.5);
    expect(verdict).toMatchObject({ ref: 4, p: 0.9, level: 3 });
    expect(verdict.top.map((c) => c.feature)).toEqual(['a:w0', 'a:w1', 'a:w2', 'a:w3', 'a:w4']);
  });
});

describe('explanations', () => {
  it('are worked out only for a verdict that lights its link', () => {
    const top = [{ feature: 'a:基金', weight: 1.5 }];
    let asked = 0;
    const explain = () => {
      asked += 1;
      return top;
    };
    expect(verdictOf(1, { p: 0.2 }, 0.5, {}, explain)).toMatchObject({ level: 0, top: [] });
    expect(verdictOf(2, { p: 0.7 }, 0.5, { template: true }, explain)).toMatchObject({ level: 0, top: [] });
    expect(verdictOf(3, { p: 0.9 }, 0.5, { self: true }, explain)).toMatchObject({ level: 0, top: [] });
    expect(asked).toBe(0);
    expect(verdictOf(4, { p: 0.7 }, 0.5, {}, explain)).toMatchObject({ level: 2, top });
    expect(verdictOf(5, { p: 0.1 }, 0.5, { mark: 1 }, explain)).toMatchObject({ level: 3, mark: 1, top });
    expect(asked).toBe(2);
  });
});

describe('links judged apart (issue 12)', () => {
  const score = (p: number) => ({ p, logOdds: Math.log(p / (1 - p)), top: [] });

  it('shows the user mark whatever the score', () => {
    expect(verdictOf(1, score(0.01), 0.5, { mark: 1 })).toMatchObject({ level: 3, mark: 1 });
    expect(verdictOf(1, score(0.99), 0.5, { mark: 0 })).toMatchObject({ level: 0, mark: 0 });
  });

  it('never lights a link to the page itself, even one the user marked', () => {
    expect(verdictOf(1, score(0.99), 0.5, { self: true, mark: 1 })).toMatchObject({ level: 0, self: true });
  });

  it('lights a template link only at the strong level', () => {
    expect(verdictOf(1, score(0.7), 0.5, { template: true })).toMatchObject({ level: 0, template: true });
    expect(verdictOf(1, score(0.95), 0.5, { template: true })).toMatchObject({ level: 3, template: true });
  });
});
