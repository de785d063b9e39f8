/**
 * Held-out accuracy for the popup: Han et al. 2010 evaluate offline on a 70/30 split (§5.1).
 *
 * The split is by a hash of each example's link, not random, so the same examples always fall on
 * the same side: the figure moves only when the examples do, and an example never drifts from
 * the test share into the training share between two looks at the popup.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { Label, LabeledLink } from '../../shared/model/types.ts';
import type { HeldOut } from '../messages/worker-api.ts';

export const HELD_OUT_SHARE = 0.3;
/** Fewer held-out examples than this give no figure: it would mislead more than inform. */
export const MIN_HELD_OUT = 10;

/** 32-bit FNV-1a of the link's identity, mapped to [0, 1). */
export function splitPoint(link: Pick<LinkContext, 'url' | 'pageUrl' | 'anchor'>): number {
  let hash = 0x811c9dc5;
  const text = `${link.url}\u0000${link.pageUrl}\u0000${link.anchor}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 2 ** 32;
}

export function isHeldOut(link: Pick<LinkContext, 'url' | 'pageUrl' | 'anchor'>): boolean {
  return splitPoint(link) < HELD_OUT_SHARE;
}

/** Trains on the 70 % share with `fit`, then measures accuracy on the 30 % share. */
export function heldOutAccuracy(
  examples: readonly LabeledLink[],
  fit: (train: readonly LabeledLink[]) => (example: LabeledLink) => Label,
): HeldOut {
  const test = examples.filter(isHeldOut);
  const train = examples.filter((example) => !isHeldOut(example));
  const classes = new Set(train.map((example) => example.label));
  if (test.length < MIN_HELD_OUT || classes.size < 2) return { accuracy: null, n: test.length };
  const predict = fit(train);
  const correct = test.filter((example) => predict(example) === example.label).length;
  return { accuracy: correct / test.length, n: test.length };
}
