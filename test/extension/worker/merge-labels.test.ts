/**
 * Pulling a crawl's labels back (`Engine.mergeLabels`) and the model files the companion gets
 * (`exportTopic`, `exportDatabase`): on the shared schema (fake-indexeddb) with the real
 * tokenizer and model.
 *
 * The labels file is made by the companion's own code (`labelsFileText`, what `crawl-manager.ts`
 * labelsFile serves): the crawl's topic and its `crawl` examples.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../extension/worker/engine.ts';
import { createDexieRepository } from '../../../extension/worker/dexie-repository.ts';
import { createDexieCompanionStore } from '../../../extension/storage/dexie-stores.ts';
import { CRAWL_CHOICE_DEFAULTS } from '../../../extension/storage/validate.ts';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { labelsFileText, saveLinkModel } from '../../../companion/model/link-model-file.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeModelFile } from '../../../shared/model/model-file.ts';
import { addExamples } from '../../../extension/storage/model-store.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import { linkFeatures } from '../../../shared/features/link-features.ts';
import type { LabeledLink, Topic } from '../../../shared/model/types.ts';
import { FINANCE_ANCHORS, hubExamples, memoryDb, SPORT_ANCHORS, tokenizer, topic as makeTopic } from '../support/memory-db.ts';

let db: LinkScentDb;
let engine: Engine;
let topic: Topic;

beforeEach(async () => {
  db = await memoryDb();
  engine = createEngine({ tokenizer, repository: createDexieRepository(db), saveDelayMs: 5 });
  topic = makeTopic();
  await db.topics.put(topic);
});
afterEach(async () => {
  await engine.flush();
  db.close();
});

/** Links a crawl labeled on a page the user never saw (source 'crawl'). */
function crawlExamples(topicId: string, page = 'https://crawled.example.net/hub'): LabeledLink[] {
  return hubExamples(topicId, page).map((example) => ({ ...example, source: 'crawl' as const }));
}

/** The companion's labels file for `examples` of `fileTopic` (a topic row as the crawl has it). */
async function labelsFile(fileTopic: Topic, examples: readonly LabeledLink[]): Promise<string> {
  return labelsFileText(fileTopic, examples);
}

/** The model trained from scratch on the stored examples, without save times, features sorted. */
async function batchRows(t: Topic) {
  const model = new NaiveBayes({ form: t.form });
  for (const row of await db.examples.where('topic').equals(t.id).toArray()) {
    model.add(linkFeatures(row, tokenizer, { group: t.featureGroup, lexicon: t.lexicon, urlTokens: false }), row.label);
  }
  return withoutTime(model.toRows(t.id));
}

async function storedRows(t: Topic) {
  await engine.flush();
  return withoutTime({ header: (await db.models.get(t.id))!, features: await db.features.where('topic').equals(t.id).toArray() });
}

function withoutTime(rows: ReturnType<NaiveBayes['toRows']>) {
  const { savedAt: _savedAt, ...header } = rows.header;
  return { header, features: [...rows.features].sort((a, b) => (a.feature < b.feature ? -1 : 1)) };
}

