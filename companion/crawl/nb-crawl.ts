/**
 * An nb crawl composed from a loaded model (`docs/focused-crawl.md`): the strategy with its
 * future value, exploit/explore and the patterns' judgement of links, and the crawl options nb
 * adds: the page judge of the topic's patterns, the host budget, online learning. One function
 * for the command line and the service, so a crawl from either is the same crawl.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { LevelClassifier } from '../../shared/model/level-classifier.ts';
import { DEFAULT_GAMMA } from '../../shared/model/level-classifier.ts';
import type { Topic } from '../../shared/model/types.ts';
import type { LinkScorer } from '../../shared/pipeline/link-scorer.ts';
import { compileUrlPatterns } from '../../shared/urls/url-pattern.ts';
import type { CrawlOptionsInput } from './crawl-options.ts';
import { DEFAULT_PAGES_PER_STEP } from './host-budget.ts';
import { DEFAULT_ONLINE_EVERY, DEFAULT_RESCORE_TOP } from './online-learning.ts';
import type { CrawlStrategy } from './strategies/crawl-strategy.ts';
import { createStrategy } from './strategies/index.ts';
import { DEFAULT_R2 } from './strategies/nb-strategy.ts';

/** Which of nb's parts run, and their settings; every part on by default. */
export interface NbParts {
  /** Links the topic's patterns match count as on topic (P(+) = 1). */
  patternLinks: boolean;
  /** The level classifier's future value. */
  future: boolean;
  /** r2 of exploit/explore; null: every link keeps its value. */
  r2: number | null;
  /** Online learning every N pages; null: none. */
  onlineEvery: number | null;
  /** Host budget: pages per step; null: none. */
  hostBudget: number | null;
  gamma: number;
}

export const NB_DEFAULTS: Readonly<NbParts> = Object.freeze({
  patternLinks: true,
  future: true,
  r2: DEFAULT_R2,
  onlineEvery: DEFAULT_ONLINE_EVERY,
  hostBudget: DEFAULT_PAGES_PER_STEP,
  gamma: DEFAULT_GAMMA,
});

export interface LoadedModel {
  topic: Topic;
  scorer: LinkScorer;
  levels?: LevelClassifier;
  fingerprint: string;
  /** The model file's absolute path, when it came from one: kept with the crawl for `linkscent why`. */
  path?: string;
}

/**
 * What `linkscent why` needs to score a URL of an nb crawl again as the crawl did: the model file
 * and topic, and the parts that change a link's score. Stored in the crawl's meta (`scoring`) at
 * every run's start (`crawl-session.ts`).
 */
export interface NbScoring {
  strategy: 'nb';
  modelFile: string;
  /** SHA-256 of the model file as the run read it. */
  fingerprint: string;
  topic: string;
  parts: Pick<NbParts, 'patternLinks' | 'future' | 'gamma' | 'r2'>;
}

export interface NbCrawl {
  strategy: CrawlStrategy;
  /** What nb adds to the crawl's options. */
  options: Pick<CrawlOptionsInput, 'onTopicUrl' | 'hostBudget' | 'online' | 'window' | 'scoring'>;
}

/**
 * The nb crawl of `loaded`'s topic. `hasPageModel`: a page classifier judges pages (online
 * learning can learn from it). `warn` hears, in one line each, what a part cannot do here.
 */
export function nbCrawl(loaded: LoadedModel, parts: NbParts, hasPageModel: boolean, warn: (line: string) => void): NbCrawl {
  const { topic, scorer } = loaded;
  const levels = parts.future ? loaded.levels : undefined;
  if (parts.future && !loaded.levels) warn('the model has no level classifier (train it again to get one): links are valued by P(+) alone');
  const options: NbCrawl['options'] = { window: topic.window };
  if (loaded.path !== undefined) {
    const { patternLinks, future, gamma, r2 } = parts;
    options.scoring = { strategy: 'nb', modelFile: loaded.path, fingerprint: loaded.fingerprint, topic: topic.id, parts: { patternLinks, future, gamma, r2 } } satisfies NbScoring;
  }
  if (topic.positive.length > 0) options.onTopicUrl = compileUrlPatterns(topic.positive);
  if (parts.hostBudget !== null) options.hostBudget = parts.hostBudget;
  const strategy = createStrategy('nb', {
    scorer,
    modelFingerprint: loaded.fingerprint,
    levels,
    gamma: parts.gamma,
    r2: parts.r2,
    onTopicUrl: parts.patternLinks ? options.onTopicUrl : undefined,
  });
  if (parts.onlineEvery !== null) {
    if (options.onTopicUrl || hasPageModel) {
      // A learned link was claimed a moment ago, its features listed then (`linkFeatures`).
      const features = (context: LinkContext) => strategy.linkFeatures?.(context) ?? scorer.featuresOf(context);
      options.online = { models: { links: scorer.model, levels, features }, every: parts.onlineEvery, rescoreTop: DEFAULT_RESCORE_TOP, topic: topic.id };
    } else {
      warn('no online learning: the model carries no URL patterns (train --positive) and no page classifier judges pages');
    }
  }
  return { strategy, options };
}
