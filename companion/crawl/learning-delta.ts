/**
 * What rounds of online learning change in the models' counts, as whole-number increments keyed
 * by count: the unit several crawl processes add into one shared model (`HINCRBY` per key,
 * `frontier/redis/shared-learning.ts`), and the merge of the summed increments onto the taught
 * model's rows.
 *
 * Counts are the source of truth of both classifiers (`shared/model/nb-counts.ts`,
 * `level-classifier.ts`), and `add` / `remove` only add to counts, so the sum of every worker's
 * increments on top of the taught model is exactly the model one process would have after
 * `add`ing every example, in whatever order the increments arrive. Probabilities are derived
 * afterwards (`fromRows`), never summed.
 *
 * Keys (a feature name is the rest of the key, whatever it holds):
 *   n|y        Count_y, link classifier examples of class y
 *   c|y|F      Count(F, C_y)
 *   o|y|F      Occ(F, C_y)
 *   ln|d       level classifier examples at level d
 *   lo|d|F     Occ(F, d) of the level classifier
 * Token totals and the vocabulary are not keys: `fromRows` derives and checks them.
 */
import type { FeatureVector } from '../../shared/features/types.ts';
import type { LevelRows } from '../../shared/model/level-classifier.ts';
import type { NbRows } from '../../shared/model/naive-bayes.ts';
import type { ClassPair, Label, LevelFeatureRow, NbFeatureRow } from '../../shared/model/types.ts';

export class CountDelta {
  /** Key → increment; keys whose increments cancel are removed. */
  readonly counts = new Map<string, number>();

  /** `NaiveBayes.add(x, y)`'s increments. */
  linkAdded(x: FeatureVector, y: Label): void {
    this.#bump(`n|${y}`, 1);
    for (const [feature, n] of x) {
      if (!(n > 0)) continue;
      this.#bump(`c|${y}|${feature}`, 1);
      this.#bump(`o|${y}|${feature}`, n);
    }
  }

  /** `LevelClassifier.add(x, level)` (by +1) or `remove` (by −1). */
  levelChanged(x: FeatureVector, level: number, by: 1 | -1): void {
    this.#bump(`ln|${level}`, by);
    for (const [feature, n] of x) if (n > 0) this.#bump(`lo|${level}|${feature}`, by * n);
  }

  get size(): number {
    return this.counts.size;
  }

  #bump(key: string, by: number): void {
    const n = (this.counts.get(key) ?? 0) + by;
    if (n === 0) this.counts.delete(key);
    else this.counts.set(key, n);
  }
}

/** Summed increments as read back (a Redis hash: key → decimal string). */
export type SummedCounts = Record<string, string> | Map<string, string | number>;

const KEY = /^(n|c|o|ln|lo)\|(\d+)(?:\|([\s\S]*))?$/;

/** The taught link classifier's rows plus the summed increments: the rows `NaiveBayes.fromRows` checks. */
export function mergeLinkRows(taught: NbRows, summed: SummedCounts): NbRows {
  const count: ClassPair = [...taught.header.count];
  const features = new Map<string, { count: ClassPair; occurrences: ClassPair }>();
  for (const row of taught.features) features.set(row.feature, { count: [...row.count], occurrences: [...row.occurrences] });
  for (const [key, raw] of entries(summed)) {
    const [, kind, index, feature] = KEY.exec(key) ?? [];
    const by = Number(raw);
    if (kind === 'n') count[classOf(index, key)] += by;
    else if ((kind === 'c' || kind === 'o') && feature !== undefined) {
      let row = features.get(feature);
      if (!row) features.set(feature, (row = { count: [0, 0], occurrences: [0, 0] }));
      (kind === 'c' ? row.count : row.occurrences)[classOf(index, key)] += by;
    } else if (kind !== 'ln' && kind !== 'lo') throw new Error(`shared model: unknown count key "${key}"`);
  }
  const rows: NbFeatureRow[] = [];
  const tokens: ClassPair = [0, 0];
  for (const feature of sortedNames(features.keys())) {
    const row = features.get(feature)!;
    if (row.count[0] === 0 && row.count[1] === 0 && row.occurrences[0] === 0 && row.occurrences[1] === 0) continue;
    tokens[0] += row.occurrences[0];
    tokens[1] += row.occurrences[1];
    rows.push({ topic: taught.header.topic, feature, count: row.count, occurrences: row.occurrences });
  }
  return { header: { ...taught.header, count, tokens, vocabularySize: rows.length, savedAt: Date.now() }, features: rows };
}

/** The taught level classifier's rows plus the summed increments (`LevelClassifier.fromRows` checks them). */
export function mergeLevelRows(taught: LevelRows, summed: SummedCounts): LevelRows {
  const L = taught.header.levels;
  const count = [...taught.header.count];
  const features = new Map<string, number[]>();
  for (const row of taught.features) features.set(row.feature, [...row.occurrences]);
  for (const [key, raw] of entries(summed)) {
    const [, kind, index, feature] = KEY.exec(key) ?? [];
    if (kind !== 'ln' && kind !== 'lo') continue;
    const d = Number(index);
    if (!(d < L)) throw new Error(`shared model: level ${d} in "${key}", but the model has ${L} levels`);
    if (kind === 'ln') count[d]! += Number(raw);
    else if (feature !== undefined) {
      let occurrences = features.get(feature);
      if (!occurrences) features.set(feature, (occurrences = new Array<number>(L).fill(0)));
      occurrences[d]! += Number(raw);
    }
  }
  const rows: LevelFeatureRow[] = [];
  const tokens = new Array<number>(L).fill(0);
  for (const feature of sortedNames(features.keys())) {
    const occurrences = features.get(feature)!;
    if (occurrences.every((k) => k === 0)) continue; // moved to another level by every worker that had it
    occurrences.forEach((k, d) => (tokens[d]! += k));
    rows.push({ topic: taught.header.topic, feature, occurrences });
  }
  return { header: { ...taught.header, count, tokens, vocabularySize: rows.length, savedAt: Date.now() }, features: rows };
}

function entries(summed: SummedCounts): Iterable<[string, string | number]> {
  return summed instanceof Map ? summed : Object.entries(summed);
}

function classOf(index: string | undefined, key: string): Label {
  if (index === '0' || index === '1') return Number(index) as Label;
  throw new Error(`shared model: "${key}" names no class 0 or 1`);
}

/** Code-unit order, as `toRows` gives (equal counts, equal rows). */
function sortedNames(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
