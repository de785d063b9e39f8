/**
 * The one Dexie schema of LinkScent. The extension opens it on the browser's IndexedDB, the
 * companion on fake-indexeddb (`companion/platform/node-indexeddb.ts`); both export and import
 * it as dexie-export-import files (`model-file.ts`), so each side reads the other's files.
 *
 * Tables (primary key first, then indexes):
 *   topics    &id, name                    Topic
 *   examples  ++id, &[topic+key], ...      ExampleRow: a LabeledLink, its `exampleKey`, addedAt
 *   models    &topic                       NbHeaderRow: a Naive Bayes model's class counts
 *   features  &[topic+feature], topic      NbFeatureRow: one feature's counts
 *   pages     &[topic+url], topic          PageRow: pages the user saw or marked
 *   settings  &key                         SettingRow
 *
 * Adding a version (never edit a published one: browsers already hold it):
 *   this.version(2).stores({ pages: '&[topic+url], topic, seenAt' })   // only changed tables
 *     .upgrade((tx) => tx.table('pages').toCollection().modify((page) => { ... }));
 * then raise SCHEMA_VERSION, and teach `model-file-check.ts` to accept version-1 files (their
 * rows pass through the same upgrade when imported with a transform, or are rejected by name).
 */
import { Dexie, type DexieOptions, type EntityTable, type Table } from 'dexie';
import type { ExampleRow, NbFeatureRow, NbHeaderRow, PageRow, SettingRow, Topic } from './types.ts';

/** The database name both sides use, and the name written into model files. */
export const LINKSCENT_DB_NAME = 'linkscent';

/** The schema's current version (Dexie's `verno`, written into model files). */
export const SCHEMA_VERSION = 1;

/** Version 1's stores, by table: the source of `db.version(1)` and of the file check. */
export const SCHEMA_V1 = {
  topics: '&id, name',
  examples: '++id, &[topic+key], topic, label, source, url, pageUrl',
  models: '&topic',
  features: '&[topic+feature], topic',
  pages: '&[topic+url], topic',
  settings: '&key',
} as const;

export type TableName = keyof typeof SCHEMA_V1;
export const TABLE_NAMES = Object.keys(SCHEMA_V1) as TableName[];

/** What the constructor takes: Dexie's own options, of which the companion passes fake-indexeddb's. */
export type LinkScentDbOptions = Pick<DexieOptions, 'indexedDB' | 'IDBKeyRange' | 'autoOpen' | 'cache'>;

export class LinkScentDb extends Dexie {
  declare readonly topics: EntityTable<Topic, 'id'>;
  declare readonly examples: EntityTable<ExampleRow, 'id'>;
  declare readonly models: EntityTable<NbHeaderRow, 'topic'>;
  declare readonly features: Table<NbFeatureRow, [string, string]>;
  declare readonly pages: Table<PageRow, [string, string]>;
  declare readonly settings: EntityTable<SettingRow, 'key'>;

  /**
   * `options.indexedDB` / `options.IDBKeyRange` replace the global IndexedDB (the companion passes
   * fake-indexeddb's); without them Dexie uses the platform's.
   */
  constructor(name: string = LINKSCENT_DB_NAME, options?: LinkScentDbOptions) {
    super(name, options);
    this.version(SCHEMA_VERSION).stores(SCHEMA_V1);
  }
}
