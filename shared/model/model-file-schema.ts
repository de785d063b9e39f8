/**
 * The tables of a model file, by format version: one definition that the codec (`model-file.ts`)
 * writes and checks files against and that the extension's Dexie schema is declared from
 * (`extension/storage/database.ts`). The format version is the database's version (Dexie's
 * `verno`, a file's `databaseVersion`): a version adds tables or indexes, never edits an old one.
 *
 * Tables, in Dexie's store syntax (primary key first, then indexes):
 *   topics         &id, name                   Topic
 *   examples       ++id, &[topic+key], ...     ExampleRow: a LabeledLink, its `exampleKey`, addedAt
 *   models         &topic                      NbHeaderRow: the link classifier's class counts
 *   features       &[topic+feature], topic     NbFeatureRow: one feature's counts
 *   pages          &[topic+url], topic         PageRow: pages the user saw or marked
 *   settings       &key                        SettingRow
 *   levelModels    &topic                      LevelHeaderRow: the level classifier (version 2)
 *   levelFeatures  &[topic+feature], topic     LevelFeatureRow (version 2)
 *
 * Version 3 adds no table: it marks the rows' new meanings, a topic's `featureVersion` and the
 * `mixed` form, which code that knows only version 2 would misread (it would score a model with
 * features it was not trained on), so such code must refuse the file, and does.
 */

/** The database name the extension opens and every model file carries. */
export const LINKSCENT_DB_NAME = 'linkscent';

/** The newest format this code writes and reads. */
export const MODEL_FILE_VERSION = 3;

/** Each version's new or changed stores (Dexie's `db.version(n).stores(...)` argument). */
export const STORES_BY_VERSION = {
  1: {
    topics: '&id, name',
    examples: '++id, &[topic+key], topic, label, source, url, pageUrl',
    models: '&topic',
    features: '&[topic+feature], topic',
    pages: '&[topic+url], topic',
    settings: '&key',
  },
  2: {
    levelModels: '&topic',
    levelFeatures: '&[topic+feature], topic',
  },
  3: {},
} as const;

type Stores = typeof STORES_BY_VERSION;
export type TableName = { [V in keyof Stores]: keyof Stores[V] }[keyof Stores];

/** Every table of `version`, in Dexie's order (a version's new tables after the older ones). */
export function tablesOf(version: number = MODEL_FILE_VERSION): TableName[] {
  return Object.entries(STORES_BY_VERSION)
    .filter(([v]) => Number(v) <= version)
    .flatMap(([, stores]) => Object.keys(stores) as TableName[]);
}

export const TABLE_NAMES: readonly TableName[] = tablesOf();

/** The table's stores line in `version`: from the newest version up to it that declares the table. */
function storesOf(table: TableName, version: number): string {
  let spec = '';
  for (const [v, stores] of Object.entries(STORES_BY_VERSION)) if (Number(v) <= version) spec = (stores as Record<string, string>)[table] ?? spec;
  return spec;
}

/**
 * The schema string a Dexie export writes for a table (dexie-export-import's `getSchemaString`):
 * Dexie's `src` of the primary key, then of each index, joined by ','. A primary key is unique by
 * nature, so its '&' is not part of its `src` ("&id" → "id"); an index keeps it.
 */
export function schemaString(table: TableName, version: number = MODEL_FILE_VERSION): string {
  return storesOf(table, version)
    .split(',')
    .map((part, i) => (i === 0 ? part.trim().replace(/^&/, '') : part.trim()))
    .join(',');
}

/** The primary key's path: one field, or the fields of a compound key (`[topic+feature]`). */
export function primaryKeyPath(table: TableName): string | string[] {
  const key = schemaString(table).split(',')[0]!.replace(/^\+\+/, '');
  return key.startsWith('[') ? key.slice(1, -1).split('+') : key;
}
