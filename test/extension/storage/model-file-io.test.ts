import { afterEach, describe, expect, it } from 'vitest';
import { openNodeDb } from '../../../companion/platform/node-indexeddb.ts';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { exportModelFile, importModelFile, ModelFileError } from '../../../shared/model/model-file.ts';
import { addExamples, listExamples, loadModel, saveModel } from '../../../extension/storage/model-store.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { LabeledLink, Topic } from '../../../shared/model/types.ts';
import { FINANCE_SPORTS, bagOf } from './finance-sports.fixture.ts';

const TOPIC: Topic = {
  id: 'finance',
  name: '财经',
  lexicon: ['股票', '基金'],
  positive: ['finance.example.com'],
  negative: [],
  threshold: 0.5,
  featureGroup: 1,
  form: 'bernoulli',
  window: 80,
};

const EXAMPLES: LabeledLink[] = FINANCE_SPORTS.map(({ anchor, label }, n) => ({
  url: `https://${label ? 'finance' : 'sports'}.example.com/${n}`,
  pageUrl: 'https://portal.example.com/',
  anchor: anchor.replaceAll(' ', ''),
  before: '',
  after: '',
  label,
  source: 'pattern',
  topic: TOPIC.id,
}));

const PROBES = ['股票 行情', '足球 比赛', '央行 利率 解读', '没见过'].map(bagOf);

function train(examples: readonly LabeledLink[], form = TOPIC.form): NaiveBayes {
  return new NaiveBayes({ form }).fit(examples.map((e) => ({ features: bagOf(e.anchor.replace(/(..)/g, '$1 ')), label: e.label })));
}

const open: LinkScentDb[] = [];
async function freshDb(): Promise<LinkScentDb> {
  const db = await openNodeDb();
  open.push(db);
  return db;
}
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/** A database holding one of everything. */
async function filledDb(): Promise<{ db: LinkScentDb; model: NaiveBayes }> {
  const db = await freshDb();
  const model = train(EXAMPLES);
  await saveModel(db, TOPIC, model);
  await addExamples(db, EXAMPLES, 1_700_000_000_000);
  await db.pages.put({ topic: TOPIC.id, url: 'https://finance.example.com/1', title: '股票', label: 1, seenAt: 1_700_000_000_001 });
  await db.settings.put({ key: 'excludedSites', value: ['bank.example.com'] });
  return { db, model };
}

async function fileText(db: LinkScentDb): Promise<string> {
  return (await exportModelFile(db)).text();
}

const blob = (text: string) => new Blob([text], { type: 'application/json' });

/** Everything in the database, for "unchanged" checks. */
async function snapshot(db: LinkScentDb) {
  return Object.fromEntries(await Promise.all(db.tables.map(async (table) => [table.name, await table.toArray()] as const)));
}

async function rejection(promise: Promise<unknown>): Promise<ModelFileError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelFileError);
  return error as ModelFileError;
}