describe('merging a crawl’s labels', () => {
  it('adds the new link contexts, skips the stored ones, and counts them', async () => {
    // Browsing stored the portal's links by pattern; the crawl met those same contexts again
    // and twelve new ones on a page the user never saw.
    const browsed = hubExamples(topic.id);
    await engine.observe(topic, browsed);
    const crawled = [...crawlExamples(topic.id, browsed[0]!.pageUrl), ...crawlExamples(topic.id)];
    const file = await labelsFile(topic, crawled);

    expect(await engine.mergeLabels(topic, file)).toEqual({ offered: 24, added: 12, duplicates: 12 });
    expect(await engine.counts(topic)).toMatchObject({ byLabel: { on: 12, off: 12 }, bySource: { pattern: 12, crawl: 12 } });
    expect(await db.examples.count()).toBe(24);
    // A stored example stays as it was: the crawl's copy did not replace its source.
    const stored = await db.examples.where('url').equals(browsed[0]!.url).toArray();
    expect(stored.map((row) => [row.pageUrl, row.source]).sort()).toEqual([
      ['https://crawled.example.net/hub', 'crawl'],
      [browsed[0]!.pageUrl, 'pattern'],
    ]);
  });

  it('adds nothing on a second pull of the same file', async () => {
    const file = await labelsFile(topic, crawlExamples(topic.id));
    expect(await engine.mergeLabels(topic, file)).toEqual({ offered: 12, added: 12, duplicates: 0 });
    const counts = await engine.counts(topic);
    expect(await engine.mergeLabels(topic, file)).toEqual({ offered: 12, added: 0, duplicates: 12 });
    expect(await engine.counts(topic)).toEqual(counts);
    expect(await db.examples.count()).toBe(12);
  });

  it('updates the model incrementally: the warm model equals one trained on all stored examples', async () => {
    await engine.observe(topic, hubExamples(topic.id).slice(0, 4));
    const links = [
      { ref: 0, url: 'https://news.example.com/a', pageUrl: 'https://news.example.com/', anchor: FINANCE_ANCHORS[0]!, before: '', after: '' },
      { ref: 1, url: 'https://news.example.com/b', pageUrl: 'https://news.example.com/', anchor: SPORT_ANCHORS[0]!, before: '', after: '' },
    ];
    const before = await engine.scoreLinks(topic, links);
    await engine.mergeLabels(topic, await labelsFile(topic, crawlExamples(topic.id)));
    expect(await storedRows(topic)).toEqual(await batchRows(topic));
    const after = await engine.scoreLinks(topic, links);
    // Learned at once, no retrain: the sport-worded link, unseen before, now scores low.
    expect(after[1]!.p).toBeLessThan(before[1]!.p);
    expect(after[1]!.p).toBeLessThan(0.1);
    expect(after[0]!.p).toBeGreaterThan(0.9);
  });

  it('never lets a crawl’s label replace a person’s', async () => {
    const [first] = crawlExamples(topic.id);
    await engine.observe(topic, [{ ...first!, label: 0, source: 'user' }]);
    expect(await engine.mergeLabels(topic, await labelsFile(topic, [first!]))).toEqual({ offered: 1, added: 0, duplicates: 1 });
    const row = await db.examples.where('url').equals(first!.url).first();
    expect([row!.label, row!.source]).toEqual([0, 'user']);
  });

  it('takes the file’s only topic when the companion named it otherwise', async () => {
    const renamed = { ...topic, id: 'crawl-topic' };
    const file = await labelsFile(renamed, crawlExamples(renamed.id));
    expect(await engine.mergeLabels(topic, file, 'crawl-topic')).toMatchObject({ added: 12 });
    expect(await engine.mergeLabels(topic, file, 'unknown')).toMatchObject({ added: 0, duplicates: 12 });
    expect(await db.examples.where('topic').equals(topic.id).count()).toBe(12);
    expect(await db.topics.get('crawl-topic')).toBeUndefined();
  });

  it('refuses a file that is not a model file with one line, and changes nothing', async () => {
    await engine.observe(topic, hubExamples(topic.id));
    const file = await labelsFile(topic, crawlExamples(topic.id));
    await expect(engine.mergeLabels(topic, file.slice(0, -30))).rejects.toThrow(/^corrupt model file: invalid JSON/);
    await expect(engine.mergeLabels(topic, '{"error": "no crawl"}')).rejects.toThrow(/not a LinkScent model file/);
    expect(await db.examples.count()).toBe(12);
  });
});

