/**
 * The held-out share of a topic's examples: what calibrates its threshold and what the popup's
 * figures are measured on. Han et al. 2010 evaluate offline on a 70/30 split (§5.1).
 *
 * The split is by a hash of each example's target URL, not random, so the same examples always
 * fall on the same side: the figures move only when the examples do, and an example never
 * drifts from the test share into the training share between two looks at the popup. By the
 * target, not the whole context, because a site repeats a link on many pages: every context of
 * one target falls on one side, so the held-out figures are about targets the model did not
 * train on, as the links it highlights mostly are.
 */
import { classificationMetrics } from '../../shared/metrics/classification.ts';
import { calibrateThreshold, type Calibration, type ScoredExample, type ThresholdTarget } from '../../shared/metrics/threshold.ts';
import type { LabeledLink, ThresholdMode, Topic } from '../../shared/model/types.ts';
import type { HeldOut } from '../messages/worker-api.ts';

export const HELD_OUT_SHARE = 0.3;
/** Fewer held-out examples than this give no figure: it would mislead more than inform. */
export const MIN_HELD_OUT = 10;

/** 32-bit FNV-1a of the link's target, mapped to [0, 1). */
export function splitPoint(link: Pick<LabeledLink, 'url'>): number {
  let hash = 0x811c9dc5;
  const text = link.url;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 2 ** 32;
}

export function isHeldOut(link: Pick<LabeledLink, 'url'>): boolean {
  return splitPoint(link) < HELD_OUT_SHARE;
}

/** The topic's threshold mode, absent read as 'fixed' (see `Topic.thresholdMode`). */
export const modeOf = (topic: Topic): ThresholdMode => topic.thresholdMode ?? 'fixed';

export function targetOf(topic: Topic): ThresholdTarget {
  return modeOf(topic) === 'precision' && topic.targetPrecision !== undefined
    ? { kind: 'precision', precision: topic.targetPrecision }
    : { kind: 'f1' };
}

/**
 * Trains on the 70 % share with `fit`, scores the 30 % share with it, and returns the threshold
 * in use with its figures: calibrated (`calibrateThreshold`) unless the topic's mode is 'fixed',
 * measured at `topic.threshold` then. Figures are null when the share is too small or one class
 * is missing (the threshold is then `topic.threshold`).
 */
export function heldOutFigures(examples: readonly LabeledLink[], topic: Topic, fit: (train: readonly LabeledLink[]) => (example: LabeledLink) => number): HeldOut {
  const test = examples.filter(isHeldOut);
  const train = examples.filter((example) => !isHeldOut(example));
  const positives = test.filter((example) => example.label === 1).length;
  const mode = modeOf(topic);
  const none: HeldOut = { mode, threshold: topic.threshold, n: test.length, positives, figures: null, reached: true };
  const trainClasses = new Set(train.map((example) => example.label));
  if (test.length < MIN_HELD_OUT || trainClasses.size < 2 || positives === 0 || positives === test.length) return none;
  const score = fit(train);
  const scored: ScoredExample[] = test.map((example) => ({ p: score(example), label: example.label }));
  if (mode === 'fixed') {
    const m = classificationMetrics(scored.map(({ p, label }) => ({ predicted: p >= topic.threshold ? 1 : 0, actual: label })));
    const specificity = m.tn + m.fp === 0 ? 0 : m.tn / (m.tn + m.fp);
    const figures = { precision: m.precision, recall: m.recall, f1: m.f1, balancedAccuracy: (m.recall + specificity) / 2 };
    return { ...none, figures };
  }
  const calibration: Calibration | null = calibrateThreshold(scored, targetOf(topic));
  if (calibration === null) return none;
  const { threshold, precision, recall, f1, balancedAccuracy, reached } = calibration;
  return { ...none, threshold, figures: { precision, recall, f1, balancedAccuracy }, reached };
}
