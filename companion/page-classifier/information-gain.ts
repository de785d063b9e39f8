/**
 * Information-gain feature selection for the page classifier (Ma 2018, seed 004 §4.3.2–4.3.3):
 * score every candidate feature by IG, keep the K best.
 *
 *     IG(t) = H(C) − P(t)·H(C | t) − P(t̄)·H(C | t̄)                    (seed 004 eq. 4-1)
 *
 * over document presence: P(t) is the share of training pages containing t, H(C | t) the class
 * entropy among those pages, H(C | t̄) among the rest. Entropies in bits; 0·log 0 = 0. IG lies in
 * [0, H(C)] and is largest for a feature present in exactly one class's pages.
 */
import type { Label } from '../../shared/model/types.ts';

export interface PresenceDocument {
  /** The document's distinct features (a feature vector's keys). */
  features: Iterable<string>;
  label: Label;
}

/** Binary entropy in bits of a class split a : b. */
function entropy(a: number, b: number): number {
  const n = a + b;
  if (n === 0) return 0;
  let h = 0;
  for (const count of [a, b]) if (count > 0) h -= (count / n) * Math.log2(count / n);
  return h;
}

/** IG(t) in bits for every feature present in at least one document. */
export function informationGain(documents: readonly PresenceDocument[]): Map<string, number> {
  const n = documents.length;
  let positives = 0;
  // Per feature: [documents containing it, positive documents containing it].
  const counts = new Map<string, [number, number]>();
  for (const document of documents) {
    if (document.label === 1) positives++;
    for (const feature of new Set(document.features)) {
      const count = counts.get(feature) ?? [0, 0];
      count[0]++;
      if (document.label === 1) count[1]++;
      counts.set(feature, count);
    }
  }
  const negatives = n - positives;
  const hC = entropy(positives, negatives);
  const gains = new Map<string, number>();
  for (const [feature, [withT, positivesWithT]] of counts) {
    const without = n - withT;
    const positivesWithout = positives - positivesWithT;
    const conditional =
      (withT / n) * entropy(positivesWithT, withT - positivesWithT) +
      (without / n) * entropy(positivesWithout, without - positivesWithout);
    // Clamp rounding noise: IG is never negative.
    gains.set(feature, Math.max(0, hC - conditional));
  }
  return gains;
}

/** The K features of highest gain, ties broken by name so that selection is deterministic. */
export function topFeatures(gains: ReadonlyMap<string, number>, k: number): string[] {
  return [...gains]
    .sort(([a, gainA], [b, gainB]) => gainB - gainA || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, k)
    .map(([feature]) => feature);
}
