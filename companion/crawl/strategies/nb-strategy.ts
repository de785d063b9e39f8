/**
 * `nb`: the Naive Bayes focused crawl. Two values per link, from the same link features
 * (`shared/pipeline/link-scorer.ts`):
 *
 *   immediate value  v_i = P(+ | link)                      the link classifier (Han et al. 2010 §3.1)
 *   future value     v_f = Σ_{d<L−1} P(d | link) · γ^d       the level classifier (seed 001 eq. (2),
 *                                                            `shared/model/level-classifier.ts`)
 *
 * A link's value is v = max(v_i, v_f): the expected reward of following it, counting an on-topic
 * page reached now as 1 and one d hops further as γ^d. Without a level classifier (a model file
 * written before it existed, or `--no-future`), v = v_i, the crawl of Han et al. 2010.
 *
 * Exploit and explore (seed 001 §2.2-2.4, thresholds r1/r2): inside a topical community (the
 * parent page judged on topic) every link is kept at its value; between communities (the parent
 * judged off topic) a link is kept only when v ≥ r2, else it is sent to the back of the frontier,
 * behind every kept link, rather than dropped as in the seed, so a crawl never stalls on an empty
 * frontier. Seed 001's r1 (immediate value high enough to take at once) is the frontier's order
 * itself here: a higher value is fetched sooner.
 *
 *   priority = v          kept (parent on topic, not judged, or v ≥ r2)
 *   priority = v − 1      sent to the back
 * Seeds score 1. The crawl's host budget (`host-budget.ts`) lowers a trap host's rows further.
 */
import type { LinkContext } from '../../../shared/contexts/types.ts';
import { DEFAULT_GAMMA, expectedReward, type LevelClassifier } from '../../../shared/model/level-classifier.ts';
import type { LinkScorer } from '../../../shared/pipeline/link-scorer.ts';
import type { LinkText } from '../../store/records.ts';
import { FOCUSED_CLAIM_WINDOW, type CrawlStrategy } from './crawl-strategy.ts';

/** r2: the least value a link found on an off-topic page needs to keep its place. */
export const DEFAULT_R2 = 0.1;

/** How far back a link is sent: below every kept link's priority (kept ones lie in [0, 1]). */
export const BACK = 1;

export interface NbStrategyOptions {
  /** The link classifier, composed with its tokenizer and feature options. */
  scorer: LinkScorer;
  /** The level classifier (future value); absent: immediate value only. */
  levels?: LevelClassifier;
  /** γ, the discount per hop of the future value, in [0, 1]. Default 0.5. */
  gamma?: number;
  /** r2 of exploit/explore, in [0, 1]; null keeps every link at its value. Default 0.1. */
  r2?: number | null;
  /** Identifies the model (e.g. a checksum of the model file) for resume checks. */
  fingerprint?: string;
}

export function createNbStrategy({ scorer, levels, gamma = DEFAULT_GAMMA, r2 = DEFAULT_R2, fingerprint }: NbStrategyOptions): CrawlStrategy {
  if (!(gamma >= 0 && gamma <= 1)) throw new RangeError(`nb: gamma must lie in [0, 1], got ${gamma}`);
  if (r2 !== null && !(r2 >= 0 && r2 <= 1)) throw new RangeError(`nb: r2 must lie in [0, 1], got ${r2}`);

  /** v = max(v_i, v_f), or v_i without a level classifier. */
  const value = (context: LinkContext): number => {
    const features = scorer.featuresOf(context);
    const immediate = scorer.model.score(features, 0).p;
    if (!levels) return immediate;
    return Math.max(immediate, expectedReward(levels.posterior(features), gamma));
  };
  const priority = (v: number, viaOnTopic: boolean | undefined): number => (r2 !== null && viaOnTopic === false && v < r2 ? v - BACK : v);
  const asContext = (url: string, pageUrl: string, text: LinkText): LinkContext => ({ url, pageUrl, anchor: text.anchor, before: text.before, after: text.after });

  return {
    name: 'nb',
    seedScore: 1,
    fingerprint,
    claimWindow: FOCUSED_CLAIM_WINDOW,
    // The model was trained on contexts of its topic's window; score the same kind of context.
    contexts: (page) => scorer.contexts(page),
    scoreLinks: (parent, links) => links.map((link) => priority(value(link), parent.onTopic)),
    rescore: (row) => priority(value(asContext(row.url, row.parent ?? '', row.context)), row.viaOnTopic),
    linkRelevance: (link) => scorer.model.score(scorer.featuresOf(asContext(link.url, link.pageUrl, link)), 0).p,
  };
}
