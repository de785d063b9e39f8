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

/**
 * The verdict a page paints. `explain` gives the features behind the score; it is called only
 * when the verdict lights its link, since the hover explanation opens on lit links alone
 * (content/hover.ts): an unlit link's verdict carries no features, which spares the Worker the
 * explanation and every hop to the page its bytes (issue 14). By default the score's own `top`.
 */
export function verdictOf(
  ref: number,
  score: Pick<Score, 'p'> & Partial<Score>,
  threshold: number,
  kind: LinkKind = {},
  explain: () => Score['top'] = () => score.top ?? [],
): LinkVerdict {
  let level = levelOf(score.p, threshold);
  if (kind.self) level = 0;
  else if (kind.mark !== undefined) level = kind.mark === 1 ? LEVELS : 0;
  else if (kind.template && level !== LEVELS) level = 0;
  const verdict: LinkVerdict = { ref, p: score.p, level, top: level > 0 ? explain().slice(0, EXPLAIN_TOP) : [] };
  if (kind.self) verdict.self = true;
  else if (kind.mark !== undefined) verdict.mark = kind.mark;
  else if (kind.template) verdict.template = true;
  return verdict;
}
