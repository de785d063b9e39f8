/**
 * The model file, as plain code: `encodeModelFile` writes a topic's models, examples and the rest
 * (every table of `model-file-schema.ts`) as one JSON text, `decodeModelFile` reads one back. The
 * text is a Dexie export, byte for byte what dexie-export-import's `exportDB(db, {prettyJson:
 * false})` writes for a database holding the same rows (test/extension/storage/model-file-io.test.ts
 * checks it against the extension's Dexie on fake-indexeddb), so the extension and the companion
 * each read the other's files and either can hand one to any Dexie tool.
 *
 * What `exportDB` writes, and so what is written here:
 *   {"formatName":"dexie","formatVersion":1,"data":{"databaseName":"linkscent",
 *    "databaseVersion":<format version>,"tables":[{"name","schema","rowCount"}, ...],
 *    "data":[{"tableName","inbound":true,"rows":[...]}, ...]}}
 * with no white space; the tables in Dexie's order (`tablesOf`), each with Dexie's schema string;
 * a table's rows in its primary-key order (IndexedDB's key order: numbers, then strings by UTF-16
 * code unit, then arrays element by element), each row's fields in their own order, and values
 * JSON lacks marked in the row's `"$types"` (`model-file-values.ts`).
 *
 * `decodeModelFile(encodeModelFile(x))` equals x when x's rows are in key order (as a database
 * holds them); `encodeModelFile(decodeModelFile(text))` is `text` for a file Dexie wrote at this
 * format version. An older version's file reads too (its missing tables are empty) and is written
 * back at the current version. Every way a text can fail is one `ModelFileError` line
 * (`model-file-check.ts`).
 */
import { checkModelFile, checkSkimmedModelFile, ModelFileError, type CheckOptions } from './model-file-check.ts';
import type { SkimmedModelFile } from './model-file-skim.ts';
import { LINKSCENT_DB_NAME, MODEL_FILE_VERSION, primaryKeyPath, schemaString, TABLE_NAMES, type TableName } from './model-file-schema.ts';
import { encapsulate } from './model-file-values.ts';
import { LevelClassifier } from './level-classifier.ts';
import { NaiveBayes } from './naive-bayes.ts';
import type { ExampleRow, LevelFeatureRow, LevelHeaderRow, NbFeatureRow, NbHeaderRow, PageRow, SettingRow, Topic } from './types.ts';

export { ModelFileError };

/** Each table's row type. */
export interface ModelFileRows {
  topics: Topic;
  examples: ExampleRow;
  models: NbHeaderRow;
  features: NbFeatureRow;
  pages: PageRow;
  settings: SettingRow;
  levelModels: LevelHeaderRow;
  levelFeatures: LevelFeatureRow;
}

/** What a model file holds: the rows of every table. */
export type ModelFileContent = { [T in TableName]: ModelFileRows[T][] };

/**
 * The largest model file read, by the command line and by the service's upload alike. The
 * biggest model the focus bench trains (100,000 examples of the Python docs, 60,000 features,
 * the examples included) is 54 MB and decodes in about 2 s; past 64 MiB a file is a mistake.
 */
export const MAX_MODEL_FILE_BYTES = 64 << 20;

/** Content with every table empty, for callers to fill. */
export function emptyModelFile(): ModelFileContent {
  return Object.fromEntries(TABLE_NAMES.map((name) => [name, []])) as unknown as ModelFileContent;
}

/** The content as a model file's text. Tables left out of `content` are written empty. */
export function encodeModelFile(content: Partial<ModelFileContent>): string {
  const rowsOf = (name: TableName) => sortByKey(name, (content[name] ?? []) as object[]);
  return JSON.stringify({
    formatName: 'dexie',
    formatVersion: 1,
    data: {
      databaseName: LINKSCENT_DB_NAME,
      databaseVersion: MODEL_FILE_VERSION,
      tables: TABLE_NAMES.map((name) => ({ name, schema: schemaString(name), rowCount: content[name]?.length ?? 0 })),
      data: TABLE_NAMES.map((tableName) => ({ tableName, inbound: true, rows: rowsOf(tableName).map(encapsulate) })),
    },
  });
}

/**
 * The content of a model file's text, checked completely; a bad file throws a one-line
 * `ModelFileError`. With `{ examples: false }` the examples are left out (`CheckOptions`).
 */
export function decodeModelFile(text: string, options?: CheckOptions): ModelFileContent {
  return checkModelFile(text, options).rows as unknown as ModelFileContent;
}

/** The same from a text read without its examples (`ExampleSkimmer`); `examples` is empty. */
export function decodeSkimmedModelFile(skimmed: SkimmedModelFile): ModelFileContent {
  return checkSkimmedModelFile(skimmed).rows as unknown as ModelFileContent;
}

/** The topic's link model in `content`, or undefined when it has none (the rows were checked by `decodeModelFile`). */
export function linkModelOf(content: ModelFileContent, topicId: string): NaiveBayes | undefined {
  const header = content.models.find((row) => row.topic === topicId);
  return header && NaiveBayes.fromRows(header, content.features.filter((row) => row.topic === topicId));
}

/** The topic's level classifier (future value) in `content`, or undefined when the file has none for it. */
export function levelModelOf(content: ModelFileContent, topicId: string): LevelClassifier | undefined {
  const header = content.levelModels.find((row) => row.topic === topicId);
  return header && LevelClassifier.fromRows({ header, features: content.levelFeatures.filter((row) => row.topic === topicId) });
}

/** The rows in their table's primary-key order (a stable sort: rows without a key keep their order, last). */
function sortByKey(name: TableName, rows: object[]): object[] {
  const path = primaryKeyPath(name);
  const keyOf = (row: object): unknown => {
    const r = row as Record<string, unknown>;
    return Array.isArray(path) ? path.map((field) => r[field]) : r[path];
  };
  return rows
    .map((row) => ({ row, key: keyOf(row) }))
    .sort((a, b) => compareKeys(a.key, b.key))
    .map(({ row }) => row);
}

/** IndexedDB's key order (W3C IndexedDB 3.0, "compare two keys") over the key types rows hold. */
export function compareKeys(a: unknown, b: unknown): number {
  const rank = (key: unknown) => (typeof key === 'number' ? 0 : typeof key === 'string' ? 2 : Array.isArray(key) ? 4 : 5);
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb) return ra - rb;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const order = compareKeys(a[i], b[i]);
      if (order !== 0) return order;
    }
    return a.length - b.length;
  }
  if (ra === 5) return 0;
  return (a as number | string) < (b as number | string) ? -1 : (a as number | string) > (b as number | string) ? 1 : 0;
}