describe('model file round trip', () => {
  it.each([false, true])('export → file text → import (replace: %s) into a fresh db: same examples, identical scores', async (replace) => {
    const { db, model } = await filledDb();
    const text = await fileText(db);
    expect(JSON.parse(text)).toMatchObject({ formatName: 'dexie', formatVersion: 1, data: { databaseName: 'linkscent', databaseVersion: 1 } });

    const target = await freshDb();
    const summary = await importModelFile(target, blob(text), { replace });
    expect(summary).toEqual({ topics: 1, models: 1, examples: 40, duplicateExamples: 0 });

    const strip = (rows: { id?: number }[]) => rows.map(({ id: _id, ...row }) => row);
    expect(strip(await listExamples(target, TOPIC.id))).toEqual(strip(await listExamples(db, TOPIC.id)));
    expect(await target.topics.toArray()).toEqual([TOPIC]);
    expect(await target.pages.toArray()).toEqual(await db.pages.toArray());
    expect(await target.settings.toArray()).toEqual(await db.settings.toArray());
    const loaded = (await loadModel(target, TOPIC.id))!;
    expect(PROBES.map((x) => loaded.score(x))).toEqual(PROBES.map((x) => model.score(x)));
    // and the imported database exports the same file again (replace keeps ids too)
    if (replace) expect(await fileText(target)).toBe(text);
  });

  it('merge import twice does not duplicate examples', async () => {
    const { db } = await filledDb();
    const text = await fileText(db);
    const target = await freshDb();
    await importModelFile(target, blob(text));
    const second = await importModelFile(target, blob(text));
    expect(second).toMatchObject({ examples: 0, duplicateExamples: 40 });
    expect(await target.examples.count()).toBe(40);
    expect(await target.features.count()).toBe(await db.features.count());
  });

  it('merge keeps the examples already there, whatever their ids, and adds the new ones with fresh ids', async () => {
    const { db } = await filledDb();
    const text = await fileText(db);
    const target = await freshDb();
    const own: LabeledLink = { ...EXAMPLES[0]!, url: 'https://finance.example.com/own', anchor: '自己的' };
    await addExamples(target, [own, EXAMPLES[1]!]); // ids 1 and 2 here; the file also has ids 1 and 2
    const summary = await importModelFile(target, blob(text));
    expect(summary).toMatchObject({ examples: 39, duplicateExamples: 1 });
    const rows = await listExamples(target, TOPIC.id);
    expect(rows).toHaveLength(41);
    expect(rows.filter((row) => row.url === own.url)).toHaveLength(1);
    expect(new Set(rows.map((row) => row.id)).size).toBe(41);
  });

  it("merge replaces a topic's whole model: no stale feature rows survive", async () => {
    const { db } = await filledDb();
    const text = await fileText(db);
    const target = await freshDb();
    await saveModel(target, TOPIC, new NaiveBayes({ form: 'bernoulli' }).fit([{ features: bagOf('陈旧 特征'), label: 1 }]));
    await importModelFile(target, blob(text));
    const loaded = (await loadModel(target, TOPIC.id))!;
    const expected = (await loadModel(db, TOPIC.id))!;
    expect(loaded.vocabularySize).toBe(expected.vocabularySize);
    expect(await target.features.where('[topic+feature]').equals([TOPIC.id, 'a:陈旧']).count()).toBe(0);
    expect(PROBES.map((x) => loaded.score(x))).toEqual(PROBES.map((x) => expected.score(x)));
  });

  it("merge keeps this installation's settings and adds the ones it lacks", async () => {
    const { db } = await filledDb();
    await db.settings.put({ key: 'highlight', value: 'underline' });
    const text = await fileText(db);
    const target = await freshDb();
    await target.settings.put({ key: 'excludedSites', value: [] });
    await importModelFile(target, blob(text));
    expect(await target.settings.get('excludedSites')).toEqual({ key: 'excludedSites', value: [] });
    expect(await target.settings.get('highlight')).toEqual({ key: 'highlight', value: 'underline' });
  });

  it('replace empties the tables first: the database holds exactly the file', async () => {
    const { db } = await filledDb();
    const text = await fileText(db);
    const target = await freshDb();
    await target.topics.put({ ...TOPIC, id: 'other', name: 'other' });
    await importModelFile(target, blob(text), { replace: true });
    expect((await target.topics.toArray()).map((t) => t.id)).toEqual([TOPIC.id]);
  });
});

