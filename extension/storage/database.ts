/**
 * The extension's database: Dexie over the browser's IndexedDB, one version per model-file format
 * (`shared/model/model-file-schema.ts` declares the tables; this class only opens them). The
 * background and the Worker each open their own connection to the same database; IndexedDB keeps
 * them consistent. Model files are written and read by the shared codec (`model-file-io.ts`).
 *
 * A new format version becomes `this.version(n).stores(STORES_BY_VERSION[n])` here: Dexie adds
 * the new tables and indexes when a browser holding an older version opens it, keeping every row
 * (version 2 added `levelModels` and `levelFeatures`; version 3 no table). A version that must rewrite rows adds an
 * `.upgrade(...)`, and the codec's check learns to read the older files.
 */
import { Dexie, type DexieOptions, type EntityTable, type Table } from 'dexie';
import { LINKSCENT_DB_NAME, STORES_BY_VERSION } from '../../shared/model/model-file-schema.ts';
import type {
  ExampleRow,
  LevelFeatureRow,
  LevelHeaderRow,
  NbFeatureRow,
  NbHeaderRow,
  PageRow,
  SettingRow,
  Topic,
} from '../../shared/model/types.ts';

/** What the constructor takes: Dexie's own options, of which tests pass fake-indexeddb's. */
export type LinkScentDbOptions = Pick<DexieOptions, 'indexedDB' | 'IDBKeyRange' | 'autoOpen' | 'cache'>;

export class LinkScentDb extends Dexie {
  declare readonly topics: EntityTable<Topic, 'id'>;
  declare readonly examples: EntityTable<ExampleRow, 'id'>;
  declare readonly models: EntityTable<NbHeaderRow, 'topic'>;
  declare readonly features: Table<NbFeatureRow, [string, string]>;
  declare readonly pages: Table<PageRow, [string, string]>;
  declare readonly settings: EntityTable<SettingRow, 'key'>;
  declare readonly levelModels: EntityTable<LevelHeaderRow, 'topic'>;
  declare readonly levelFeatures: Table<LevelFeatureRow, [string, string]>;

  /** Without `options.indexedDB` / `options.IDBKeyRange` Dexie uses the platform's IndexedDB. */
  constructor(name: string = LINKSCENT_DB_NAME, options?: LinkScentDbOptions) {
    super(name, options);
    for (const [version, stores] of Object.entries(STORES_BY_VERSION)) this.version(Number(version)).stores(stores);
  }
}

let db: LinkScentDb | null = null;

/** This context's connection (one per service worker, event page or Worker). */
export function openExtensionDb(options?: LinkScentDbOptions): LinkScentDb {
  db ??= new LinkScentDb(undefined, options);
  return db;
}
