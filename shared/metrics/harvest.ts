/**
 * Online crawl metrics over a fetch order.
 *
 * Harvest rate after k pages = relevant pages among the first k fetched / k: Han et al. 2010
 * plot it over 50,000 pages (§4.3, Figs. 1–2) and Ma 2018 defines it the same way (seed 004,
 * "harvestRate = relevant pages / pages downloaded"). Target recall after k pages = targets among
 * the first k fetched / all targets, the second measure of Wang et al. (seed 002).
 */
import { ratio } from './classification.ts';

export interface HarvestCheckpoint {
  /** Pages fetched so far (the checkpoint). */
  pages: number;
  /** Relevant pages among them. */
  relevant: number;
  /** relevant / pages. */
  harvestRate: number;
}

export interface HarvestCurve {
  /** `rates[k - 1]` is the harvest rate after k pages; one entry per fetched page. */
  rates: number[];
  /** One entry per requested checkpoint not beyond the pages fetched, in the order requested. */
  checkpoints: HarvestCheckpoint[];
}

/**
 * The harvest rate after each page and at the checkpoints `at` (page counts, positive
 * integers). A checkpoint past the end of the crawl is left out rather than reported as if the
 * crawl had gone that far.
 */
export function harvestCurve(relevant: readonly boolean[], at: readonly number[] = []): HarvestCurve {
  for (const k of at) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`harvest checkpoint must be a positive integer, got ${k}`);
  }
  const rates: number[] = [];
  const relevantSoFar: number[] = [];
  let count = 0;
  relevant.forEach((isRelevant, i) => {
    if (isRelevant) count++;
    relevantSoFar.push(count);
    rates.push(count / (i + 1));
  });
  const checkpoints = at
    .filter((k) => k <= relevant.length)
    .map((k) => ({ pages: k, relevant: relevantSoFar[k - 1] ?? 0, harvestRate: rates[k - 1] ?? 0 }));
  return { rates, checkpoints };
}

export interface TargetRecall {
  /** `curve[k - 1]` is the target recall after k fetches. */
  curve: number[];
  /** Distinct targets fetched. */
  found: number;
  /** Distinct targets. */
  targets: number;
  /** found / targets; 0 when there are no targets. */
  recall: number;
}

/**
 * Target recall over the fetch order: the share of `targets` fetched so far. A URL fetched twice
 * counts once. URLs are compared as given: normalise both sides the same way first.
 */
export function targetRecall(fetchedUrls: Iterable<string>, targets: Iterable<string>): TargetRecall {
  const targetSet = new Set(targets);
  const found = new Set<string>();
  const curve: number[] = [];
  for (const url of fetchedUrls) {
    if (targetSet.has(url)) found.add(url);
    curve.push(ratio(found.size, targetSet.size));
  }
  return { curve, found: found.size, targets: targetSet.size, recall: ratio(found.size, targetSet.size) };
}