describe('a bad model file is rejected in one clear line, and nothing changes', () => {
  /** The bad file: its text, or the text made from a good file's text, or an edit of its parsed JSON. */
  type Bad = string | { cut: (good: string) => string } | ((file: any) => unknown);
  const cases: [string, Bad, RegExp][] = [
    ['truncated JSON', { cut: (good) => good.slice(0, Math.floor(good.length / 2)) }, /^corrupt model file: invalid JSON at position \d+ \(line 1, column \d+\): the text ends early \(truncated\?\)$/],
    ['a stray comma', '{"formatName": "dexie",, "x": 1}', /^corrupt model file: invalid JSON at position 23 \(line 1, column 24\): expected a property name in double quotes$/],
    ['an empty file', '  \n', /^corrupt model file: the file is empty$/],
    ['JSON that is not a Dexie export', '{"hello": "world"}', /^not a LinkScent model file: not a Dexie export \(no "formatName": "dexie"\)$/],
    ['a JSON list', '[1, 2, 3]', /^not a LinkScent model file: not a Dexie export/],
    ['another format', (f) => (f.formatName = 'idb-backup'), /^not a LinkScent model file: not a Dexie export \("formatName" is "idb-backup", expected "dexie"\)$/],
    ['a newer Dexie format', (f) => (f.formatVersion = 2), /^not a LinkScent model file: Dexie export format version 2 is not supported \(expected 1\)$/],
    ["another app's database", (f) => (f.data.databaseName = 'todo-app'), /^not a LinkScent model file: database "todo-app" is not LinkScent's \("linkscent"\)$/],
    ['a newer schema', (f) => (f.data.databaseVersion = 7), /^unsupported model file: schema version 7 is newer than this LinkScent's 1; update LinkScent$/],
    ['a foreign table', (f) => f.data.tables.push({ name: 'foo', schema: '++id', rowCount: 0 }), /^not a LinkScent model file: table 'foo' unknown$/],
    ['foreign rows', (f) => f.data.data.push({ tableName: 'foo', inbound: true, rows: [] }), /^not a LinkScent model file: table 'foo' unknown$/],
    ['another schema for a table', (f) => (f.data.tables[1].schema = '++id,url'), /^not a LinkScent model file: table 'examples' has schema "\+\+id,url", expected "\+\+id,&\[topic\+key\],topic,label,source,url,pageUrl"$/],
    ['missing rows', (f) => f.data.data[1].rows.pop(), /^corrupt model file: table 'examples' lists 40 rows but holds 39$/],
    ['a bad label', (f) => (f.data.data[1].rows[2].label = true), /^corrupt model file: table 'examples' row 3: "label" must be 0 or 1$/],
    ['an edited example', (f) => (f.data.data[1].rows[4].anchor = 'changed'), /^corrupt model file: table 'examples' row 5: "key" is not the exampleKey/],
    ['a duplicated example', (f) => f.data.data[1].rows.push({ ...f.data.data[1].rows[0], id: 999 }) && f.data.tables[1].rowCount++, /^corrupt model file: table 'examples' row 41: key \["finance","[0-9a-f]{16}"\] appears twice$/],
    ['counts that do not add up', (f) => (f.data.data[3].rows[0].count = [999, 0]), /^corrupt model file: model of topic 'finance': feature row "a:[^"]+": count 999 in class 0 exceeds the class's 20 examples$/],
    ['features without a model', (f) => ((f.data.data[2].rows = []), (f.data.tables[2].rowCount = 0)), /^corrupt model file: table 'features' has rows of topic 'finance', which has no model$/],
    ['a topic without a form', (f) => delete f.data.data[0].rows[0].form, /^corrupt model file: table 'topics' row 1: "form" must be "bernoulli" or "multinomial"$/],
    ['a topic whose urlTokens is not a boolean', (f) => (f.data.data[0].rows[0].urlTokens = 'yes'), /^corrupt model file: table 'topics' row 1: "urlTokens" must be true or false when given$/],
  ];

  it.each(cases)('%s', async (_name, bad, message) => {
    const { db: source } = await filledDb();
    const good = await fileText(source);
    let text: string;
    if (typeof bad === 'string') text = bad;
    else if (typeof bad === 'object') text = bad.cut(good);
    else {
      const file = JSON.parse(good);
      bad(file);
      text = JSON.stringify(file);
    }
    for (const replace of [false, true]) {
      const { db: target } = await filledDb();
      await target.settings.put({ key: 'marker', value: replace });
      const before = await snapshot(target);
      const error = await rejection(importModelFile(target, blob(text), { replace }));
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('\n');
      expect(await snapshot(target)).toEqual(before);
    }
  });

  it('a write that fails half-way is rolled back: replace and merge both leave the database as it was', async () => {
    const { db: source } = await filledDb();
    await source.settings.put({ key: 'late', value: 1 }); // settings are written last
    const text = await fileText(source);
    for (const replace of [false, true]) {
      const target = await freshDb();
      await target.topics.put({ ...TOPIC, id: 'mine', name: 'mine' });
      await addExamples(target, [{ ...EXAMPLES[3]!, topic: 'mine' }]);
      const before = await snapshot(target);
      const refuse = () => {
        throw new Error('disk full');
      };
      target.settings.hook('creating', refuse);
      await expect(importModelFile(target, blob(text), { replace })).rejects.toThrow(/disk full/);
      target.settings.hook('creating').unsubscribe(refuse);
      expect(await snapshot(target)).toEqual(before);
    }
  });
});
