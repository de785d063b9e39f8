/**
 * `nb`: the Naive Bayes focused crawl. A link's value is the expected discounted reward of
 * following it, a reward of 1 for an on-topic page, γ^d for one d hops further (seed 001 eq. (2);
 * Rennie & McCallum 1999), from two classifiers over the same link features
 * (`shared/pipeline/link-scorer.ts`), each used for what it is trained best on:
 *
 *   v = P(+ | link) + (1 − P(+ | link)) · Σ_{d=1}^{L−2} P(d | link, d ≥ 1) · γ^d
 *
 *   P(+ | link)          the link classifier (Han et al. 2010 §3.1): whether the target is on
 *                        topic, learned from every labeled link, so its prior is the topic's real
 *                        share of links;
 *   P(d | link, d ≥ 1)   the level classifier (`shared/model/level-classifier.ts`), conditioned
 *                        on the target not being on topic: how far the topic lies behind it. Its
 *                        level 0 is left to the link classifier, since the level training keeps
 *                        every on-topic link but only the off-topic ones whose distance is known,
 *                        which inflates level 0's prior for any link of unseen words.
 *
 * A link whose URL the topic's own patterns call on topic (`onTopicUrl`, the page judge's rule 1,
 * `page-judgement.ts`) has P(+) = 1: the user's word on where the topic is needs no classifier,
 * and the classifier is left for the links the patterns do not cover. (A link's anchor and
 * context can outvote its URL: on a hub page, the link into the topic's entry page is one of
 * ten "欢迎使用 LibreOffice … 帮助" entries whose other nine lead elsewhere.)
 *
 * v lies in [0, 1]. Without a level classifier (a model file written before it existed, or
 * `--no-future`), v = P(+ | link), the crawl of Han et al. 2010.
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
import type { FeatureSequence } from '../../../shared/features/feature-list.ts';
import { DEFAULT_GAMMA, futureReward, type LevelClassifier } from '../../../shared/model/level-classifier.ts';
import type { LinkScorer } from '../../../shared/pipeline/link-scorer.ts';
import { ownString } from '../../../shared/tokens/own-string.ts';
import type { LinkText } from '../../store/records.ts';
import { FOCUSED_CLAIM_WINDOW, type CrawlStrategy } from './crawl-strategy.ts';
import { DEFAULT_KEPT_ROWS, KeptFeatures, type KeptLink } from './kept-features.ts';

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
  /** The topic's on-topic URL patterns as a test: a link they match has P(+) = 1. Default none. */
  onTopicUrl?: (url: string) => boolean;
  /** Identifies the model (e.g. a checksum of the model file) for resume checks. */
  fingerprint?: string;
  /** Queued links whose features `rescore` keeps between re-scorings (`kept-features.ts`). Default 5,120. */
  keptRows?: number;
  /** Links whose features were listed lately, kept for when they come again (`listedFeatures`). Default 1,024. */
  listedRows?: number;
}

/**
 * Links listed lately that `listedFeatures` keeps: a page's new links are re-scored at the next
 * online update (every 50 pages, `DEFAULT_ONLINE_EVERY`) and the best claimed soon after. The
 * crawl bench's nb crawl lists 2–3 new links per page, so 1,024 reach back over 300 pages; a wide
 * crawl's hundreds per page make them misses, never wrong. About 1 KB a link (a reference per
 * feature, the names being the feature list's own, and its three texts), so about 1 MB at most.
 */
export const DEFAULT_LISTED_ROWS = 1024;

/**
 * Claimed links whose features `linkFeatures` keeps for online learning: the pages claimed
 * between two updates (every 50 pages by default) and those in flight, five times over.
 */
export const CLAIMED_ROWS = 256;

