/** Stage 7, metrics: the folder's public surface. */
export { classificationMetrics, ratio, type ClassificationMetrics } from './classification.ts';
export {
  harvestCurve,
  targetRecall,
  type HarvestCheckpoint,
  type HarvestCurve,
  type TargetRecall,
} from './harvest.ts';
export { countTokens, klDivergence, type KlOptions, type KlResult } from './kl-divergence.ts';
export { rocAuc } from './ranking.ts';
export { calibrateThreshold, type Calibration, type ScoredExample, type ThresholdTarget } from './threshold.ts';
