import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDexieSettingsStore, createDexieTopicStore } from '../../../extension/storage/dexie-stores.ts';
import { activeTopic } from '../../../extension/storage/stores.ts';
import { SETTINGS_DEFAULTS } from '../../../extension/storage/validate.ts';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { memoryDb, topic } from '../support/memory-db.ts';

let db: LinkScentDb;
beforeEach(async () => {
  db = await memoryDb();
});
afterEach(() => db.close());

describe('topic and settings stores on the shared schema', () => {
  it('gives the defaults before anything is saved, and what was saved after', async () => {
    const settings = createDexieSettingsStore(db);
    expect(await settings.get()).toEqual(SETTINGS_DEFAULTS);
    await settings.put({ activeTopicId: 't', excludedSites: ['example.org'], maxLinksPerPage: 300 });
    expect(await settings.get()).toEqual({ activeTopicId: 't', excludedSites: ['example.org'], maxLinksPerPage: 300 });
    // One row per setting, in the schema's key/value table.
    expect((await db.settings.toArray()).map((row) => row.key).sort()).toEqual(['activeTopicId', 'excludedSites', 'maxLinksPerPage']);
  });

  it('falls back to the default for a stored value of the wrong type (a hand-edited import)', async () => {
    await db.settings.bulkPut([
      { key: 'excludedSites', value: 'example.org' },
      { key: 'maxLinksPerPage', value: -3 },
      { key: 'activeTopicId', value: 42 },
    ]);
    expect(await createDexieSettingsStore(db).get()).toEqual(SETTINGS_DEFAULTS);
  });

  it('stores topics by id, lists them by name, and finds the active one', async () => {
    const topics = createDexieTopicStore(db);
    const settings = createDexieSettingsStore(db);
    await topics.put(topic({ id: 'b', name: '体育' }));
    await topics.put(topic({ id: 'a', name: 'finance' }));
    await topics.put(topic({ id: 'a', name: 'economy' }));
    expect((await topics.list()).map((t) => t.name)).toEqual(['economy', '体育']);
    expect(await activeTopic(topics, settings)).toBeNull();
    await settings.put({ ...SETTINGS_DEFAULTS, activeTopicId: 'b' });
    expect((await activeTopic(topics, settings))?.name).toBe('体育');
    await topics.delete('b');
    expect(await activeTopic(topics, settings)).toBeNull();
  });
});
