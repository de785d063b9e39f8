/**
 * Ranking quality, threshold-free: a crawl orders its frontier by P(+) and never thresholds it,
 * so how well scores rank on-topic links above off-topic ones says more about a crawl model
 * than precision at 0.5 does. On imbalanced labels (a few hundred on-topic links among ten
 * thousand) a Bernoulli model can rank well yet put no link above 0.5.
 */

/**
 * Area under the ROC curve: the chance that a random on-topic example scores above a random
 * off-topic one, ties counted half (the Mann–Whitney U statistic over n₊·n₋). Null when either
 * class is missing, since no pair exists to rank.
 */
export function rocAuc(scored: Iterable<{ score: number; actual: 0 | 1 }>): number | null {
  const items = [...scored].sort((a, b) => a.score - b.score);
  let positives = 0;
  let rankSum = 0;
  // Ranks 1..n in ascending score, tied scores sharing their mean rank.
  for (let start = 0; start < items.length; ) {
    let end = start;
    while (end + 1 < items.length && items[end + 1]!.score === items[start]!.score) end++;
    const meanRank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) {
      if (items[k]!.actual === 1) {
        positives++;
        rankSum += meanRank;
      }
    }
    start = end + 1;
  }
  const negatives = items.length - positives;
  if (positives === 0 || negatives === 0) return null;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
