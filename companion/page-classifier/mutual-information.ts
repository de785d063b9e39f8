/**
 * Mutual-information feature pruning for the page classifier: seed 002 §3.1.
 *
 *     MI(t, c) = log( P(t ∧ c) / (P(t)·P(c)) ),     MI(t) = max over classes c of MI(t, c)
 *
 * over document presence: P(t) the share of training pages containing t, P(c) the share of
 * class c, P(t ∧ c) the share that are of class c and contain t. Features are sorted by MI(t)
 * and those above a threshold kept; the paper gives no threshold, so the caller keeps the K best
 * (`topFeatures`, ties by name), the same K as information gain. Natural log; a class without the feature
 * gives −∞ for that class, and a feature is only scored when some page holds it.
 */
import type { PresenceDocument } from './information-gain.ts';

/** MI(t) for every feature present in at least one document. */
export function mutualInformation(documents: readonly PresenceDocument[]): Map<string, number> {
  const n = documents.length;
  const perClass: [number, number] = [0, 0];
  // Per feature: documents of class 0 and of class 1 containing it.
  const counts = new Map<string, [number, number]>();
  for (const document of documents) {
    perClass[document.label]++;
    for (const feature of new Set(document.features)) {
      const count = counts.get(feature) ?? [0, 0];
      count[document.label]++;
      counts.set(feature, count);
    }
  }
  const mi = new Map<string, number>();
  for (const [feature, count] of counts) {
    const pT = (count[0] + count[1]) / n;
    let best = -Infinity;
    for (const c of [0, 1] as const) {
      if (count[c] === 0) continue;
      best = Math.max(best, Math.log(count[c] / n / (pT * (perClass[c] / n))));
    }
    mi.set(feature, best);
  }
  return mi;
}
