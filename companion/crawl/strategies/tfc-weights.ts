/**
 * TFC term weights: seed 002 §4.2 (the TFC scheme of its ref. [26], Salton and Buckley 1988),
 * the weights Link Priority Evaluation compares content blocks, anchors and link contexts with:
 *
 *     w(t, u) = f(t, u)·log(N / n_t) / sqrt( Σ_r [ f(r, u)·log(N / n_r) ]² )
 *
 * f(t, u) the count of term t in unit u (a content block, an anchor, a link context, the topic),
 * N the number of units in the collection, n_t the number of units holding t. The collection is
 * what the caller passes: LPE passes one page's units and the topic, so a word every unit of the
 * page holds (the site's name in every block) weighs nothing. Each weighted vector has length 1
 * (or is empty when every term of it is in every unit), so the cosine of two is their dot product.
 */
import type { TermVector } from './term-vector.ts';

/** The TFC-weighted vector of each unit, in the units' order. Terms of weight 0 are left out. */
export function tfcWeights(units: readonly TermVector[]): TermVector[] {
  const n = units.length;
  const unitsHolding = new Map<string, number>();
  for (const unit of units) for (const term of unit.keys()) unitsHolding.set(term, (unitsHolding.get(term) ?? 0) + 1);
  return units.map((unit) => {
    const weighted: TermVector = new Map();
    let sumOfSquares = 0;
    for (const [term, count] of unit) {
      const weight = count * Math.log(n / unitsHolding.get(term)!);
      if (weight <= 0) continue;
      weighted.set(term, weight);
      sumOfSquares += weight * weight;
    }
    const norm = Math.sqrt(sumOfSquares);
    for (const [term, weight] of weighted) weighted.set(term, weight / norm);
    return weighted;
  });
}
