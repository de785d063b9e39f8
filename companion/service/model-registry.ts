/**
 * Model files uploaded by the extension (`POST /api/models`), kept as `models/<modelId>.json` in
 * the home directory. The id is the start of the file's SHA-256, so uploading the same file twice
 * gives the same id and one copy. A file is checked completely (the shared codec decodes it) before
 * it is kept; what is wrong with a bad one is one sentence for a 400.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeModelFile, ModelFileError, type ModelFileContent } from '../../shared/model/model-file.ts';
import type { Topic } from '../../shared/model/types.ts';
import { FRESH_MODELS, type ModelFileRead, type ModelSource, type TopicClassifiers } from '../model/link-model-file.ts';
import { writeFileAtomic } from '../platform/atomic-file.ts';
import { HttpError } from './http-io.ts';

export interface TopicSummary {
  id: string;
  name: string;
  /** Labeled examples of the topic in the file. */
  examples: number;
}

/** A model file's topics, with whether each has a trained model. */
export interface ModelSummary {
  modelId: string;
  topics: (TopicSummary & { trained: boolean; topic: Topic })[];
}

const MODEL_ID = /^[0-9a-f]{16}$/;

export class ModelRegistry {
  constructor(readonly dir: string) {}

  /** Checks and keeps an uploaded file. Throws HttpError 400 naming what is wrong with it. */
  async add(text: string): Promise<ModelSummary> {
    const modelId = createHash('sha256').update(text).digest('hex').slice(0, 16);
    const summary = await inspectModelFile(text, modelId);
    if (!summary.topics.some((topic) => topic.trained)) {
      throw new HttpError(400, 'the model file holds no trained model (train a topic first)');
    }
    const path = this.path(modelId);
    if (!existsSync(path)) writeFileAtomic(path, text);
    return summary;
  }

  /** The stored file's path; 404 for an unknown or malformed id. */
  pathOf(modelId: string): string {
    const path = MODEL_ID.test(modelId) ? this.path(modelId) : undefined;
    if (path === undefined || !existsSync(path)) throw new HttpError(404, `no model "${modelId}" (upload it with POST /api/models)`);
    return path;
  }

  /** The stored file as bytes: a crawl copies and decodes them without making them a string (see `DecodedModels.decodeBytes`). */
  bytes(modelId: string): Buffer {
    return readFileSync(this.pathOf(modelId));
  }

  private path(modelId: string): string {
    return join(this.dir, `${modelId}.json`);
  }
}

/**
 * Decoded model files, by the SHA-256 of their text, and the service's model loads one at a time.
 * Twenty crawls started with one model decoded its file forty times at once (the check of its
 * rows included): a stall of seconds for every request, and twenty copies of the rows in memory
 * together. The content is shared read-only. A topic's classifiers are built once per file too,
 * and each crawl gets forks of them (`NaiveBayes.fork`, `LevelClassifier.fork`): online learning
 * changes a crawl's own, and the built ones, kept here, never change (twenty crawls held twenty
 * copies of a 13,000-feature topic's counts, 3.2 MB each).
 */
export class DecodedModels implements ModelSource {
  /** Oldest first. */
  readonly #entries = new Map<string, { content: ModelFileContent; built: Map<string, TopicClassifiers> }>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly keep = 2) {}

  /** The file's content from its text, decoded now or earlier; `key` defaults to the text's SHA-256. Throws as `decodeModelFile`. */
  readonly decodeText = (text: string, key: string = sha256(text)): ModelFileContent => this.#entry(key, () => decodeModelFile(text)).content;

  /**
   * The same from the file's bytes (or the file as a crawl's load reads it, `model-file-read.ts`)
   * and their SHA-256: the bytes become text only on a miss. Twenty crawls starting with one
   * model made twenty 13 MB strings that only a full collection frees (large objects), and the
   * service's memory peaked with them. Decoded whole, examples included: the entry is shared
   * with whatever else asks for the file.
   */
  readonly decode = (file: Buffer | ModelFileRead, key: string): ModelFileContent =>
    this.#entry(key, () => decodeModelFile(Buffer.isBuffer(file) ? file.toString('utf8') : file.text())).content;

  /** Loads read the whole file: an entry serves whoever asks next, examples included. */
  readonly examples = true;

  /** Forks of the topic's classifiers, built from `content` the first time they are asked for. */
  readonly classifiers = (content: ModelFileContent, key: string, topicId: string): TopicClassifiers => {
    // Built ones are kept with the file's entry (and go with it); content from elsewhere is built apart.
    const entry = this.#entries.get(key);
    const built = entry?.content === content ? entry.built : undefined;
    let classifiers = built?.get(topicId);
    if (!classifiers) {
      classifiers = FRESH_MODELS.classifiers(content, key, topicId);
      built?.set(topicId, classifiers);
    }
    return { model: classifiers.model?.fork(), levels: classifiers.levels?.fork() };
  };

  #entry(key: string, decode: () => ModelFileContent): { content: ModelFileContent; built: Map<string, TopicClassifiers> } {
    let entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
    } else {
      entry = { content: decode(), built: new Map() };
      if (this.#entries.size >= this.keep) this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(key, entry);
    return entry;
  }

  /** Runs `load` once the loads asked before it are done (one file read and decoded at a time). */
  serial<T>(load: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(load);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Decodes the file, text or bytes (checking it completely), and lists its topics. */
export async function inspectModelFile(file: string | Buffer, modelId: string, decoded?: DecodedModels): Promise<ModelSummary> {
  let content: ModelFileContent;
  try {
    if (typeof file !== 'string') content = decoded ? decoded.decode(file, sha256(file)) : decodeModelFile(file.toString('utf8'));
    else content = decoded ? decoded.decodeText(file) : decodeModelFile(file);
  } catch (error) {
    const line = (error as Error).message.split('\n')[0] ?? 'unreadable';
    // The model layer's message already says what is wrong ("not a LinkScent model file: …").
    throw new HttpError(400, error instanceof ModelFileError ? line : `not a LinkScent model file (${line})`);
  }
  if (content.topics.length === 0) throw new HttpError(400, 'the model file holds no topic');
  const topics = content.topics.map((topic) => ({
    id: topic.id,
    name: topic.name,
    examples: content.examples.filter((example) => example.topic === topic.id).length,
    trained: content.models.some((model) => model.topic === topic.id),
    topic,
  }));
  return { modelId, topics };
}
