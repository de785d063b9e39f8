/**
 * The extension's model files (`extension/storage/model-file-io.ts`) on its Dexie database over
 * fake-indexeddb: byte for byte what dexie-export-import's `exportDB` writes for the same rows, in
 * both directions (a Dexie export decodes and encodes to itself; a codec file imports and Dexie
 * exports it back unchanged), and the merge / replace semantics of an import.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { exportModelFile, importModelFile, ModelFileError } from '../../../extension/storage/model-file-io.ts';
import { addExamples, listExamples, loadModel, saveModel } from '../../../extension/storage/model-store.ts';
import { decodeModelFile, encodeModelFile, type ModelFileContent } from '../../../shared/model/model-file.ts';
import { TABLE_NAMES } from '../../../shared/model/model-file-schema.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { LabeledLink } from '../../../shared/model/types.ts';
import { FINANCE_LINKS, FINANCE_TOPIC, bagOf } from '../../shared/model/finance-sports.fixture.ts';
import { memoryDb } from '../support/memory-db.ts';

type ExportDB = typeof import('dexie-export-import').exportDB;
let exportDB: ExportDB;
beforeAll(async () => {
  // dexie-export-import reads the global `self` when it is evaluated, and each exportDB ends by
  // reading an (empty) Blob through FileReader: a browser and a Worker have both, Node neither.
  // Only these tests load it (the extension writes through the codec), so they bring the two.
  const global = globalThis as { self?: unknown; FileReader?: unknown };
  global.self ??= globalThis;
  global.FileReader ??= BlobReader;
  ({ exportDB } = await import('dexie-export-import'));
});

/** As much FileReader as dexie-export-import's `readBlobAsync` uses: `readAsArrayBuffer` and `onload` / `onerror`. */
class BlobReader {
  result: ArrayBuffer | null = null;
  error: unknown = null;
  onload: ((event: { target: BlobReader }) => void) | null = null;
  onerror: ((event: { target: BlobReader }) => void) | null = null;
  onabort: (() => void) | null = null;
  readAsArrayBuffer(blob: Blob): void {
    blob.arrayBuffer().then(
      (bytes) => ((this.result = bytes), this.onload?.({ target: this })),
      (error: unknown) => ((this.error = error), this.onerror?.({ target: this })),
    );
  }
}

/** What dexie-export-import writes for `db`. */
async function dexieExport(db: LinkScentDb): Promise<string> {
  return (await exportDB(db, { prettyJson: false })).text();
}

const TOPIC = FINANCE_TOPIC;
const EXAMPLES = FINANCE_LINKS;

const PROBES = ['股票 行情', '足球 比赛', '央行 利率 解读', '没见过'].map(bagOf);

function train(examples: readonly LabeledLink[], form = TOPIC.form): NaiveBayes {
  return new NaiveBayes({ form }).fit(examples.map((e) => ({ features: bagOf(e.anchor.replace(/(..)/g, '$1 ')), label: e.label })));
}

const open: LinkScentDb[] = [];
async function freshDb(): Promise<LinkScentDb> {
  const db = await memoryDb();
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
  await db.levelModels.put({ topic: TOPIC.id, rowsVersion: 1, levels: 2, alpha: 1, count: [3, 1], tokens: [2, 1], vocabularySize: 2, savedAt: 1_700_000_000_003 });
  await db.levelFeatures.bulkPut([
    { topic: TOPIC.id, feature: 'a:股票', occurrences: [1, 1] },
    { topic: TOPIC.id, feature: 'a:利率', occurrences: [1, 0] },
  ]);
  return { db, model };
}

const fileText = (db: LinkScentDb) => exportModelFile(db);

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

/** Every table's rows, read from the database (primary-key order). */
async function contentOf(db: LinkScentDb): Promise<ModelFileContent> {
  return Object.fromEntries(await Promise.all(TABLE_NAMES.map(async (name) => [name, await db.table(name).toArray()] as const))) as unknown as ModelFileContent;
}

describe('byte for byte what dexie-export-import writes', () => {
  it("the codec encodes a database's rows as exportDB exports them, and decodes exportDB's file to those rows", async () => {
    const { db } = await filledDb();
    // More rows than exportDB reads in one chunk (2,000), values JSON lacks, one object twice.
    await db.features.bulkPut(Array.from({ length: 2100 }, (_, n) => ({ topic: 'other', feature: `f${n}`, count: [1, 0], occurrences: [1, 0] })));
    await db.models.put({ topic: 'other', rowsVersion: 1, form: 'bernoulli', alpha: 1, count: [1, 0], tokens: [2100, 0], vocabularySize: 2100, savedAt: 1 });
    const shared = { at: [1, 2] };
    await db.settings.bulkPut([
      { key: 'odd', value: { none: undefined, nan: NaN, inf: -Infinity, when: new Date(1_700_000_000_000), first: shared, again: shared } },
      { key: 'activeTopicId', value: null },
    ]);
    await db.pages.put({ topic: TOPIC.id, url: 'https://finance.example.com/2', title: '', label: undefined, seenAt: 1 });

    const dexie = await dexieExport(db);
    expect(encodeModelFile(await contentOf(db))).toBe(dexie);
    expect(await exportModelFile(db)).toBe(dexie);
    expect(decodeModelFile(dexie)).toStrictEqual(await contentOf(db));
    expect(encodeModelFile(decodeModelFile(dexie))).toBe(dexie);
  });

  it('a file the codec wrote imports through the extension and exportDB writes it back unchanged', async () => {
    const { db } = await filledDb();
    const text = encodeModelFile(await contentOf(db));
    const target = await freshDb();
    await target.topics.put({ ...TOPIC, id: 'gone', name: 'gone' });
    await importModelFile(target, text, { replace: true });
    expect(await dexieExport(target)).toBe(text);
  });
});

