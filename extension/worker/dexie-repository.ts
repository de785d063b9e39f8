/**
 * The worker's storage on the extension's database (`storage/database.ts`): examples
 * (deduplicated by `[topic+key]`), pages, models through `storage/model-store.ts`, and the whole
 * database as a model file through `storage/model-file-io.ts` (the companion's format).
 *
 * The companion pairing (`companion.*` rows of `settings`, see `storage/dexie-stores.ts`) is kept
 * out of every file written here: the token is this installation's secret, while model files are
 * uploaded to the companion, kept in its crawl directories and passed around.
 */
import { exampleKey } from '../../shared/model/example-key.ts';
import { decodeModelFile } from '../../shared/model/model-file.ts';
import type { TableName } from '../../shared/model/model-file-schema.ts';
import type { ExampleRow, LabeledLink, LabelSource } from '../../shared/model/types.ts';
import type { Counts } from '../messages/protocol.ts';
import type { LinkScentDb } from '../storage/database.ts';
import { COMPANION_KEY_PREFIX } from '../storage/dexie-stores.ts';
import { exportModelFile, importModelFile } from '../storage/model-file-io.ts';
import { addExamples, listExamples, loadModel, saveModel } from '../storage/model-store.ts';
import type { ExampleRepository, FileExamples, Relabeling } from './repository.ts';

const HUMAN: ReadonlySet<LabelSource> = new Set(['user', 'page']);

/** The labeled link of a stored row (no id, key or time). */
function linkOf(row: ExampleRow): LabeledLink {
  const { url, pageUrl, anchor, before, after, label, source, topic } = row;
  return { url, pageUrl, anchor, before, after, label, source, topic };
}

type Row = Record<string, unknown>;

const isPairingRow = (table: string, row: Row) =>
  table === 'settings' && typeof row.key === 'string' && row.key.startsWith(COMPANION_KEY_PREFIX);

/** The tables a topic's model file holds, and the field naming the topic in each. */
const TOPIC_FIELD: Partial<Record<TableName, string>> = {
  topics: 'id',
  examples: 'topic',
  models: 'topic',
  features: 'topic',
  levelModels: 'topic',
  levelFeatures: 'topic',
};

/**
 * Whether a row holds this installation's pairing token anywhere (issue 12: a URL of the
 * companion's dashboard once carried it into examples). No exported row ever does.
 */
async function tokenCheck(db: LinkScentDb): Promise<(row: Row) => boolean> {
  const token = (await db.settings.get(`${COMPANION_KEY_PREFIX}token`))?.value;
  return typeof token === 'string' && token !== '' ? (row) => JSON.stringify(row).includes(token) : () => false;
}

