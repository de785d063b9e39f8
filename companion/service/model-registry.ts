/**
 * Model files uploaded by the extension (`POST /api/models`), kept as `models/<modelId>.json` in
 * the home directory. The id is the start of the file's SHA-256, so uploading the same file twice
 * gives the same id and one copy. A file is checked completely (the shared model-file check and a
 * trial import) before it is kept; what is wrong with a bad one is one sentence for a 400.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelFileError } from '../../shared/model/model-file-check.ts';
import type { Topic } from '../../shared/model/types.ts';
import { openModelFileText, type OpenModelFile } from '../platform/node-indexeddb.ts';
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
    const summary = await inspectModelText(text, modelId);
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

  text(modelId: string): string {
    return readFileSync(this.pathOf(modelId), 'utf8');
  }

  private path(modelId: string): string {
    return join(this.dir, `${modelId}.json`);
  }
}

/** Imports the text into a scratch database and lists its topics. */
export async function inspectModelText(text: string, modelId: string): Promise<ModelSummary> {
  let db: OpenModelFile;
  try {
    db = await openModelFileText(text);
  } catch (error) {
    const line = (error as Error).message.split('\n')[0] ?? 'unreadable';
    // The model layer's message already says what is wrong ("not a LinkScent model file: …").
    throw new HttpError(400, error instanceof ModelFileError ? line : `not a LinkScent model file (${line})`);
  }
  try {
    const topics = await db.topics.toArray();
    if (topics.length === 0) throw new HttpError(400, 'the model file holds no topic');
    const summaries = [];
    for (const topic of topics) {
      const examples = await db.examples.where('topic').equals(topic.id).count();
      const trained = (await db.models.get(topic.id)) !== undefined;
      summaries.push({ id: topic.id, name: topic.name, examples, trained, topic });
    }
    return { modelId, topics: summaries };
  } finally {
    db.close();
  }
}
