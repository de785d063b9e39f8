/**
 * Checking a model file (a Dexie export of the tables in `model-file-schema.ts`) completely,
 * before anything is written: the JSON, the Dexie export header and format version, every table
 * against the file's version, every row's fields (after its typeson marks are applied,
 * `model-file-values.ts`), each link model's counts (through `NaiveBayes.fromRows`) and each level
 * model's shape. Whatever is wrong is one line in a `ModelFileError`, e.g. "not a LinkScent model
 * file: table 'foo' unknown" or "corrupt model file: invalid JSON at position 123 (line 4,
 * column 7): expected ',' or '}'".
 */
import { exampleKey } from './example-key.ts';
import { locateJsonError, shownNumber } from './json-error.ts';
import { LINKSCENT_DB_NAME, MODEL_FILE_VERSION, schemaString, tablesOf, TABLE_NAMES, type TableName } from './model-file-schema.ts';
import { skimExamples, type SkimmedModelFile } from './model-file-skim.ts';
import { revive } from './model-file-values.ts';
import { NaiveBayes } from './naive-bayes.ts';
import type { ExampleRow, LabelSource, LevelFeatureRow, LevelHeaderRow, NbFeatureRow, NbForm, NbHeaderRow } from './types.ts';
import { NB_FORMS } from './nb-counts.ts';

/** The file cannot be imported; its message is one line saying why. Nothing was changed. */
export class ModelFileError extends Error {
  override readonly name = 'ModelFileError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

type Row = Record<string, unknown>;

/** A checked file: its format version and every table's rows (revived), in the file's order. */
export interface CheckedModelFile {
  version: number;
  rows: Record<TableName, Row[]>;
}

const SOURCES: readonly LabelSource[] = ['pattern', 'user', 'page', 'crawl'];

export interface CheckOptions {
  /**
   * Whether the examples table's rows are decoded and checked (default true). With false, a
   * file as Dexie writes it is decoded without them (`model-file-skim.ts`): `rows.examples` is
   * empty and only their number is checked against the table's row count. For readers that use
   * only the classifiers, such as a crawl.
   */
  examples?: boolean;
}

/** Parses and checks `text`; throws a `ModelFileError` naming the first problem. */
export function checkModelFile(text: string, options: CheckOptions = {}): CheckedModelFile {
  return options.examples === false ? checkSkimmedModelFile(skimExamples(text) ?? { text, examples: undefined }) : checkParsed(parseJson(text));
}

/**
 * Checks a text whose examples' rows were left out (`ExampleSkimmer`), all else as
 * `checkModelFile`: the rows left out are counted against the table's row count, not decoded.
 */
export function checkSkimmedModelFile(skimmed: SkimmedModelFile): CheckedModelFile {
  return checkParsed(parseJson(skimmed.text), skimmed.examples);
}

/** `skippedExamples`: how many example rows were left out of the text, when some were. */
function checkParsed(json: unknown, skippedExamples?: number): CheckedModelFile {
  const notOurs = (what: string) => new ModelFileError(`not a LinkScent model file: ${what}`);
  if (!isObject(json) || !('formatName' in json)) throw notOurs('not a Dexie export (no "formatName": "dexie")');
  if (json.formatName !== 'dexie') throw notOurs(`not a Dexie export ("formatName" is ${brief(json.formatName)}, expected "dexie")`);
  if (json.formatVersion !== 1) throw notOurs(`Dexie export format version ${brief(json.formatVersion)} is not supported (expected 1)`);
  const data = json.data;
  if (!isObject(data)) throw corrupt('no "data" object');
  if (data.databaseName !== LINKSCENT_DB_NAME) throw notOurs(`database ${brief(data.databaseName)} is not LinkScent's ("${LINKSCENT_DB_NAME}")`);
  const version = data.databaseVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw corrupt(`"databaseVersion" ${brief(version)} is not a version number`);
  if (version > MODEL_FILE_VERSION) {
    throw new ModelFileError(
      `unsupported model file: written by a newer LinkScent (format ${version}; this LinkScent reads up to ${MODEL_FILE_VERSION}): update LinkScent`,
    );
  }
  const known = tablesOf(version);

  if (!Array.isArray(data.tables)) throw corrupt('no "tables" list');
  const rowCounts = new Map<TableName, number>();
  for (const table of data.tables as unknown[]) {
    if (!isObject(table) || typeof table.name !== 'string') throw corrupt('a table without a name');
    const name = table.name;
    if (!isTableName(name)) throw notOurs(`table '${name}' unknown`);
    if (!known.includes(name)) throw notOurs(`table '${name}' is not part of format ${version}`);
    if (rowCounts.has(name)) throw corrupt(`table '${name}' listed twice`);
    const expected = schemaString(name, version);
    if (table.schema !== expected) throw notOurs(`table '${name}' has schema ${brief(table.schema)}, expected "${expected}"`);
    if (typeof table.rowCount !== 'number' || !Number.isInteger(table.rowCount) || table.rowCount < 0) {
      throw corrupt(`table '${name}' has no row count`);
    }
    rowCounts.set(name, table.rowCount);
  }

  if (!Array.isArray(data.data)) throw corrupt('no "data" list of table rows');
  const rows = Object.fromEntries(TABLE_NAMES.map((name) => [name, [] as Row[]])) as Record<TableName, Row[]>;
  const seen = new Set<string>();
  for (const entry of data.data as unknown[]) {
    if (!isObject(entry) || typeof entry.tableName !== 'string') throw corrupt('table rows without a table name');
    const name = entry.tableName;
    if (!isTableName(name)) throw notOurs(`table '${name}' unknown`);
    if (!rowCounts.has(name)) throw corrupt(`rows for table '${name}', which the file does not list`);
    if (seen.has(name)) throw corrupt(`rows for table '${name}' given twice`);
    seen.add(name);
    if (entry.inbound !== true) throw corrupt(`table '${name}' rows are not stored with their keys inline`);
    if (!Array.isArray(entry.rows)) throw corrupt(`table '${name}' has no "rows" list`);
    const skipped = name === 'examples' && skippedExamples !== undefined;
    const held = skipped ? skippedExamples : entry.rows.length;
    if (held !== rowCounts.get(name)) {
      throw corrupt(`table '${name}' lists ${rowCounts.get(name)} rows but holds ${held}`);
    }
    rows[name] = skipped ? [] : checkRows(name, entry.rows as unknown[]);
  }
  for (const [name, count] of rowCounts) {
    if (count > 0 && !seen.has(name)) throw corrupt(`table '${name}' lists ${count} rows but holds none`);
  }
  checkModels(rows);
  checkLevelModels(rows);
  return { version, rows };
}

function parseJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') throw corrupt('the file is empty');
  try {
    return JSON.parse(body);
  } catch (error) {
    const where = locateJsonError(body);
    if (!where) throw corrupt('invalid JSON', error);
    throw corrupt(`invalid JSON at position ${where.position} (line ${where.line}, column ${where.column}): ${where.problem}`, error);
  }
}

