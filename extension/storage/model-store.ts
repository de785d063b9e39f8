/**
 * Reading and writing models and examples in the extension's database (`database.ts`). A model is its
 * header row plus its feature rows; both are written in one transaction, so a reader never sees
 * a header with another model's features.
 */
import { exampleRows } from '../../shared/model/example-key.ts';
import { NaiveBayes } from '../../shared/model/naive-bayes.ts';
import type { ExampleRow, LabeledLink, Topic } from '../../shared/model/types.ts';
import type { LinkScentDb } from './database.ts';

/** Stores the topic and replaces its model (header and every feature row) in one transaction. */
export async function saveModel(db: LinkScentDb, topic: Topic, nb: NaiveBayes): Promise<void> {
  const { header, features } = nb.toRows(topic.id);
  await db.transaction('rw', [db.topics, db.models, db.features], async () => {
    await db.topics.put(topic);
    await db.features.where('topic').equals(topic.id).delete();
    await db.models.put(header);
    await db.features.bulkAdd(features);
  });
}

/**
 * The topic's model, or undefined when it has none. Rows that do not add up (a damaged database)
 * throw an Error naming the row, rather than scoring with wrong counts.
 */
export async function loadModel(db: LinkScentDb, topicId: string): Promise<NaiveBayes | undefined> {
  return db.transaction('r', [db.models, db.features], async () => {
    const header = await db.models.get(topicId);
    if (!header) return undefined;
    const features = await db.features.where('topic').equals(topicId).toArray();
    return NaiveBayes.fromRows(header, features);
  });
}

/**
 * Stores the examples not already stored: one per `[topic+key]` (`exampleKey`), the first met
 * kept, whether the duplicate is in the database or earlier in `examples`. Labels of stored
 * examples are left as they are (relabeling is the caller's decision).
 */
export async function addExamples(
  db: LinkScentDb,
  examples: readonly LabeledLink[],
  now: number = Date.now(),
): Promise<{ added: number; duplicates: number }> {
  return db.transaction('rw', db.examples, async () => {
    const candidates = exampleRows(examples, now);
    const duplicates = examples.length - candidates.length;
    // The compound index's own keys: which [topic, key] pairs are stored already.
    const stored = await db.examples.where('[topic+key]').anyOf(candidates.map((row) => [row.topic, row.key])).keys();
    const existing = new Set(stored.map((pair) => JSON.stringify(pair)));
    const fresh = candidates.filter((row) => !existing.has(JSON.stringify([row.topic, row.key])));
    await db.examples.bulkAdd(fresh);
    return { added: fresh.length, duplicates: duplicates + candidates.length - fresh.length };
  });
}

/** The topic's examples, in the order they were added (an index is walked in primary-key order within a value). */
export async function listExamples(db: LinkScentDb, topicId: string): Promise<ExampleRow[]> {
  return db.examples.where('topic').equals(topicId).toArray();
}
