import { describe, expect, it } from 'vitest';
import { newFeatureTerms, type FeatureTerms } from '../../../shared/model/feature-terms.ts';
import { expectedReward, futureReward, LevelClassifier } from '../../../shared/model/level-classifier.ts';
import { seededRandom } from '../../../shared/random/seeded-random.ts';

const fv = (...words: string[]) => {
  const x = new Map<string, number>();
  for (const w of words) x.set(w, (x.get(w) ?? 0) + 1);
  return x;
};

describe('LevelClassifier', () => {
  it('computes the multinomial posterior of a hand-worked example', () => {
    // Two levels, α = 1. Level 0: "calc calc"; level 1: "hub". V = {calc, hub}, μ = α|V| = 2.
    const model = new LevelClassifier({ levels: 2 });
    model.add(fv('calc', 'calc'), 0);
    model.add(fv('hub'), 1);
    // P(0) = P(1) = (1+1)/(2+2) = 1/2. Pooled: q(calc) = (2+0+1)/(3+2) = 3/5.
    // θ(calc|0) = (2 + 2·3/5)/(2+2) = 4/5; θ(calc|1) = (0 + 2·3/5)/(1+2) = 2/5.
    // P(0 | calc) = (4/5) / (4/5 + 2/5) = 2/3.
    const [p0, p1] = model.posterior(fv('calc'));
    expect(p0).toBeCloseTo(2 / 3, 12);
    expect(p1).toBeCloseTo(1 / 3, 12);
  });

  it('does not let a feature a small level never saw vote for it', () => {
    // Level 0: 100 links "a b c d e", one of them also "z"; level 1: one link "hub". V has 7 features.
    // Laplace would give θ(z|1) = 1/(1+7) = 0.125 against θ(z|0) = 2/(501+7) ≈ 0.004: "z" would
    // make level 1 thirty times likelier, though level 1 never saw it. Smoothed towards the pool,
    // θ(z|1) is about z's pooled rate: the odds move by less than 2.
    const model = new LevelClassifier({ levels: 2 });
    for (let i = 0; i < 100; i++) model.add(i === 0 ? fv('a', 'b', 'c', 'd', 'e', 'z') : fv('a', 'b', 'c', 'd', 'e'), 0);
    model.add(fv('hub'), 1);
    const [prior0, prior1] = model.posterior(fv('never-seen'));
    const [p0, p1] = model.posterior(fv('z'));
    const oddsMoved = p1! / p0! / (prior1! / prior0!);
    expect(oddsMoved).toBeLessThan(2);
    expect(oddsMoved).toBeGreaterThan(0);
  });

  it('gives a posterior that sums to one, the prior for unseen features, uniform untrained', () => {
    const untrained = new LevelClassifier();
    expect(untrained.posterior(fv('x'))).toEqual([0.25, 0.25, 0.25, 0.25]);
    const model = new LevelClassifier();
    model.add(fv('a'), 0);
    model.add(fv('b'), 3);
    model.add(fv('b'), 3);
    const p = model.posterior(fv('a', 'b', 'c'));
    expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    // Only an unseen feature: the smoothed prior (Count_d + 1) / (N + 4).
    expect(model.posterior(fv('zzz'))).toEqual([2 / 7, 1 / 7, 1 / 7, 3 / 7].map((v) => expect.closeTo(v, 12)));
  });

  it('remove undoes add exactly, and incremental adds equal a refit (counts equal)', () => {
    const examples = [
      { features: fv('a', 'b'), level: 0 },
      { features: fv('b', 'c', 'c'), level: 1 },
      { features: fv('d'), level: 3 },
      { features: fv('a', 'd'), level: 2 },
    ];
    const incremental = new LevelClassifier();
    for (const e of examples) incremental.add(e.features, e.level);
    // A relearned level: the example moves from level 3 to level 1.
    incremental.remove(examples[2]!.features, 3);
    incremental.add(examples[2]!.features, 1);
    const refit = new LevelClassifier().fit([examples[0]!, examples[1]!, { features: fv('d'), level: 1 }, examples[3]!]);
    expect(incremental.toRows('t', 0)).toEqual(refit.toRows('t', 0));
    expect(() => incremental.remove(fv('zzz'), 0)).toThrow(/never added/);
    expect(incremental.toRows('t', 0)).toEqual(refit.toRows('t', 0));
  });

  it('round-trips through rows and refuses broken rows with one line', () => {
    const model = new LevelClassifier().fit([
      { features: fv('a', 'b'), level: 0 },
      { features: fv('c'), level: 2 },
    ]);
    const rows = model.toRows('topic', 5);
    const back = LevelClassifier.fromRows(rows);
    expect(back.toRows('topic', 5)).toEqual(rows);
    expect(back.posterior(fv('a'))).toEqual(model.posterior(fv('a')));
    expect(() => LevelClassifier.fromRows({ ...rows, header: { ...rows.header, rowsVersion: 2 as 1 } })).toThrow(/version 2/);
    expect(() => LevelClassifier.fromRows({ ...rows, header: { ...rows.header, vocabularySize: 9 } })).toThrow(/9 features/);
    expect(() => LevelClassifier.fromRows({ ...rows, features: [{ ...rows.features[0]!, occurrences: [1, 0] }] })).toThrow(/4 whole numbers/);
  });

  it('posteriorSequence of the present features in order is posterior of the vector, to the last bit', () => {
    const model = new LevelClassifier();
    model.add(fv('a:股票', 'c:行情', 'c:行情', 'u:calc'), 0);
    model.add(fv('a:财经', 'c:频道'), 1);
    model.add(fv('a:体育', 'c:频道', 'd:a.test/sports/'), 3);
    const vectors = [
      fv('a:股票', 'c:行情', 'c:行情', 'unknown'), // a count of 2, and a feature outside V
      new Map([['c:频道', 1], ['a:体育', 0], ['u:calc', 3]]), // a zero count: not present
      fv('never', 'seen'),
      new Map<string, number>(),
    ];
    for (const x of vectors) {
      const present = [...x].filter(([, n]) => n > 0);
      const sequence = { length: present.length, names: present.map(([f]) => f), counts: present.map(([, n]) => n) };
      expect(model.posteriorSequence(sequence)).toEqual(model.posterior(x));
      expect(model.posteriorSequence(sequence).every((p, d) => Object.is(p, model.posterior(x)[d]))).toBe(true);
    }
  });

  /**
   * The file header's P(d | x) from the classifier's rows, written out in the order the sums have
   * always been taken: the reference the kept terms of `posteriorSequence` must equal bit for bit.
   */
  const headerPosterior = (model: LevelClassifier, x: Map<string, number>): number[] => {
    const { header, features } = model.toRows();
    const L = header.levels;
    const alpha = header.alpha;
    const occurrences = new Map(features.map((row) => [row.feature, row.occurrences]));
    const n = header.count.reduce((a, b) => a + b, 0);
    const logJoint = header.count.map((count) => Math.log(count + alpha) - Math.log(n + L * alpha));
    if (n > 0) {
      const mu = alpha * occurrences.size;
      const total = header.tokens.reduce((a, b) => a + b, 0);
      const logDenominator = header.tokens.map((tokens) => Math.log(tokens + mu));
      for (const [feature, count] of x) {
        const occ = occurrences.get(feature);
        if (!occ || !(count > 0)) continue;
        let pooled = alpha;
        for (let d = 0; d < L; d++) pooled += occ[d]!;
        const prior = (mu * pooled) / (total + mu);
        for (let d = 0; d < L; d++) logJoint[d]! += count * (Math.log(occ[d]! + prior) - logDenominator[d]!);
      }
    }
    const max = Math.max(...logJoint);
    let sum = 0;
    for (let d = 0; d < L; d++) sum += Math.exp(logJoint[d]! - max);
    const logEvidence = max + Math.log(sum);
    return logJoint.map((v) => Math.exp(v - logEvidence));
  };

  /** Random count vectors over a few features, Chinese and URL ones among them, drawn from `random`. */
  const vectorsFrom = (random: () => number) => () => {
    const x = new Map<string, number>();
    for (const name of ['a:股票', 'c:行情', 'c:频道', 'u:calc', 'd:a.test/sports/', 'a:新']) if (random() < 0.5) x.set(name, 1 + Math.floor(random() * 3));
    return x;
  };

  it('has a revision that every change of the counts moves to a value it never had, and nothing else moves', () => {
    const model = new LevelClassifier();
    const seen = new Set([model.revision]);
    const changed = () => {
      expect(seen.has(model.revision)).toBe(false);
      seen.add(model.revision);
    };
    model.add(fv('a', 'b'), 0);
    changed();
    model.add(fv('b', 'c'), 2);
    changed();
    const still = model.revision;
    model.posterior(fv('a', 'c'));
    model.posteriorSequence({ length: 1, names: ['a'], counts: [1] });
    model.toRows('t', 0);
    model.fork().add(fv('z'), 1);
    expect(() => model.remove(fv('zzz'), 0)).toThrow(/never added/);
    expect(model.revision).toBe(still);
    model.remove(fv('b', 'c'), 2);
    changed();
    // Back to counts it had once (a and b at level 0): a new revision all the same.
    model.fit([{ features: fv('a', 'b'), level: 0 }]);
    changed();
    model.assign(new LevelClassifier().fit([{ features: fv('a', 'b'), level: 0 }]));
    changed();
  });

  it('keeps a feature\'s terms only while the counts stay: equal to the header\'s formula, bit for bit, as it learns, forgets and is replaced', () => {
    const random = seededRandom(5);
    const randomVector = vectorsFrom(random);
    const model = new LevelClassifier();
    const probes = Array.from({ length: 10 }, randomVector);
    const added: { features: Map<string, number>; level: number }[] = [];
    for (let step = 0; step < 40; step++) {
      // Every probe twice (the second from the kept terms), then the counts change.
      for (const x of probes) {
        expect(model.posterior(x)).toEqual(headerPosterior(model, x));
        expect(model.posterior(x)).toEqual(headerPosterior(model, x));
      }
      if (step % 7 === 6 && added.length > 0) {
        const { features, level } = added.shift()!;
        model.remove(features, level);
      } else if (step % 11 === 10) {
        model.assign(new LevelClassifier().fit(added));
      } else if (step % 13 === 12) {
        model.fit(added.slice(1));
        added.shift();
      } else {
        const example = { features: randomVector(), level: Math.floor(random() * 4) };
        model.add(example.features, example.level);
        added.push(example);
      }
    }
  });

  /** A feature list as the nb crawl hands it over: a memo record per feature name, kept across calls (`feature-terms.ts`). */
  const records = new Map<string, FeatureTerms>();
  const throughRecords = (x: Map<string, number>) => {
    const present = [...x].filter(([, n]) => n > 0);
    return {
      length: present.length,
      names: present.map(([name]) => name),
      counts: present.map(([, n]) => n),
      memos: present.map(([name]) => {
        if (!records.has(name)) records.set(name, newFeatureTerms());
        return { owner: 'link classifier', revision: 0, value: records.get(name) };
      }),
    };
  };

  it('through memo records: the header\'s formula, bit for bit, as it learns, forgets, is replaced, and as a fork copies its counts', () => {
    records.clear();
    const random = seededRandom(9);
    const randomVector = vectorsFrom(random);
    const same = (model: LevelClassifier, x: Map<string, number>) => {
      const got = model.posteriorSequence(throughRecords(x));
      const want = headerPosterior(model, x);
      expect(got.every((p, d) => Object.is(p, want[d]))).toBe(true);
    };
    let model = new LevelClassifier();
    const probes = Array.from({ length: 10 }, randomVector);
    const added: { features: Map<string, number>; level: number }[] = [];
    for (let step = 0; step < 60; step++) {
      for (const x of probes) same(model, x);
      if (step === 30) {
        // A fork scores through the base's records, then copies them as it learns.
        model = model.fork();
        for (const x of probes) same(model, x);
      }
      if (step % 7 === 6 && added.length > 0) {
        const { features, level } = added.shift()!;
        model.remove(features, level);
      } else if (step % 11 === 10) {
        model.assign(new LevelClassifier().fit(added));
      } else {
        const example = { features: randomVector(), level: Math.floor(random() * 4) };
        model.add(example.features, example.level);
        added.push(example);
      }
    }
    // A feature that leaves the vocabulary and comes back is a new record.
    const lone = new Map([['a:孤', 2]]);
    model.add(lone, 1);
    same(model, lone);
    model.remove(lone, 1);
    same(model, lone);
    model.add(new Map([['a:孤', 1]]), 2);
    same(model, lone);
  });

  it('rejects levels out of range', () => {
    expect(() => new LevelClassifier().add(fv('a'), 4)).toThrow(/0 to 3/);
    expect(() => new LevelClassifier({ levels: 1 })).toThrow(/2 to 16/);
  });
});