export function createDexieRepository(db: LinkScentDb): ExampleRepository {
  return {
    async putExamples(examples, { relabel = true } = {}) {
      const relabeled: Relabeling[] = [];
      const added: LabeledLink[] = [];
      await db.transaction('rw', [db.topics, db.examples], async () => {
        // Examples of a topic deleted while its page was being scored are dropped.
        const live = new Set((await db.topics.bulkGet([...new Set(examples.map((e) => e.topic))])).flatMap((t) => (t ? [t.id] : [])));
        examples = examples.filter((example) => live.has(example.topic));
        // A person's label may replace a stored one; everything else only adds.
        const human = relabel ? examples.filter((example) => HUMAN.has(example.source)) : [];
        for (const example of human) {
          const stored = await db.examples.where('[topic+key]').equals([example.topic, exampleKey(example)]).first();
          if (!stored || (stored.label === example.label && stored.source === example.source)) continue;
          await db.examples.update(stored.id!, { label: example.label, source: example.source });
          relabeled.push({ before: linkOf(stored), after: { ...linkOf(stored), label: example.label, source: example.source } });
        }
        const keys = examples.map((example) => [example.topic, exampleKey(example)] as [string, string]);
        const stored = new Set((await db.examples.where('[topic+key]').anyOf(keys).keys()).map((k) => JSON.stringify(k)));
        const seen = new Set<string>();
        const fresh = examples.filter((_example, i) => {
          const id = JSON.stringify(keys[i]);
          if (stored.has(id) || seen.has(id)) return false;
          seen.add(id);
          return true;
        });
        const { added: count } = await addExamples(db, fresh);
        if (count !== fresh.length) throw new Error(`examples: expected to add ${fresh.length}, added ${count}`);
        added.push(...fresh);
      });
      return { added, relabeled };
    },

    async examplesTo(topicId, url, pageUrl) {
      const rows = await db.examples.where('url').equals(url).toArray();
      return rows.filter((row) => row.topic === topicId && (pageUrl === undefined || row.pageUrl === pageUrl));
    },

    // A note for a topic that no longer exists (an import replaced the database while the note
    // was in flight) is dropped, in the same transaction that would write it.
    async notePage(topicId, page) {
      await db.transaction('rw', db.pages, db.topics, async () => {
        if (!(await db.topics.get(topicId))) return;
        const stored = await db.pages.get([topicId, page.url]);
        await db.pages.put({ ...stored, topic: topicId, url: page.url, title: page.title || stored?.title || '', seenAt: Date.now() });
      });
    },

    async markPage(topicId, url, label) {
      await db.transaction('rw', db.pages, db.topics, async () => {
        if (!(await db.topics.get(topicId))) return;
        const stored = await db.pages.get([topicId, url]);
        await db.pages.put({ topic: topicId, url, title: stored?.title ?? '', seenAt: stored?.seenAt ?? Date.now(), label });
      });
    },

    topic: (topicId) => db.topics.get(topicId),

    examples: (topicId) => listExamples(db, topicId).then((rows) => rows.map(linkOf)),

    async counts(topicId): Promise<Counts> {
      const counts: Counts = { byLabel: { on: 0, off: 0 }, bySource: {}, pagesSeen: 0 };
      const rows = topicId === null ? db.examples.toCollection() : db.examples.where('topic').equals(topicId);
      await rows.each((row) => {
        counts.byLabel[row.label === 1 ? 'on' : 'off']++;
        counts.bySource[row.source] = (counts.bySource[row.source] ?? 0) + 1;
      });
      counts.pagesSeen = topicId === null ? await db.pages.count() : await db.pages.where('topic').equals(topicId).count();
      return counts;
    },

    async deleteTopicData(topicId) {
      await db.transaction('rw', [db.examples, db.models, db.features, db.levelModels, db.levelFeatures, db.pages], async () => {
        await db.examples.where('topic').equals(topicId).delete();
        await db.models.delete(topicId);
        await db.features.where('topic').equals(topicId).delete();
        await db.levelModels.delete(topicId);
        await db.levelFeatures.where('topic').equals(topicId).delete();
        await db.pages.where('topic').equals(topicId).delete();
      });
    },

    loadModel: (topicId) => loadModel(db, topicId),
    async saveModel(topic, model) {
      // A model saved after its topic was deleted would bring the topic back.
      await db.transaction('rw', [db.topics, db.models, db.features], async () => {
        if (await db.topics.get(topic.id)) await saveModel(db, topic, model);
      });
    },

    async exportFile() {
      const holdsToken = await tokenCheck(db);
      return exportModelFile(db, (table, row) => !isPairingRow(table, row) && !holdsToken(row));
    },

    async exportTopicFile(topicId) {
      // What a crawl needs: the topic, its examples and its model. The pages the user saw and
      // the settings stay here.
      const holdsToken = await tokenCheck(db);
      return exportModelFile(db, (table, row) => {
        const field = TOPIC_FIELD[table];
        return field !== undefined && row[field] === topicId && !holdsToken(row);
      });
    },

    async readFileExamples(fileText): Promise<FileExamples> {
      const file = decodeModelFile(fileText);
      return { topicIds: file.topics.map((topic) => topic.id), examples: file.examples.map(linkOf) };
    },

    async importFile(fileText, { replace = false } = {}) {
      const pairing = await db.settings.where('key').startsWith(COMPANION_KEY_PREFIX).toArray();
      const summary = await importModelFile(db, fileText, { replace });
      // A file never carries this installation's pairing (see the header); whatever pairing rows
      // a hand-made file had are replaced by ours. A second transaction: the import's own must
      // not wait on anything but IndexedDB.
      await db.transaction('rw', db.settings, async () => {
        await db.settings.where('key').startsWith(COMPANION_KEY_PREFIX).delete();
        await db.settings.bulkPut(pairing);
      });
      return summary;
    },
  };
}
