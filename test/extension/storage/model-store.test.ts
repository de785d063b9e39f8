import { afterEach, describe, expect, it } from 'vitest';
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { LINKSCENT_DB_NAME, STORES_BY_VERSION, TABLE_NAMES } from '../../../shared/model/model-file-schema.ts';
import { exampleKey } from '../../../shared/model/example-key.ts';
import { addExamples, listExamples, loadModel, saveModel } from '../../../extension/storage/model-store.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { LabeledLink, Topic } from '../../../shared/model/types.ts';
import { memoryDb } from '../support/memory-db.ts';

const TOPIC: Topic = {
  id: 't',
  name: 'T',
  lexicon: [],
  positive: [],
  negative: [],
  threshold: 0.5,
  featureGroup: 2,
  form: 'multinomial',
  window: 80,
};
const link = (anchor: string, label: 0 | 1 = 1, topic = 't'): LabeledLink => ({
  url: `https://x.example/${anchor}`,
  pageUrl: 'https://x.example/',
  anchor,
  before: 'b',
  after: 'a',
  label,
  source: 'user',
  topic,
});
const vec = (...features: string[]) => new Map(features.map((f) => [f, 1]));

const open: LinkScentDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});
async function freshDb(factory?: IDBFactory) {
  const db = await memoryDb(factory);
  open.push(db);
  return db;
}

describe('db schema', () => {
  it('has the eight tables of format version 3, in the codec\'s order, named "linkscent"', async () => {
    const db = await freshDb();
    expect(db.name).toBe(LINKSCENT_DB_NAME);
    expect(db.verno).toBe(3);
    expect(db.tables.map((t) => t.name)).toEqual(TABLE_NAMES);
    expect(db.examples.schema.primKey.auto).toBe(true);
    expect(db.examples.schema.idxByName['[topic+key]']?.unique).toBe(true);
  });

  it('refuses a second example with the same [topic+key]', async () => {
    const db = await freshDb();
    const row = () => ({ ...link('a'), key: exampleKey(link('a')), addedAt: 0 }); // add() writes the new id into its argument
    await db.examples.add(row());
    await expect(db.examples.add(row())).rejects.toThrow(/constraint/i);
    await db.examples.add({ ...row(), topic: 'other' }); // another topic may hold the same link
    expect(await db.examples.count()).toBe(2);
  });
});

describe('the upgrade from version 1 to the current version', () => {
  it('adds the level tables and keeps every row of a version-1 database', async () => {
    const factory = new IDBFactory();
    const v1 = new Dexie(LINKSCENT_DB_NAME, { indexedDB: factory, IDBKeyRange });
    v1.version(1).stores(STORES_BY_VERSION[1]);
    await v1.open();
    const model = new NaiveBayes({ form: 'multinomial' }).fit([vec('a:x', 'a:y'), vec('a:z')], [1, 0]);
    const { header, features } = model.toRows(TOPIC.id);
    await v1.table('topics').put(TOPIC);
    await v1.table('models').put(header);
    await v1.table('features').bulkPut(features);
    await v1.table('examples').add({ ...link('a'), key: exampleKey(link('a')), addedAt: 1 });
    await v1.table('pages').put({ topic: 't', url: 'https://x.example/', title: 'X', seenAt: 2 });
    await v1.table('settings').put({ key: 'maxLinksPerPage', value: 500 });
    const before = Object.fromEntries(await Promise.all(v1.tables.map(async (t) => [t.name, await t.toArray()] as const)));
    v1.close();

    const db = await freshDb(factory);
    expect(db.verno).toBe(3);
    for (const [name, rows] of Object.entries(before)) expect(await db.table(name).toArray()).toEqual(rows);
    expect(await db.levelModels.count()).toBe(0);
    await db.levelModels.put({ topic: 't', rowsVersion: 1, levels: 3, alpha: 1, count: [1, 0, 0], tokens: [1, 0, 0], vocabularySize: 1, savedAt: 3 });
    await db.levelFeatures.put({ topic: 't', feature: 'a:x', occurrences: [1, 0, 0] });
    expect(await db.levelFeatures.where('topic').equals('t').count()).toBe(1);
    expect((await loadModel(db, TOPIC.id))!.score(vec('a:x')).p).toBe(model.score(vec('a:x')).p);
  });
});

describe('model store', () => {
  it('saves and loads a model; a topic without one gives undefined', async () => {
    const db = await freshDb();
    const model = new NaiveBayes({ form: 'multinomial' }).fit([vec('a:x', 'a:y'), vec('a:z')], [1, 0]);
    await saveModel(db, TOPIC, model);
    expect(await db.topics.get('t')).toEqual(TOPIC);
    const loaded = (await loadModel(db, 't'))!;
    expect(loaded.score(vec('a:x', 'a:z'))).toEqual(model.score(vec('a:x', 'a:z')));
    expect(await loadModel(db, 'nothing')).toBeUndefined();
  });

  it('saving again replaces every feature row of the topic, and only of that topic', async () => {
    const db = await freshDb();
    await saveModel(db, { ...TOPIC, id: 'u' }, new NaiveBayes({ form: 'bernoulli' }).fit([vec('a:keep')], [1]));
    await saveModel(db, TOPIC, new NaiveBayes({ form: 'bernoulli' }).fit([vec('a:old', 'a:gone')], [1]));
    await saveModel(db, TOPIC, new NaiveBayes({ form: 'bernoulli' }).fit([vec('a:new')], [0]));
    expect((await db.features.where('topic').equals('t').toArray()).map((r) => r.feature)).toEqual(['a:new']);
    expect((await db.features.where('topic').equals('u').toArray()).map((r) => r.feature)).toEqual(['a:keep']);
    expect((await loadModel(db, 't'))!.vocabularySize).toBe(1);
  });

  it('a damaged model (a feature row lost) is an error naming it, not a wrong score', async () => {
    const db = await freshDb();
    await saveModel(db, TOPIC, new NaiveBayes({ form: 'bernoulli' }).fit([vec('a:x', 'a:y')], [1]));
    await db.features.delete(['t', 'a:y']);
    await expect(loadModel(db, 't')).rejects.toThrow(/header says 2 features but 1 rows/);
  });

  it('adds examples once per [topic+key], in the batch and against the database', async () => {
    const db = await freshDb();
    expect(await addExamples(db, [link('a'), link('b'), link('a', 0)], 5)).toEqual({ added: 2, duplicates: 1 });
    expect(await addExamples(db, [link('b'), link('c'), link('a', 1, 'other')], 6)).toEqual({ added: 2, duplicates: 1 });
    const rows = await listExamples(db, 't');
    expect(rows.map((r) => [r.anchor, r.label, r.addedAt])).toEqual([
      ['a', 1, 5],
      ['b', 1, 5],
      ['c', 1, 6],
    ]);
    expect(rows.every((r) => r.key === exampleKey(r))).toBe(true);
    expect(await listExamples(db, 'other')).toHaveLength(1);
  });

  it('gives an example read from elsewhere a fresh id', async () => {
    const db = await freshDb();
    await addExamples(db, [link('a')]);
    const [row] = await listExamples(db, 't');
    const { added } = await addExamples(db, [{ ...row!, anchor: 'moved' } as LabeledLink]);
    expect(added).toBe(1);
    expect((await listExamples(db, 't')).map((r) => r.id)).toEqual([1, 2]);
  });
});