describe('model files for the companion', () => {
  it('exports one topic with its examples and model, and nothing of the other topics, pages or settings', async () => {
    const other = makeTopic({ id: 'sport', name: '体育' });
    await db.topics.put(other);
    await engine.observe(topic, hubExamples(topic.id), { url: 'https://portal.example.net/', title: 'Portal' });
    await engine.observe(other, hubExamples(other.id));
    await createDexieCompanionStore(db).put({ port: 7431, token: 'secret-token-0123456789abcdef' });

    const text = await engine.exportTopic(topic);
    expect(text).not.toContain('secret-token');
    const file = decodeModelFile(text); // a valid model file: row counts match the rows
    expect(file.topics).toEqual([topic]);
    expect(file.examples).toHaveLength(12);
    expect(file.examples.every((row) => row.topic === topic.id)).toBe(true);
    expect(file.models.map((row) => row.topic)).toEqual([topic.id]);
    expect(file.features.length).toBeGreaterThan(0);
    expect(file.pages).toEqual([]);
    expect(file.settings).toEqual([]);
  });

  it('exports one topic of several when another fills the last chunk of a table (regression: a trailing comma)', async () => {
    // dexie-export-import writes 2,000 rows per chunk: the finance topic's examples come first,
    // then more than a chunk of another topic's, so a whole chunk is left out of the file.
    await engine.observe(topic, hubExamples(topic.id));
    const other = makeTopic({ id: 'sport', name: '体育' });
    await db.topics.put(other);
    const many = Array.from({ length: 2100 }, (_, i) => ({ ...hubExamples(other.id)[i % 12]!, url: `https://sport.example.org/many/${i}` }));
    await addExamples(db, many);
    const text = await engine.exportTopic(topic);
    expect(decodeModelFile(text).examples).toHaveLength(12);
    expect(decodeModelFile(await engine.exportTopic(other)).examples).toHaveLength(2100);
  });

  it('never writes the pairing token into an export, whatever row carried it', async () => {
    const token = 'secret-token-0123456789abcdef';
    await createDexieCompanionStore(db).put({ port: 7431, token });
    await addExamples(db, [{ ...hubExamples(topic.id)[0]!, pageUrl: `http://127.0.0.1:7431/dashboard?token=${token}` }]);
    await engine.observe(topic, hubExamples(topic.id));
    expect(await engine.exportDatabase()).not.toContain(token);
    expect(await engine.exportTopic(topic)).not.toContain(token);
  });

  it('exports a topic never scored yet with its model (the companion refuses a file without one)', async () => {
    await createDexieRepository(db).putExamples(hubExamples(topic.id)); // stored, no model saved
    expect(await db.models.count()).toBe(0);
    expect(decodeModelFile(await engine.exportTopic(topic)).models).toHaveLength(1);
  });

  it('imports a `linkscent train` file as one more topic, keeping every topic and example here', async () => {
    await engine.observe(topic, hubExamples(topic.id));
    const dir = mkdtempSync(join(tmpdir(), 'linkscent-train-'));
    try {
      const path = join(dir, 'model.json');
      const trained = hubExamples('x', 'https://crawl.example.net/').map((example) => ({ ...example, url: `${example.url}?c` }));
      const model = new NaiveBayes({ form: 'multinomial' });
      for (const example of trained) model.add(linkFeatures(example, tokenizer, { group: 2, lexicon: [], urlTokens: true }), example.label);
      saveLinkModel(path, { name: 'trained 财经', lexicon: [], threshold: 0.5, featureGroup: 2, form: 'multinomial', window: 80, urlTokens: true, model, examples: trained });
      const result = await engine.importDatabase(readFileSync(path, 'utf8'));
      expect(result).toEqual({ topics: 1, examples: 12, duplicates: 0, total: 24 });
      expect((await db.topics.toArray()).map((row) => row.name).sort()).toEqual(['trained 财经', '财经']);
      expect(await db.examples.where('topic').equals(topic.id).count()).toBe(12);
      // Importing it again adds nothing.
      expect(await engine.importDatabase(readFileSync(path, 'utf8'))).toMatchObject({ examples: 0, duplicates: 12 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('replaces the database only when asked to', async () => {
    await engine.observe(topic, hubExamples(topic.id));
    const other = makeTopic({ id: 'sport', name: '体育' });
    await db.topics.put(other);
    const file = await engine.exportTopic(topic);
    await engine.observe(other, hubExamples(other.id));
    expect(await engine.importDatabase(file, true)).toMatchObject({ topics: 1, total: 12 });
    expect((await db.topics.toArray()).map((row) => row.id)).toEqual([topic.id]);
  });

  it('keeps the pairing out of the database export, and keeps it across an import', async () => {
    const companion = createDexieCompanionStore(db);
    await engine.observe(topic, hubExamples(topic.id));
    await companion.put({ port: 7555, token: 'secret-token-0123456789abcdef', lastCrawl: { id: 'c1', topicId: topic.id, startedAt: 1 } });
    await db.settings.put({ key: 'maxLinksPerPage', value: 500 });

    const text = await engine.exportDatabase();
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('companion.');
    expect(decodeModelFile(text).settings).toEqual([{ key: 'maxLinksPerPage', value: 500 }]);

    // A file that carries someone else's pairing does not replace ours.
    const foreign = JSON.parse(text);
    const settings = foreign.data.data.find((entry: { tableName: string }) => entry.tableName === 'settings');
    settings.rows.push({ key: 'companion.token', value: 'someone-elses-token-0123456789' });
    foreign.data.tables.find((table: { name: string }) => table.name === 'settings').rowCount = settings.rows.length;
    await engine.importDatabase(JSON.stringify(foreign));
    expect(await companion.get()).toEqual({ port: 7555, token: 'secret-token-0123456789abcdef', lastCrawl: { id: 'c1', topicId: topic.id, startedAt: 1 }, crawlChoice: CRAWL_CHOICE_DEFAULTS });
    expect(await db.settings.get('maxLinksPerPage')).toEqual({ key: 'maxLinksPerPage', value: 500 });
  });
});
