/**
 * Model files in and out of the extension's database, through the shared codec
 * (`shared/model/model-file.ts`): the same bytes dexie-export-import's `exportDB` would write for
 * these rows (test/extension/storage/model-file-io.test.ts checks it), without its `filter`,
 * which miscounts `rowCount` and can leave a trailing comma in a table's rows.
 *
 * Import is all or nothing. The file is decoded and checked completely first; then the writing
 * happens in one read-write transaction over every table, so a failure leaves the database as it
 * was.
 *
 * Replace (`{replace: true}`): every table is emptied, then the file's rows are written as they
 * are (ids kept). Merge (the default), table by table:
 *   topics         the file's row replaces the one with the same id
 *   models         the file's model replaces the topic's model, all of it: its old feature rows
 *   features       are deleted first, so no stale feature survives next to the new header
 *   levelModels    the same for the level classifier (a topic without one in the file keeps its own)
 *   levelFeatures
 *   examples       added when their [topic+key] is new, with a fresh id; a link context already
 *                  stored is kept as it is (never duplicated)
 *   pages          the file's row replaces the one with the same [topic+url]
 *   settings       only keys this database lacks are added: settings are the installation's own
 * After a merge a topic's model is the file's, not retrained over the merged examples; a caller
 * that wants both retrains from `listExamples`.
 */
import { decodeModelFile, encodeModelFile, emptyModelFile, type ModelFileContent } from '../../shared/model/model-file.ts';
import { TABLE_NAMES, type TableName } from '../../shared/model/model-file-schema.ts';
import type { LinkScentDb } from './database.ts';

export { ModelFileError } from '../../shared/model/model-file.ts';

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

type Row = Record<string, unknown>;

/** The database's rows that `keep` accepts (all by default), read in one transaction, as a model file. */
export async function exportModelFile(db: LinkScentDb, keep: (table: TableName, row: Row) => boolean = () => true): Promise<string> {
  const content = emptyModelFile() as unknown as Record<TableName, Row[]>;
  await db.transaction('r', db.tables, async () => {
    for (const name of TABLE_NAMES) content[name] = ((await db.table(name).toArray()) as Row[]).filter((row) => keep(name, row));
  });
  return encodeModelFile(content as unknown as ModelFileContent);
}

/**
 * Imports a model file's text into `db`: decoded and checked completely first, then written in one
 * transaction. Throws a `ModelFileError` (one line) for a text that is not a valid LinkScent model
 * file; on any failure the database is unchanged.
 */
export async function importModelFile(db: LinkScentDb, text: string, options: ImportModelFileOptions = {}): Promise<ImportSummary> {
  const file = decodeModelFile(text);
  if (!db.isOpen()) await db.open();
  const summary = { topics: file.topics.length, models: file.models.length, examples: file.examples.length, duplicateExamples: 0 };
  await db.transaction('rw', db.tables, async () => {
    if (options.replace) {
      for (const table of db.tables) await table.clear();
      for (const name of TABLE_NAMES) await db.table(name).bulkPut(file[name]);
      return;
    }
    const topicsOf = (rows: { topic: string }[]) => rows.map((row) => row.topic);
    await db.features.where('topic').anyOf(topicsOf(file.models)).delete();
    await db.levelFeatures.where('topic').anyOf(topicsOf(file.levelModels)).delete();
    const stored = await db.examples.where('[topic+key]').anyOf(file.examples.map((row) => [row.topic, row.key])).keys();
    const storedExamples = new Set(stored.map((pair) => JSON.stringify(pair)));
    const storedSettings = new Set(await db.settings.toCollection().primaryKeys());
    summary.duplicateExamples = storedExamples.size;
    summary.examples -= storedExamples.size;
    for (const name of TABLE_NAMES) {
      if (name === 'examples') {
        const fresh = file.examples.filter((row) => !storedExamples.has(JSON.stringify([row.topic, row.key])));
        await db.examples.bulkAdd(fresh.map(({ id: _id, ...row }) => row)); // a fresh id: the file's may belong to another example here
      } else if (name === 'settings') {
        await db.settings.bulkAdd(file.settings.filter((row) => !storedSettings.has(row.key)));
      } else {
        await db.table(name).bulkPut(file[name]);
      }
    }
  });
  return summary;
}