export function createNbStrategy({ scorer, levels, gamma = DEFAULT_GAMMA, r2 = DEFAULT_R2, onTopicUrl, fingerprint, keptRows = DEFAULT_KEPT_ROWS, listedRows = DEFAULT_LISTED_ROWS }: NbStrategyOptions): CrawlStrategy {
  if (!(gamma >= 0 && gamma <= 1)) throw new RangeError(`nb: gamma must lie in [0, 1], got ${gamma}`);
  if (r2 !== null && !(r2 >= 0 && r2 <= 1)) throw new RangeError(`nb: r2 must lie in [0, 1], got ${r2}`);
  const kept = new KeptFeatures(keptRows);
  const listed = new KeptFeatures(listedRows);
  const claimed = new KeptFeatures(CLAIMED_ROWS);

  /**
   * v = P(+) + (1 − P(+)) · E[γ^d | d ≥ 1], or P(+) without a level classifier; with its parts.
   * The link's features are listed once for both classifiers (`LinkScorer.listFeatures`), not
   * built into a vector: a crawl asks this of every new link and, after each online update, of
   * the frontier's best 4,096 rows again (issue 14's profile: a fifth of the event loop).
   */
  const parts = (context: LinkContext, top: number) => partsOf(scorer.listFeatures(context), onTopicUrl?.(context.url) === true, top);
  const partsOf = (features: FeatureSequence, byPattern: boolean, top: number) => {
    const score = scorer.model.scoreSequence(features, top);
    const immediate = byPattern ? 1 : score.p;
    const posterior = levels?.posteriorSequence(features);
    const future = posterior ? futureReward(posterior, gamma) : null;
    const v = future === null ? immediate : immediate + (1 - immediate) * future;
    return { immediate, byPattern, score, posterior, future, v };
  };
  /**
   * `partsOf(features, false, 0).v`, the same number to the last bit, with the future value taken
   * from `link`'s memo while the level classifier is at the revision it was worked out under: a
   * link's features never change, and an online update adds examples to the link classifier each
   * time but moves levels only when a page judged on topic lies below its links (the crawl bench's
   * nb crawl: about 1 update in 4). The level classifier's posterior was 40 % of re-scoring a row.
   */
  const valueOf = (features: FeatureSequence, link: KeptLink | undefined): number => {
    const immediate = scorer.model.scoreSequence(features, 0).p;
    const future = futureOf(features, link);
    return future === null ? immediate : immediate + (1 - immediate) * future;
  };
  const futureOf = (features: FeatureSequence, link: KeptLink | undefined): number | null => {
    if (levels === undefined) return null;
    const { revision } = levels;
    const memo = link?.memo;
    // Only this strategy's sets hold its kept links, and it asks one level classifier: a revision names its counts.
    if (memo !== undefined && memo.revision === revision) return memo.value;
    const value = futureReward(levels.posteriorSequence(features), gamma);
    if (memo !== undefined) {
      memo.revision = revision;
      memo.value = value;
    } else if (link !== undefined) link.memo = { revision, value };
    return value;
  };
  /**
   * A new link's value (a link the patterns call on topic is worth 1 whatever the classifiers say,
   * 1 + 0 · future: neither is asked; `explain` asks them, `parts`, only to show what they would
   * have said). Its features from `listed` when the link was listed with this very text before (met
   * again on another page), else listed now and kept there for what follows a new link: its row's
   * first re-scoring (`rowValue`), its claim (`logOdds`), the online update that learns from it
   * (`linkFeatures`). Each listed it again (issue 14's profile: a link's listing, ~100 µs with its
   * context's tokens, was most of nb's per-link cost).
   */
  const value = (context: LinkContext): number => {
    if (onTopicUrl?.(context.url) === true) return 1;
    const known = listed.get(context.url, context);
    if (known !== undefined) return valueOf(listed.sequence(known), known);
    const features = scorer.listFeatures(context);
    return valueOf(features, keepListed(listed, context, features));
  };
  // Own copies: a context cut from a page parsed on the event loop (no parse threads) would keep
  // the page alive for as long as the link stays kept (`ownString`).
  const keepListed = (into: KeptFeatures, context: LinkContext, features: FeatureSequence): KeptLink | undefined =>
    into.keep(ownString(context.url), { anchor: ownString(context.anchor), before: ownString(context.before), after: ownString(context.after) }, false, features);
  /**
   * `value` of a queued row's link, its features (or its patterns' verdict) kept from its last
   * re-scoring while the row holds the same text (`kept-features.ts`): the same number, to the
   * last bit, without listing them again.
   */
  const keptValue = (known: KeptLink): number => (known.byPattern ? 1 : valueOf(kept.sequence(known), known));
  const rowValue = (url: string, pageUrl: string, text: LinkText): number => {
    const known = kept.get(url, text);
    if (known !== undefined) return keptValue(known);
    if (onTopicUrl?.(url) === true) {
      kept.keep(url, text, true);
      return 1;
    }
    const fresh = listed.get(url, text);
    if (fresh !== undefined) {
      kept.adopt(url, fresh);
      return keptValue(fresh);
    }
    const features = scorer.listFeatures(asContext(url, pageUrl, text));
    return valueOf(features, kept.keep(url, text, false, features));
  };
  /** What is kept of `context`'s link with its features, for this very text, left where it is. */
  const keptWithFeatures = (context: LinkContext): KeptLink | undefined => {
    const known = kept.peek(context.url, context);
    if (known !== undefined && !known.byPattern) return known;
    const fresh = listed.peek(context.url, context);
    return fresh !== undefined && !fresh.byPattern ? fresh : undefined;
  };
  /**
   * The link classifier's log-odds of a claimed link, through the features kept or listed of it
   * when there are (a link the patterns call on topic was valued without them). Its features go
   * to `claimed`, for the online update that learns from the link once its page is judged, which
   * a wide crawl's new links would have pushed out of `listed` by then.
   */
  const logOdds = (context: LinkContext): number => {
    const known = keptWithFeatures(context);
    if (known !== undefined) {
      claimed.adopt(context.url, known);
      return scorer.model.scoreSequence(kept.sequence(known), 0).logOdds;
    }
    const features = scorer.listFeatures(context);
    keepListed(claimed, context, features);
    return scorer.model.scoreSequence(features, 0).logOdds;
  };
  const sentBack = (v: number, viaOnTopic: boolean | undefined): boolean => r2 !== null && viaOnTopic === false && v < r2;
  const priority = (v: number, viaOnTopic: boolean | undefined): number => (sentBack(v, viaOnTopic) ? v - BACK : v);
  const asContext = (url: string, pageUrl: string, text: LinkText): LinkContext => ({ url, pageUrl, anchor: text.anchor, before: text.before, after: text.after });

  return {
    name: 'nb',
    seedScore: 1,
    fingerprint,
    claimWindow: FOCUSED_CLAIM_WINDOW,
    // The model was trained on contexts of its topic's window; score the same kind of context.
    contextWindow: scorer.window,
    scoresLinksAlone: true,
    scoreLinks: (parent, links) => links.map((link) => priority(value(link), parent.onTopic)),
    rescore: (row) => priority(rowValue(row.url, row.parent ?? '', row.context), row.viaOnTopic),
    rescoreKept(row) {
      const known = kept.trusted(row.url);
      if (known === undefined) return undefined;
      return priority(keptValue(known), row.viaOnTopic);
    },
    forgetKept: (url) => kept.forget(url),
    linkLogOdds: logOdds,
    linkFeatures(context) {
      const known = claimed.peek(context.url, context) ?? keptWithFeatures(context);
      return known === undefined ? undefined : kept.vector(known);
    },
    linkRelevance: (link) => scorer.score(asContext(link.url, link.pageUrl, link), 0).p,
    explain(context, viaOnTopic, top) {
      const p = parts(context, Math.max(0, top));
      return {
        immediate: p.immediate,
        byPattern: p.byPattern,
        logOdds: p.score.logOdds,
        future: p.future,
        gamma: levels ? gamma : null,
        levels: p.posterior ?? null,
        value: p.v,
        sentBack: sentBack(p.v, viaOnTopic),
        priority: priority(p.v, viaOnTopic),
        top: p.score.top.map(({ feature, weight }) => ({ feature, weight })),
      };
    },
  };
}
