/**
 * The link model file as the command line reads and writes it: a Dexie export (dexie-export-
 * import's format) of the one LinkScent schema, holding the topic, its Naive Bayes counts and
 * its labeled examples: the very file the extension imports and exports.
 *
 * Reading goes through `companion/model/load-model-file.ts`, whose every failure is one line
 * naming the file (not a model file, no topic, no trained model, several topics, none chosen).
 */
import { createHash } from 'node:crypto';
import type { FeatureOptions } from '../../shared/features/types.ts';
import { LinkScorer } from '../../shared/pipeline/link-scorer.ts';
import type { NaiveBayes } from '../../shared/model/naive-bayes.ts';
import type { LabeledLink, Topic } from '../../shared/model/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { addExamples, saveModel } from '../../shared/model/model-store.ts';
import { loadModelFile } from '../model/load-model-file.ts';
import { openNodeDb, writeModelFile } from '../platform/node-indexeddb.ts';
import { CliFailure } from './errors.ts';

export interface LoadedLinkModel {
  topic: Topic;
  model: NaiveBayes;
  /** The topic's feature options, as its model was trained with. */
  features: FeatureOptions;
  /** sha-256 of the file, for a resumed crawl's "same model?" check. */
  fingerprint: string;
}

export interface SaveLinkModelInput extends Omit<Topic, 'id' | 'positive' | 'negative'> {
  urlTokens: boolean;
  model: NaiveBayes;
  examples: LabeledLink[];
}

/** A stable id from the name, so that re-training a topic replaces it in the extension. */
export function topicIdOf(name: string): string {
  return `topic-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

export async function saveLinkModel(path: string, input: SaveLinkModelInput): Promise<{ vocabulary: number }> {
  const { model, examples, urlTokens, ...fields } = input;
  // `urlTokens` rides on the topic row (db-schema.ts: the companion keeps it there), so that
  // whoever scores with this model featurises links as training did.
  const topic = { id: topicIdOf(fields.name), positive: [], negative: [], ...fields, urlTokens } as Topic;
  const db = await openNodeDb();
  try {
    await saveModel(db, topic, model);
    // In the database an example's `topic` is its topic's id (the examples table is keyed so).
    await addExamples(db, examples.map((example) => ({ ...example, topic: topic.id })));
    await writeModelFile(path, db);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliFailure(`cannot write ${path}: its folder does not exist`, { cause: error });
    throw error;
  } finally {
    db.close();
  }
  return { vocabulary: model.vocabularySize };
}

/**
 * The model file's topic and model (`companion/model/load-model-file.ts` reads and checks it),
 * with the topic's feature options: scoring must featurise exactly as training did.
 */
export async function loadLinkModel(path: string, topicName?: string): Promise<LoadedLinkModel> {
  const { topic, model, fingerprint } = await loadModelFile(path, topicName);
  const features: FeatureOptions = {
    group: topic.featureGroup,
    lexicon: topic.lexicon,
    urlTokens: (topic as Topic & { urlTokens?: boolean }).urlTokens ?? false,
  };
  return { topic, model, features, fingerprint };
}

/** The model file composed into the shared pipeline's scorer, for the nb crawl strategy. */
export async function loadLinkScorer(path: string, tokenizer: Tokenizer, topicName?: string) {
  const loaded = await loadLinkModel(path, topicName);
  const scorer = new LinkScorer({ tokenizer, model: loaded.model, features: loaded.features, window: loaded.topic.window });
  return { ...loaded, scorer };
}
