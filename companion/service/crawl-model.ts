/**
 * A service crawl's model file, in and out: the topic a new crawl follows (checked before it
 * starts, so a bad one is a 400), and the labels file a crawl gives back, its topic with the
 * examples it learned, which the extension merges.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeModelFile } from '../../shared/model/model-file.ts';
import type { LabeledLink, Topic } from '../../shared/model/types.ts';
import { labelsFileText } from '../model/link-model-file.ts';
import { CrawlStore, STORE_FILE } from '../store/crawl-store.ts';
import type { CrawlEntry } from './crawl-entry.ts';
import { MODEL_FILE } from './crawl-record.ts';
import { checkTopicPatterns } from './crawl-topic.ts';
import { HttpError } from './http-io.ts';
import { inspectModelFile, type DecodedModels } from './model-registry.ts';

/** The topic a crawl follows: `topicId` (an id, then a name), else the file's first trained one. */
export async function chooseTopic(file: Buffer, modelId: string, topicId: string | null, decoded?: DecodedModels): Promise<Topic> {
  const { topics } = await inspectModelFile(file, modelId, decoded);
  const names = topics.map((t) => `"${t.name}" (${t.id})`).join(', ');
  const chosen = topicId === null ? topics.find((t) => t.trained) : (topics.find((t) => t.id === topicId) ?? topics.find((t) => t.name === topicId));
  if (!chosen) throw new HttpError(400, topicId === null ? `model ${modelId} has no trained topic` : `topicId: model ${modelId} has no topic "${topicId}"; it has ${names}`);
  if (!chosen.trained) throw new HttpError(400, `topicId: topic "${chosen.name}" of model ${modelId} has no trained model`);
  const patternError = checkTopicPatterns(chosen.topic);
  if (patternError !== undefined) throw new HttpError(400, patternError);
  return chosen.topic;
}

/**
 * The crawl's topic and learned labels as a model file (a Dexie export without a model): the
 * extension merges it, adding the examples it does not have yet.
 */
export async function crawlLabelsFile(entry: CrawlEntry): Promise<string> {
  const topicRef = entry.record.topic;
  if (topicRef === null) throw new HttpError(409, `crawl ${entry.id} was started without a model, so it has no topic and learns no labels`);
  const topic = decodeModelFile(readFileSync(join(entry.dir, MODEL_FILE), 'utf8')).topics.find((t) => t.id === topicRef.id);
  if (!topic) throw new Error(`crawl ${entry.id}: its model.json lost topic ${topicRef.id}`);
  const links = labeledLinks(entry).filter((link) => link.topic === topic.id && link.source === 'crawl');
  return labelsFileText(topic, links);
}

/** The crawl's labeled links: through its running store's second connection, else from disk. */
function labeledLinks(entry: CrawlEntry): LabeledLink[] {
  if (entry.run?.labels) return entry.run.labels.labeledLinks();
  if (!existsSync(join(entry.dir, STORE_FILE))) return [];
  const store = CrawlStore.open(entry.dir, { create: false });
  try {
    return store.labeledLinks();
  } finally {
    store.close();
  }
}
