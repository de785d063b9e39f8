/**
 * Training the level classifier (future value, `shared/model/level-classifier.ts`) from labeled
 * links, as `train` does: the links are also a graph (`pageUrl → url`), the crawl that collected
 * them (seed 000 §3.2.2's breadth-first `collect`) having recorded every link of every page it
 * fetched. Seed 001's training phase: each link's distance to the topic, binned, then one Naive
 * Bayes over the bins.
 *
 *   on topic:  URLs some example labels 1 (the topic's patterns said so)
 *   fetched:   pages some example was found on (their out-links are all known)
 *   level:     `linkLevel` of the example's target (`shared/labels/link-levels.ts`); examples
 *              whose target was neither fetched nor on topic are left out: nothing is known of
 *              where they lead.
 */
import type { FeatureOptions } from '../../shared/features/types.ts';
import { linkFeatures } from '../../shared/features/link-features.ts';
import { distancesToTopic, linkLevel } from '../../shared/labels/link-levels.ts';
import { DEFAULT_LEVELS, LevelClassifier } from '../../shared/model/level-classifier.ts';
import type { LabeledLink } from '../../shared/model/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';

export interface TrainedLevels {
  model: LevelClassifier;
  /** Examples per level. */
  perLevel: number[];
  /** Examples left out: their targets' distances are unknown. */
  unknown: number;
}

/** The level classifier over `examples` (deduplicated contexts); the graph is read from all of them. */
export function trainLevelModel(
  examples: readonly LabeledLink[],
  tokenizer: Tokenizer,
  features: FeatureOptions,
  levels: number = DEFAULT_LEVELS,
): TrainedLevels {
  const onTopic = new Set<string>();
  const fetched = new Set<string>();
  for (const example of examples) {
    if (example.label === 1) onTopic.add(example.url);
    fetched.add(example.pageUrl);
  }
  const distances = distancesToTopic(examples, (url) => onTopic.has(url));
  const model = new LevelClassifier({ levels });
  const perLevel = new Array<number>(levels).fill(0);
  let unknown = 0;
  for (const example of examples) {
    const level = linkLevel(example.url, distances, fetched, levels);
    if (level === null) {
      unknown++;
      continue;
    }
    model.add(linkFeatures(example, tokenizer, features), level);
    perLevel[level]!++;
  }
  return { model, perLevel, unknown };
}
