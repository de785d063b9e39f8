/**
 * The strategy registry: `createStrategy(name, deps)` for the command line and the service.
 * Each strategy states what it needs; a missing dependency or an unknown name is one clear line.
 */
import type { KnowledgeBase } from '../../../shared/features/knowledge-base.ts';
import type { LevelClassifier } from '../../../shared/model/level-classifier.ts';
import type { LinkScorer } from '../../../shared/pipeline/link-scorer.ts';
import type { Tokenizer } from '../../../shared/tokens/types.ts';
import { createBestFirstExtractedStrategy } from './best-first-extracted-strategy.ts';
import { createBestFirstStrategy } from './best-first-strategy.ts';
import { createBfsStrategy } from './bfs-strategy.ts';
import type { CrawlStrategy } from './crawl-strategy.ts';
import { createLpeStrategy } from './lpe-strategy.ts';
import { createNbStrategy } from './nb-strategy.ts';
import { createIPageRankStrategy, createPageRankStrategy } from './rank-strategy.ts';
import { createRwRelevance } from './rw-relevance.ts';
import { createRwStrategy } from './rw-strategy.ts';
import type { SynonymGroup } from './synonym-list.ts';

export type { CrawlStrategy, ParentPage } from './crawl-strategy.ts';

/** Everything any strategy may need; each takes what it uses. */
export interface StrategyDeps {
  /** nb: the model, composed with its tokenizer and feature options. */
  scorer?: LinkScorer;
  /** nb: identifies the model file for resume checks. */
  modelFingerprint?: string;
  /** nb: the level classifier (future value); absent for immediate value only. */
  levels?: LevelClassifier;
  /** nb: γ of the future value. Default 0.5. */
  gamma?: number;
  /** nb: r2 of exploit/explore; null keeps every link at its value. Default 0.1. */
  r2?: number | null;
  /** nb: the topic's on-topic URL patterns as a test (a link they match has P(+) = 1). */
  onTopicUrl?: (url: string) => boolean;
  /** best-first: tokenizer for the topic and page text. */
  tokenizer?: Tokenizer;
  /** best-first: topic keywords or sample text (`--topic`, `--topic-file`). */
  topicText?: string;
  /** best-first: α of seed 004's formula. Default 0.6. */
  alpha?: number;
  /** lpe: λ of JFE (seed 002 §4.1). Default 0.5. */
  lambda?: number;
  /** lpe: θ, least block similarity that passes to the block's links. Default 0.2. */
  blockThreshold?: number;
  /** best-first-extracted: the knowledge base the topic is expanded from (seed 004 §4.3.1). */
  knowledgeBase?: KnowledgeBase;
  /** rw, ipagerank: the user's synonym list; absent, similarity by co-occurrence in `topicText`. */
  synonyms?: readonly SynonymGroup[];
  /** rw, ipagerank: c, the RW relevance below which a link counts as unrelated. Default 0.1. */
  rwThreshold?: number;
}

/**
 * The topic, tokenizer and the strategy's own error as a StrategyConfigError: what every topic
 * strategy (and seed 003's RW relevance) checks.
 */
function topicStrategy<T>(name: string, deps: StrategyDeps, create: (tokenizer: Tokenizer, topic: string) => T): T {
  if (!deps.topicText?.trim()) {
    throw new StrategyConfigError(`strategy ${name} needs a topic (--topic "keywords…", --topic-file FILE or --topic-dir DIR --topic-name NAME)`);
  }
  if (!deps.tokenizer) throw new StrategyConfigError(`strategy ${name} needs a tokenizer`);
  try {
    return create(deps.tokenizer, deps.topicText);
  } catch (error) {
    throw new StrategyConfigError((error as Error).message, { cause: error });
  }
}

/** A strategy's dependencies are wrong: the caller must supply something (a model, a topic). */
export class StrategyConfigError extends Error {
  override readonly name = 'StrategyConfigError';
}

const FACTORIES: Record<string, (deps: StrategyDeps) => CrawlStrategy> = {
  nb(deps) {
    if (!deps.scorer) throw new StrategyConfigError('strategy nb needs a model (--model FILE)');
    try {
      return createNbStrategy({ scorer: deps.scorer, fingerprint: deps.modelFingerprint, levels: deps.levels, gamma: deps.gamma, r2: deps.r2, onTopicUrl: deps.onTopicUrl });
    } catch (error) {
      throw new StrategyConfigError((error as Error).message, { cause: error });
    }
  },
  bfs: () => createBfsStrategy(),
  'best-first': (deps) => topicStrategy('best-first', deps, (tokenizer, topic) => createBestFirstStrategy({ tokenizer, topic, alpha: deps.alpha })),
  // Seeds 002 and 004 (issue 16): content blocks + JFE, and the thesis's pipeline.
  lpe: (deps) =>
    topicStrategy('lpe', deps, (tokenizer, topic) => createLpeStrategy({ tokenizer, topic, lambda: deps.lambda, blockThreshold: deps.blockThreshold })),
  'best-first-extracted': (deps) =>
    topicStrategy('best-first-extracted', deps, (tokenizer, topic) =>
      createBestFirstExtractedStrategy({ tokenizer, topic, alpha: deps.alpha, knowledgeBase: deps.knowledgeBase }),
    ),
  // Seed 003 (SkyReach): RW relevance, IPageRank, and the seed's own PageRank baseline.
  rw: (deps) => createRwStrategy(rwRelevance('rw', deps)),
  ipagerank: (deps) => createIPageRankStrategy(rwRelevance('ipagerank', deps)),
  pagerank: () => createPageRankStrategy(),
};

/** The RW relevance of seed 003's strategies, from the topic and the synonym list. */
function rwRelevance(name: string, deps: StrategyDeps) {
  return topicStrategy(name, deps, (tokenizer, topic) => createRwRelevance({ tokenizer, topic, synonyms: deps.synonyms, threshold: deps.rwThreshold }));
}

/** The valid strategy names, in the order help text lists them. */
export const STRATEGY_NAMES: readonly string[] = Object.keys(FACTORIES);

export function createStrategy(name: string, deps: StrategyDeps = {}): CrawlStrategy {
  const factory = Object.hasOwn(FACTORIES, name) ? FACTORIES[name] : undefined;
  if (!factory) {
    throw new StrategyConfigError(`unknown crawl strategy "${name}"; valid strategies: ${STRATEGY_NAMES.join(', ')}`);
  }
  return factory(deps);
}