/** Field checks per table; unique keys; each example's key is its `exampleKey`. */
function checkRows(name: TableName, rows: unknown[]): Row[] {
  const keys = new Set<string>();
  return rows.map((json, n) => {
    const fail = (what: string) => corrupt(`table '${name}' row ${n + 1}: ${what}`);
    if (!isObject(json)) throw fail('not an object');
    let row: Row;
    try {
      row = revive(json);
    } catch (error) {
      throw fail((error as Error).message);
    }
    const text = (field: string) => {
      if (typeof row[field] !== 'string') throw fail(`"${field}" must be a string`);
      return row[field];
    };
    const time = (field: string) => {
      if (typeof row[field] !== 'number' || !Number.isFinite(row[field])) throw fail(`"${field}" must be a time in milliseconds`);
    };
    const label = (field: string, optional = false) => {
      if (optional && row[field] === undefined) return;
      if (row[field] !== 0 && row[field] !== 1) throw fail(`"${field}" must be 0 or 1`);
    };
    const texts = (field: string) => {
      const value = row[field];
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw fail(`"${field}" must be a list of strings`);
    };
    let key: string;
    switch (name) {
      case 'topics': {
        key = text('id');
        text('name');
        for (const field of ['lexicon', 'positive', 'negative']) texts(field);
        if (row.featureGroup !== 1 && row.featureGroup !== 2) throw fail('"featureGroup" must be 1 or 2');
        if (!NB_FORMS.includes(row.form as NbForm)) throw fail(`"form" must be one of ${NB_FORMS.join(', ')}`);
        if (typeof row.threshold !== 'number' || !(row.threshold >= 0 && row.threshold <= 1)) throw fail('"threshold" must lie in [0, 1]');
        if (typeof row.window !== 'number' || !(row.window > 0)) throw fail('"window" must be a number > 0');
        if (row.urlTokens !== undefined && typeof row.urlTokens !== 'boolean') throw fail('"urlTokens" must be true or false when given');
        if (row.featureVersion !== undefined && row.featureVersion !== 1 && row.featureVersion !== 2) throw fail('"featureVersion" must be 1 or 2 when given');
        break;
      }
      case 'examples': {
        for (const field of ['url', 'pageUrl', 'anchor', 'before', 'after']) text(field);
        label('label');
        if (!SOURCES.includes(row.source as LabelSource)) throw fail(`"source" must be one of ${SOURCES.join(', ')}`);
        time('addedAt');
        if (row.id !== undefined && !(Number.isSafeInteger(row.id) && (row.id as number) > 0)) throw fail('"id" must be a whole number > 0');
        if (text('key') !== exampleKey(row as unknown as ExampleRow)) throw fail('"key" is not the exampleKey of its url, pageUrl, anchor, before and after');
        key = JSON.stringify([text('topic'), row.key]);
        if (row.id !== undefined) {
          const id = `#${String(row.id)}`;
          if (keys.has(id)) throw fail(`id ${String(row.id)} appears twice`);
          keys.add(id);
        }
        break;
      }
      case 'models':
        key = text('topic'); // the counts are checked with the features, in checkModels
        break;
      case 'features':
        key = JSON.stringify([text('topic'), text('feature')]);
        break;
      case 'pages':
        key = JSON.stringify([text('topic'), text('url')]);
        text('title');
        label('label', true);
        time('seenAt');
        break;
      case 'settings':
        key = text('key');
        break;
      case 'levelModels':
        key = text('topic'); // the counts are checked with the features, in checkLevelModels
        break;
      case 'levelFeatures':
        key = JSON.stringify([text('topic'), text('feature')]);
        break;
    }
    if (keys.has(key)) throw fail(`key ${key} appears twice`);
    keys.add(key);
    return row;
  });
}

