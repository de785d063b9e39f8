/**
 * A topic's feature options: what its model was trained with and what scoring must use. One
 * mapping for both sides, so that a topic written by either scores a link the same way.
 */
import type { FeatureOptions } from '../features/types.ts';
import type { Topic } from './types.ts';

export function topicFeatureOptions(topic: Topic): FeatureOptions {
  return { group: topic.featureGroup, lexicon: topic.lexicon, urlTokens: topic.urlTokens === true, version: topic.featureVersion ?? 1 };
}
