/**
 * The extension's handle on the one shared schema (`shared/model/db-schema.ts`), on the
 * browser's IndexedDB. The background and the Worker each open their own connection to the same
 * database; IndexedDB keeps them consistent.
 */
import { LinkScentDb, type LinkScentDbOptions } from '../../shared/model/db-schema.ts';

let db: LinkScentDb | null = null;

/** This context's connection (one per service worker, event page or Worker). */
export function openExtensionDb(options?: LinkScentDbOptions): LinkScentDb {
  db ??= new LinkScentDb(undefined, options);
  return db;
}
