/**
 * From a score to what a page paints: the highlight level.
 *
 * Below the topic's threshold a link is not highlighted (level 0). Above it, the interval
 * [threshold, 1] is cut into three equal steps, so "strong" means the same distance from
 * certainty whatever threshold the user chose.
 *
 * Three kinds of link are judged apart (issue 12): one the user marked shows the mark (on topic:
 * strongest level; off topic: none), whatever the model says; a link to the page itself or to a
 * fragment of it is never lit (it leads nowhere new); a template link (the site repeats it on
 * every page, `shared/labels/template-links.ts`) is lit only at the strong level, since its
 * context is its neighbours' anchors and its evidence must be its own.
 */
import type { Label, Score } from '../../shared/model/types.ts';
import type { Level, LinkVerdict } from '../messages/page-links.ts';

export const LEVELS = 3;

/** 0 when p < threshold, else 1 + ⌊3·(p − t)/(1 − t)⌋, capped at 3. */
export function levelOf(p: number, threshold: number): Level {
  if (!(p >= threshold)) return 0;
  if (threshold >= 1) return LEVELS;
  const step = Math.floor((LEVELS * (p - threshold)) / (1 - threshold));
  return Math.min(LEVELS, 1 + step) as Level;
}

/** How many features the hover explanation shows. */
export const EXPLAIN_TOP = 5;

export interface LinkKind {
  mark?: Label | undefined;
  template?: boolean;
  self?: boolean;
}

export function verdictOf(ref: number, score: Score, threshold: number, kind: LinkKind = {}): LinkVerdict {
  const verdict: LinkVerdict = { ref, p: score.p, level: levelOf(score.p, threshold), top: score.top.slice(0, EXPLAIN_TOP) };
  if (kind.self) return { ...verdict, level: 0, self: true };
  if (kind.mark !== undefined) return { ...verdict, level: kind.mark === 1 ? LEVELS : 0, mark: kind.mark };
  if (kind.template) return { ...verdict, level: verdict.level === LEVELS ? LEVELS : 0, template: true };
  return verdict;
}
