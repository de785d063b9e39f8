/**
 * Reading a model file (a Dexie export, the file the extension imports and exports) for a
 * crawl: the topic it is for and its Naive Bayes model, plus a fingerprint (SHA-256 of the
 * file) the crawl store keeps so a resume with another model is noticed.
 *
 * Every way a file can be unusable is one line naming the file: not a model file, no topic, a
 * topic that was never trained, several topics and none chosen, the chosen one missing.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { NaiveBayes } from '../../shared/model/naive-bayes.ts';
import { ModelFileError } from '../../shared/model/model-file-check.ts';
import { loadModel } from '../../shared/model/model-store.ts';
import type { Topic } from '../../shared/model/types.ts';
import { readModelFile } from '../platform/node-indexeddb.ts';

export interface LoadedModel {
  topic: Topic;
  model: NaiveBayes;
  /** SHA-256 of the file's bytes, hex. */
  fingerprint: string;
}

/** The file cannot give a model (the model layer's error, reused): report the line and stop. */
export { ModelFileError };

/**
 * The model of the file's only topic, or of `topicName` (matched against a topic's id, then its
 * name) when the file holds several.
 */
export async function loadModelFile(path: string, topicName?: string): Promise<LoadedModel> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new ModelFileError(`cannot read model file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  const fingerprint = createHash('sha256').update(bytes).digest('hex');
  let db: Awaited<ReturnType<typeof readModelFile>>;
  try {
    db = await readModelFile(path);
  } catch (error) {
    const line = (error as Error).message.split('\n')[0];
    const message = error instanceof ModelFileError ? `${path}: ${line}` : `${path} is not a LinkScent model file (${line})`;
    throw new ModelFileError(message, { cause: error });
  }
  try {
    const topics: Topic[] = await db.topics.toArray();
    const topic = chooseTopic(path, topics, topicName);
    const model = await loadModel(db, topic.id);
    if (!model) throw new ModelFileError(`${path}: topic "${topic.name}" has no trained model (run linkscent train first)`);
    return { topic, model, fingerprint };
  } finally {
    db.close();
  }
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
