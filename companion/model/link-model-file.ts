/**
 * The link model file as the companion reads and writes it, through the shared codec
 * (`shared/model/model-file.ts`): a Dexie export holding the topic, its Naive Bayes counts and its
 * labeled examples, the very file the extension imports and exports. The command line (`train`,
 * `eval`, `crawl`) and the service both go through here.
 *
 * Reading gives the topic, its model, the feature options it was trained with, and a
 * fingerprint (SHA-256 of the file) the crawl store keeps so a resume with another model is
 * noticed. The command line's loads read the file leaving its labeled examples out
 * (`model-file-read.ts`): neither a crawl nor `eval` uses them, and they were most of a crawl's
 * start-up garbage (issue 14). Every way a file can be unusable is one `ModelFileError` line
 * naming the file: not a model file, no topic, a topic that was never trained, several topics
 * and none chosen, the chosen one missing.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FeatureOptions } from '../../shared/features/types.ts';
import { exampleRows } from '../../shared/model/example-key.ts';
import type { LevelClassifier } from '../../shared/model/level-classifier.ts';
import { decodeModelFile, decodeSkimmedModelFile, encodeModelFile, levelModelOf, linkModelOf, MAX_MODEL_FILE_BYTES, ModelFileError, type ModelFileContent } from '../../shared/model/model-file.ts';
import type { NaiveBayes } from '../../shared/model/naive-bayes.ts';
import type { ExampleRow, LabeledLink, Topic } from '../../shared/model/types.ts';
import { topicFeatureOptions } from '../../shared/model/topic-features.ts';
import { LinkScorer } from '../../shared/pipeline/link-scorer.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { writeFileAtomic } from '../platform/atomic-file.ts';
import { readModelFile, type ModelFileRead } from './model-file-read.ts';

export type { ModelFileRead };

/** A topic's classifiers as a crawl gets them: its own to change as it learns. */
export interface TopicClassifiers {
  model: NaiveBayes | undefined;
  levels: LevelClassifier | undefined;
}

/**
 * Where a load gets a file's content and a topic's classifiers. The command line decodes and
 * builds each time (`FRESH_MODELS`), from a read that left the examples out (`examples: false`);
 * the service (`service/model-registry.ts`) decodes a file once, whole, asking for its text only
 * then, and builds a topic's classifiers once, handing each crawl a fork of them
 * (`NaiveBayes.fork`). `fingerprint` is the SHA-256 (hex) of the file's bytes.
 * Both throw as `decodeModelFile`, `linkModelOf` and `levelModelOf` do.
 */
export interface ModelSource {
  /** Whether `decode` needs the file's examples; without, the file is read leaving them out. */
  readonly examples: boolean;
  decode(file: ModelFileRead, fingerprint: string): ModelFileContent;
  classifiers(content: ModelFileContent, fingerprint: string, topicId: string): TopicClassifiers;
}

export const FRESH_MODELS: ModelSource = {
  examples: false,
  decode: (file) => (file.skimmed ? decodeSkimmedModelFile(file.skimmed) : decodeModelFile(file.text())),
  classifiers: (content, _fingerprint, topicId) => ({ model: linkModelOf(content, topicId), levels: levelModelOf(content, topicId) }),
};

/** The file cannot give a model (the model layer's error, re-exported here for callers). */
export { ModelFileError };

export interface LoadedLinkModel {
  topic: Topic;
  model: NaiveBayes;
  /** The topic's level classifier (future value); absent in files trained without one. */
  levels?: LevelClassifier;
  /** The topic's feature options, as its model was trained with. */
  features: FeatureOptions;
  /** SHA-256 of the file's bytes, hex, for a resumed crawl's "same model?" check. */
  fingerprint: string;
  /** The file's absolute path (kept with a crawl, for `linkscent why`). */
  path: string;
}

export interface SaveLinkModelInput extends Omit<Topic, 'id' | 'positive' | 'negative' | 'urlTokens'> {
  urlTokens: boolean;
  /** The topic's on- and off-topic URL patterns, kept so that whoever browses or crawls with the model labels links on. Default none. */
  positive?: string[];
  negative?: string[];
  model: NaiveBayes;
  /** The level classifier (future value), when trained. */
  levels?: LevelClassifier;
  examples: LabeledLink[];
}