/** Every link model's header and feature rows must make a model (`NaiveBayes.fromRows` checks the counts). */
function checkModels(rows: Record<TableName, Row[]>): void {
  const featuresByTopic = byTopic(rows.features as unknown as NbFeatureRow[]);
  for (const header of rows.models as unknown as NbHeaderRow[]) {
    try {
      NaiveBayes.fromRows(header, featuresByTopic.get(header.topic) ?? []);
    } catch (error) {
      throw corrupt(`model of topic '${header.topic}': ${(error as Error).message.replace(/^model rows: /, '')}`, error);
    }
    featuresByTopic.delete(header.topic);
  }
  for (const topic of featuresByTopic.keys()) throw corrupt(`table 'features' has rows of topic '${topic}', which has no model`);
}

/**
 * Every level model's shape (the level classifier reads its own counts; here only what a row
 * must hold): L ≥ 2 levels, α > 0, per-level lists of L whole numbers, one feature row per
 * `vocabularySize`. A topic may have no level model.
 */
function checkLevelModels(rows: Record<TableName, Row[]>): void {
  const featuresByTopic = byTopic(rows.levelFeatures as unknown as LevelFeatureRow[]);
  for (const header of rows.levelModels as unknown as LevelHeaderRow[]) {
    const fail = (what: string) => corrupt(`level model of topic '${header.topic}': ${what}`);
    if (header.rowsVersion !== 1) throw fail(`rows version ${brief(header.rowsVersion)} is not supported (expected 1)`);
    if (!isCount(header.levels) || header.levels < 2) throw fail(`"levels" must be a whole number ≥ 2, got ${brief(header.levels)}`);
    if (typeof header.alpha !== 'number' || !(header.alpha > 0) || !Number.isFinite(header.alpha)) throw fail(`"alpha" must be a finite number > 0, got ${shownNumber(header.alpha)}`);
    const perLevel = (list: unknown, what: string) => {
      if (!Array.isArray(list) || list.length !== header.levels || !list.every(isCount)) {
        throw fail(`${what} must be ${header.levels} whole numbers ≥ 0, got ${brief(list)}`);
      }
    };
    perLevel(header.count, '"count"');
    perLevel(header.tokens, '"tokens"');
    if (typeof header.savedAt !== 'number' || !Number.isFinite(header.savedAt)) throw fail('"savedAt" must be a time in milliseconds');
    const features = featuresByTopic.get(header.topic) ?? [];
    for (const row of features) perLevel(row.occurrences, `feature row "${row.feature}": "occurrences"`);
    if (features.length !== header.vocabularySize) throw fail(`the header says ${brief(header.vocabularySize)} features but ${features.length} rows were given`);
    featuresByTopic.delete(header.topic);
  }
  for (const topic of featuresByTopic.keys()) throw corrupt(`table 'levelFeatures' has rows of topic '${topic}', which has no level model`);
}

function byTopic<T extends { topic: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.topic);
    if (list) list.push(row);
    else map.set(row.topic, [row]);
  }
  return map;
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

function corrupt(what: string, cause?: unknown): ModelFileError {
  return new ModelFileError(`corrupt model file: ${what}`, cause === undefined ? undefined : { cause });
}

function isObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTableName(name: string): name is TableName {
  return (TABLE_NAMES as string[]).includes(name);
}

/** A value quoted for a message, cut short: never the whole of a large value. */
function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