describe('expectedReward', () => {
  it('is Σ_{d<L−1} P(d)·γ^d: the last level earns nothing', () => {
    expect(expectedReward([0.5, 0.25, 0.125, 0.125], 0.5)).toBeCloseTo(0.5 + 0.125 + 0.03125, 12);
    expect(expectedReward([0, 0, 0, 1], 0.9)).toBe(0);
    expect(expectedReward([1, 0, 0, 0], 0.3)).toBe(1);
    expect(() => expectedReward([1, 0], 2)).toThrow(RangeError);
  });

  it('ranks a link one hop from the topic above one two hops away', () => {
    const model = new LevelClassifier().fit([
      { features: fv('portal'), level: 2 },
      { features: fv('hub'), level: 1 },
      { features: fv('calendar'), level: 3 },
    ]);
    expect(model.futureValue(fv('hub'))).toBeGreaterThan(model.futureValue(fv('portal')));
    expect(model.futureValue(fv('portal'))).toBeGreaterThan(model.futureValue(fv('calendar')));
  });
});

describe('futureReward', () => {
  it('is Σ_{d=1}^{L−2} P(d | d ≥ 1)·γ^d: level 0 taken out and the rest renormalised', () => {
    // P(d ≥ 1) = 0.5; given that, levels 1, 2, 3 have 0.5, 0.25, 0.25.
    expect(futureReward([0.5, 0.25, 0.125, 0.125], 0.5)).toBeCloseTo(0.5 * 0.5 + 0.25 * 0.25, 12);
    expect(futureReward([1, 0, 0, 0], 0.5)).toBe(0);
    expect(futureReward([0, 0, 0, 1], 0.5)).toBe(0);
    expect(futureReward([0, 1, 0, 0], 0.9)).toBeCloseTo(0.9, 12);
  });
});