describe('a filtered export (one topic, no pairing)', () => {
  // exportDB's own `filter` writes a trailing comma when a table's last 2,000-row chunk is left
  // out entirely (and keeps the table's full rowCount): the extension no longer exports through it.
  it('is a valid file when the rows left out fill the last chunk of a table of more than 2,000 rows', async () => {
    const db = await freshDb();
    await db.settings.bulkPut(Array.from({ length: 2001 }, (_, i) => ({ key: `k${String(i).padStart(5, '0')}`, value: i })));
    const text = await exportModelFile(db, (table, row) => !(table === 'settings' && row.value === 2000));
    expect(decodeModelFile(text).settings).toHaveLength(2000);
    expect(JSON.parse(text).data.tables.find((t: { name: string }) => t.name === 'settings').rowCount).toBe(2000);
  });
});

describe('model file round trip', () => {
  it.each([false, true])('export → file text → import (replace: %s) into a fresh db: same examples, identical scores', async (replace) => {
    const { db, model } = await filledDb();
    const text = await fileText(db);
    expect(JSON.parse(text)).toMatchObject({ formatName: 'dexie', formatVersion: 1, data: { databaseName: 'linkscent', databaseVersion: 3 } });

    const target = await freshDb();
    const summary = await importModelFile(target, text, { replace });
    expect(summary).toEqual({ topics: 1, models: 1, examples: 40, duplicateExamples: 0 });

    const strip = (rows: { id?: number }[]) => rows.map(({ id: _id, ...row }) => row);
    expect(strip(await listExamples(target, TOPIC.id))).toEqual(strip(await listExamples(db, TOPIC.id)));
    expect(await target.topics.toArray()).toEqual([TOPIC]);
    expect(await target.pages.toArray()).toEqual(await db.pages.toArray());
    expect(await target.settings.toArray()).toEqual(await db.settings.toArray());
    expect(await target.levelFeatures.toArray()).toEqual(await db.levelFeatures.toArray());
    const loaded = (await loadModel(target, TOPIC.id))!;
    expect(PROBES.map((x) => loaded.score(x))).toEqual(PROBES.map((x) => model.score(x)));
    // and the imported database exports the same file again (replace keeps ids too)
    if (replace) expect(await fileText(target)).toBe(text);
  });

  it('merge import twice does not duplicate examples', async () => {
    const { db } = await filledDb();
    const text = await fileText(db);
    const target = await freshDb();
    await importModelFile(target, text);
    const second = await importModelFile(target, text);
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
    const summary = await importModelFile(target, text);
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
    await importModelFile(target, text);
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
    await importModelFile(target, text);
    expect(await target.settings.get('excludedSites')).toEqual({ key: 'excludedSites', value: [] });
    expect(await target.settings.get('highlight')).toEqual({ key: 'highlight', value: 'underline' });
  });

  it('replace empties the tables first: the database holds exactly the file', async () => {
    const { db } = await filledDb();
    const text = await fileText(db);
    const target = await freshDb();
    await target.topics.put({ ...TOPIC, id: 'other', name: 'other' });
    await importModelFile(target, text, { replace: true });
    expect((await target.topics.toArray()).map((t) => t.id)).toEqual([TOPIC.id]);
  });
});

describe('a bad model file is rejected in one clear line, and nothing changes', () => {
  // Every way a file can be bad is in test/shared/model/model-file.test.ts; here, that the
  // database is left as it was, for a few of each kind.
  /** The bad file: its text, or the text made from a good file's text, or an edit of its parsed JSON. */
  type Bad = string | { cut: (good: string) => string } | ((file: any) => unknown);
  const cases: [string, Bad, RegExp][] = [
    ['truncated JSON', { cut: (good) => good.slice(0, Math.floor(good.length / 2)) }, /^corrupt model file: invalid JSON at position \d+ \(line 1, column \d+\): the text ends early \(truncated\?\)$/],
    ['JSON that is not a Dexie export', '{"hello": "world"}', /^not a LinkScent model file: not a Dexie export \(no "formatName": "dexie"\)$/],
    ['a newer format', (f) => (f.data.databaseVersion = 7), /^unsupported model file: written by a newer LinkScent \(format 7; this LinkScent reads up to 3\): update LinkScent$/],
    ['missing rows', (f) => f.data.data[1].rows.pop(), /^corrupt model file: table 'examples' lists 40 rows but holds 39$/],
    ['counts that do not add up', (f) => (f.data.data[3].rows[0].count = [999, 0]), /^corrupt model file: model of topic 'finance': feature row "a:[^"]+": count 999 in class 0 exceeds the class's 20 examples$/],
    ['a level model of one level', (f) => (f.data.data[6].rows[0].levels = 1), /^corrupt model file: level model of topic 'finance': "levels" must be a whole number ≥ 2, got 1$/],
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
      const error = await rejection(importModelFile(target, text, { replace }));
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
      await expect(importModelFile(target, text, { replace })).rejects.toThrow(/disk full/);
      target.settings.hook('creating').unsubscribe(refuse);
      expect(await snapshot(target)).toEqual(before);
    }
  });
});
