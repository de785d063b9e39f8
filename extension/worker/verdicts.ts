/**
 * From a score to what a page paints: the highlight level.
 *
 * Below the topic's threshold a link is not highlighted (level 0). Above it, the interval
 * [threshold, 1] is cut into three equal steps, so "strong" means the same distance from
 * certainty whatever threshold the user chose.
 */
import type { Score } from '../../shared/model/types.ts';
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

export function verdictOf(ref: number, score: Score, threshold: number): LinkVerdict {
  return { ref, p: score.p, level: levelOf(score.p, threshold), top: score.top.slice(0, EXPLAIN_TOP) };
}
