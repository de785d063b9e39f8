/**
 * Forks of a model (`forked-map.ts`): a fork that learns and unlearns is, row for row and score
 * for score, the model refitted on what it saw; the base and the other forks stay as they were.
 */
import { describe, expect, it } from 'vitest';
import type { FeatureVector } from '../../../shared/features/types.ts';
import { ForkedMap, forWriting } from '../../../shared/model/forked-map.ts';
import { LevelClassifier } from '../../../shared/model/level-classifier.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { Label, NbForm } from '../../../shared/model/types.ts';
import { seededRandom } from '../../../shared/random/seeded-random.ts';

const random = seededRandom(11);
// Word and attribute features (u: is an attribute), so the mixed form's two parts both move.
const POOL = [...Array.from({ length: 25 }, (_, n) => `w${n}`), ...Array.from({ length: 10 }, (_, n) => `u:p${n}`)];
function randomVector(): FeatureVector {
  const x: FeatureVector = new Map();
  const size = 1 + Math.floor(random() * 6);
  for (let n = 0; n < size; n++) x.set(POOL[Math.floor(random() * POOL.length)]!, 1 + Math.floor(random() * 3));
  return x;
}
/** A model's rows without the one time in them, so two models' rows compare. */
function rowsOf(model: NaiveBayes) {
  const rows = model.toRows('t');
  return { ...rows, header: { ...rows.header, savedAt: 0 } };
}
const examples = (n: number, p: number) => Array.from({ length: n }, () => ({ features: randomVector(), label: (random() < p ? 1 : 0) as Label }));

describe('ForkedMap', () => {
  it('reads, writes and deletes as a map of its own would, and leaves the base alone', () => {
    const base = new Map(Array.from({ length: 40 }, (_, n) => [`k${n}`, [n]] as [string, number[]]));
    const before = JSON.stringify([...base]);
    const fork = new ForkedMap(base, (value) => [...value]);
    const reference = new Map([...base].map(([k, v]) => [k, [...v]]));
    for (let step = 0; step < 2_000; step++) {
      const key = `k${Math.floor(random() * 60)}`;
      const roll = random();
      if (roll < 0.3) {
        expect(fork.delete(key)).toBe(reference.delete(key));
      } else if (roll < 0.5) {
        fork.set(key, [step]);
        reference.set(key, [step]);
      } else {
        const value = forWriting(fork, key);
        if (value) value[0]! += 1;
        const expected = reference.get(key);
        if (expected) expected[0]! += 1;
      }
      expect(fork.has(key)).toBe(reference.has(key));
      expect(fork.get(key)).toEqual(reference.get(key));
      expect(fork.size).toBe(reference.size);
    }
    expect([...fork.keys()].sort()).toEqual([...reference.keys()].sort());
    expect(JSON.stringify([...base])).toBe(before);
  });
});

describe('NaiveBayes.fork', () => {
  for (const form of ['bernoulli', 'multinomial', 'mixed'] as NbForm[]) {
    it(`learns and unlearns as a refit would (${form}), the base and a sibling fork untouched`, () => {
      const taught = examples(80, 0.3);
      const base = new NaiveBayes({ form }).fit(taught);
      const baseRows = JSON.stringify(rowsOf(base));
      const learned = examples(30, 0.5);
      const fork = base.fork();
      const sibling = base.fork();
      for (const { features, label } of learned) fork.add(features, label);
      // Unlearn some of what it was taught and some of what it learned: removals hit base features too.
      const unlearned = [...taught.slice(0, 20), ...learned.slice(0, 10)];
      for (const { features, label } of unlearned) fork.remove(features, label);
      const refit = new NaiveBayes({ form }).fit([...taught.slice(20), ...learned.slice(10)]);

      expect(rowsOf(fork)).toEqual(rowsOf(refit));
      expect(fork.vocabularySize).toBe(refit.vocabularySize);
      for (const x of [...Array.from({ length: 30 }, randomVector), new Map([['never-seen', 1]])]) {
        expect(fork.score(x).logOdds).toBe(refit.score(x).logOdds);
      }
      expect(JSON.stringify(rowsOf(base))).toBe(baseRows);
      expect(JSON.stringify(rowsOf(sibling))).toBe(baseRows);
    });
  }
});

describe('LevelClassifier.fork', () => {
  it('learns and unlearns as a refit would, the base untouched', () => {
    const level = () => Math.floor(random() * 4);
    const taught = Array.from({ length: 80 }, () => ({ features: randomVector(), level: level() }));
    const base = new LevelClassifier().fit(taught);
    const baseRows = JSON.stringify(base.toRows('t', 0));
    const learned = Array.from({ length: 30 }, () => ({ features: randomVector(), level: level() }));
    const fork = base.fork();
    for (const { features, level: d } of learned) fork.add(features, d);
    for (const { features, level: d } of taught.slice(0, 20)) fork.remove(features, d);
    const refit = new LevelClassifier().fit([...taught.slice(20), ...learned]);

    expect(fork.toRows('t', 0)).toEqual(refit.toRows('t', 0));
    for (const x of Array.from({ length: 30 }, randomVector)) expect(fork.posterior(x)).toEqual(refit.posterior(x));
    expect(JSON.stringify(base.toRows('t', 0))).toBe(baseRows);
  });
});