/** A stable id from the name, so that re-training a topic replaces it in the extension. */
export function topicIdOf(name: string): string {
  return `topic-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/**
 * Writes the topic, its model and its examples (one per link context, the first met kept) as a
 * model file, atomically. Training the same examples again gives the same bytes but for the one
 * time written into the model's `savedAt` and the examples' `addedAt`: `now`, default the clock.
 */
export function saveLinkModel(path: string, input: SaveLinkModelInput, now: number = Date.now()): { vocabulary: number } {
  const { model, levels, examples, ...fields } = input;
  // `urlTokens` rides on the topic row, so that whoever scores with this model featurises
  // links as training did.
  const { positive = [], negative = [], ...rest } = fields;
  const topic: Topic = { id: topicIdOf(fields.name), positive, negative, ...rest };
  const { header, features } = model.toRows(topic.id);
  const levelRows = levels?.toRows(topic.id, now);
  const text = encodeModelFile({
    topics: [topic],
    models: [{ ...header, savedAt: now }],
    features,
    levelModels: levelRows ? [levelRows.header] : [],
    levelFeatures: levelRows?.features ?? [],
    // In the file an example's `topic` is its topic's id (the examples table is keyed so).
    examples: numbered(exampleRows(examples.map((example) => ({ ...example, topic: topic.id })), now)),
  });
  writeFileAtomic(path, text); // a path it cannot write is one line naming it
  return { vocabulary: model.vocabularySize };
}

/**
 * A model file of a topic and labeled links, without a model: what a crawl hands back for the
 * extension to merge (`GET /api/crawls/:id/labels`).
 */
export function labelsFileText(topic: Topic, links: readonly LabeledLink[], now: number = Date.now()): string {
  return encodeModelFile({ topics: [topic], examples: numbered(exampleRows(links, now)) });
}

/** Rows numbered 1, 2, … as IndexedDB numbers the rows it adds to an empty table (the id last). */
function numbered(rows: ExampleRow[]): ExampleRow[] {
  return rows.map((row, i) => ({ ...row, id: i + 1 }));
}

/**
 * The model of the file's only topic, or of `topicName` (matched against a topic's id, then its
 * name) when the file holds several, with the topic's feature options: scoring must featurise
 * exactly as training did. The file is read once; the fingerprint is of the bytes imported.
 */
export async function loadLinkModel(path: string, topicName?: string, source: ModelSource = FRESH_MODELS): Promise<LoadedLinkModel> {
  let file: ModelFileRead;
  try {
    const { size } = await stat(path);
    if (size > MAX_MODEL_FILE_BYTES) {
      throw new ModelFileError(`model file ${path} is ${(size / 2 ** 20).toFixed(1)} MiB, larger than the ${MAX_MODEL_FILE_BYTES / 2 ** 20} MiB a model file may be`);
    }
    file = await readModelFile(path, { examples: source.examples });
  } catch (error) {
    if (error instanceof ModelFileError) throw error;
    throw new ModelFileError(`cannot read model file ${path}: ${(error as NodeJS.ErrnoException).code ?? firstLine(error)}`, { cause: error });
  }
  const { fingerprint } = file;
  let content: ModelFileContent;
  try {
    content = source.decode(file, fingerprint);
  } catch (error) {
    // A ModelFileError already says what is wrong ("not a LinkScent model file: …"); name the file.
    if (error instanceof ModelFileError) throw new ModelFileError(`${path}: ${firstLine(error)}`, { cause: error });
    throw new ModelFileError(`cannot read model file ${path}: ${firstLine(error)}`, { cause: error });
  }
  const topic = chooseTopic(path, content.topics, topicName);
  let classifiers: TopicClassifiers;
  try {
    classifiers = source.classifiers(content, fingerprint, topic.id);
  } catch (error) {
    throw new ModelFileError(`${path}: topic "${topic.name}": ${firstLine(error)}`, { cause: error });
  }
  const { model, levels } = classifiers;
  if (!model) throw new ModelFileError(`${path}: topic "${topic.name}" has no trained model (run linkscent train first)`);
  return { topic, model, levels, features: topicFeatureOptions(topic), fingerprint, path: resolve(path) };
}

/**
 * The model file composed into the shared pipeline's scorer, for the nb crawl strategy. A crawl
 * orders its frontier by P(+) alone, so scores carry no explanation (explainTop 0 skips ranking
 * every link's features).
 */
export async function loadLinkScorer(path: string, tokenizer: Tokenizer, topicName?: string, source?: ModelSource) {
  const loaded = await loadLinkModel(path, topicName, source);
  const scorer = LinkScorer.forTopic(loaded.topic, loaded.model, tokenizer, 0);
  return { ...loaded, scorer };
}

function chooseTopic(path: string, topics: Topic[], topicName: string | undefined): Topic {
  const names = topics.map((t) => `"${t.name}"`).join(', ');
  if (topics.length === 0) throw new ModelFileError(`${path} holds no topic and no model (run linkscent train first)`);
  if (topicName !== undefined) {
    const topic = topics.find((t) => t.id === topicName) ?? topics.find((t) => t.name === topicName);
    if (!topic) throw new ModelFileError(`${path} has no topic "${topicName}"; it has ${names}`);
    return topic;
  }
  if (topics.length > 1) throw new ModelFileError(`${path} holds ${topics.length} topics (${names}); choose one with --model-topic`);
  return topics[0]!;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
