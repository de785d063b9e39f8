/**
 * The model file: a dexie-export-import export of the whole `db-schema.ts` database (topics,
 * examples, models, features, pages, settings). The extension and the companion both write and
 * read it, so a model trained on either side moves to the other as one JSON file.
 *
 * Import is all or nothing. The file is parsed and checked completely first
 * (`model-file-check.ts`); then the writing happens in one read-write transaction over every
 * table, with dexie-export-import's `importInto` running inside it (`noTransaction`), fed the
 * already-parsed file rather than the Blob. That is deliberate:
 *   - its `clearTablesBeforeImport` clears outside its transaction, so a failed import after it
 *     would have lost the old data; here the clearing is inside ours;
 *   - reading the Blob (FileReader) inside a transaction lets IndexedDB commit it early; the
 *     parsed file needs no reading.
 *
 * Replace (`{replace: true}`): every table is emptied, then the file's rows are written as they
 * are (ids kept). Merge (the default), table by table:
 *   topics    the file's row replaces the one with the same id
 *   models    the file's model replaces the topic's model, all of it: its old feature rows are
 *   features  deleted first, so no stale feature survives next to the new header
 *   examples  added when their [topic+key] is new, with a fresh id; a link context already
 *             stored is kept as it is (never duplicated)
 *   pages     the file's row replaces the one with the same [topic+url]
 *   settings  only keys this database lacks are added: settings are the installation's own
 * After a merge a topic's model is the file's, not retrained over the merged examples; a caller
 * that wants both retrains from `listExamples`.
 *
 * dexie-export-import reads the global `self` when it is first evaluated, which Node lacks: it is
 * imported lazily here, and on Node `companion/platform/node-indexeddb.ts` defines `self` first.
 */
import type { importInto as ImportInto } from 'dexie-export-import';
import type { LinkScentDb } from './db-schema.ts';
import { checkModelFile, ModelFileError, type CheckedModelFile } from './model-file-check.ts';

export { ModelFileError } from './model-file-check.ts';

export interface ImportModelFileOptions {
  /** Empty every table first, so the database holds exactly the file. Default false (merge). */
  replace?: boolean;
}

export interface ImportSummary {
  topics: number;
  models: number;
  /** Examples written. */
  examples: number;
  /** Examples of the file already stored (same [topic+key]), left out. */
  duplicateExamples: number;
}

/** The whole database as a model file (a Blob of dexie-export-import's JSON). */
export async function exportModelFile(db: LinkScentDb): Promise<Blob> {
  const { exportDB } = await loadExportImport();
  return exportDB(db, { prettyJson: false });
}

/**
 * Imports a model file into `db`: checked completely first, then written in one transaction.
 * Throws a `ModelFileError` (one line) for a file that is not a valid LinkScent model file; on
 * any failure the database is unchanged.
 */
export async function importModelFile(db: LinkScentDb, file: Blob, options: ImportModelFileOptions = {}): Promise<ImportSummary> {
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    throw new ModelFileError(`cannot read model file: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  if (!db.isOpen()) await db.open();
  const checked = checkModelFile(text, db);
  const { importInto } = await loadExportImport();
  return options.replace ? replaceAll(db, checked, importInto) : mergeInto(db, checked, importInto);
}

async function replaceAll(db: LinkScentDb, file: CheckedModelFile, importInto: typeof ImportInto): Promise<ImportSummary> {
  const summary = summarize(file);
  await db.transaction('rw', db.tables, async () => {
    for (const table of db.tables) await table.clear();
    await importInto(db, parsedStream(file), { ...IMPORT_OPTIONS });
  });
  return summary;
}

async function mergeInto(db: LinkScentDb, file: CheckedModelFile, importInto: typeof ImportInto): Promise<ImportSummary> {
  const summary = summarize(file);
  const rowsOf = (name: string) => file.data.data.find((entry) => entry.tableName === name)?.rows ?? [];
  const modelTopics = rowsOf('models').map((row) => row.topic as string);
  const examplePairs = rowsOf('examples').map((row) => [row.topic as string, row.key as string]);
  await db.transaction('rw', db.tables, async () => {
    await db.features.where('topic').anyOf(modelTopics).delete();
    const storedExamples = new Set((await db.examples.where('[topic+key]').anyOf(examplePairs).keys()).map((pair) => JSON.stringify(pair)));
    const storedSettings = new Set(await db.settings.toCollection().primaryKeys());
    summary.duplicateExamples = storedExamples.size;
    summary.examples -= storedExamples.size;
    await importInto(db, parsedStream(file), {
      ...IMPORT_OPTIONS,
      filter: (table, value: Record<string, unknown>) => {
        if (table === 'examples') return !storedExamples.has(JSON.stringify([value.topic, value.key]));
        if (table === 'settings') return !storedSettings.has(value.key as string);
        return true;
      },
      transform: (table, value: Record<string, unknown>) => {
        if (table !== 'examples') return { value };
        const { id: _id, ...row } = value; // a fresh id: the file's may belong to another example here
        return { value: row };
      },
    });
  });
  return summary;
}

/**
 * Checked already (name, version, tables, primary keys), so dexie-export-import's own checks are
 * told to accept; `overwriteValues` makes it `bulkPut`, replacing rows with the same key.
 */
const IMPORT_OPTIONS = {
  noTransaction: true,
  acceptNameDiff: true,
  acceptVersionDiff: true,
  overwriteValues: true,
} as const;

/**
 * The parsed file as the JsonStream `importInto` accepts in place of a Blob: already at its end,
 * holding the whole result, so it reads nothing.
 */
function parsedStream(file: CheckedModelFile): Parameters<typeof ImportInto>[1] {
  // importInto empties each table's rows as it writes them: give it a copy of the lists.
  const result = copyRows(file);
  return {
    result,
    pullAsync: () => Promise.resolve(result),
    pullSync: () => result,
    done: () => true,
    eof: () => true,
  } as Parameters<typeof ImportInto>[1];
}

function copyRows(file: CheckedModelFile): CheckedModelFile {
  return { ...file, data: { ...file.data, data: file.data.data.map((entry) => ({ ...entry, rows: [...entry.rows] })) } };
}

function summarize(file: CheckedModelFile): ImportSummary {
  const count = (name: string) => file.data.data.find((entry) => entry.tableName === name)?.rows.length ?? 0;
  return { topics: count('topics'), models: count('models'), examples: count('examples'), duplicateExamples: 0 };
}

type ExportImport = typeof import('dexie-export-import');
let exportImport: Promise<ExportImport> | undefined;

/** dexie-export-import, loaded once and only when `self` exists (see the header). */
function loadExportImport(): Promise<ExportImport> {
  if (typeof (globalThis as { self?: unknown }).self === 'undefined') {
    return Promise.reject(
      new Error('dexie-export-import needs the global `self`: on Node, import companion/platform/node-indexeddb.ts first'),
    );
  }
  exportImport ??= import('dexie-export-import');
  return exportImport;
}
