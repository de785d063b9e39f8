/**
 * Topics and settings on the shared schema: topics in `topics`, each extension setting as one
 * row of `settings` (key = the field's name), so an import that lacks a setting leaves the
 * default rather than a half-filled object.
 */
import type { LinkScentDb } from '../../shared/model/db-schema.ts';
import type { Topic } from '../../shared/model/types.ts';
import type { ExtensionSettings } from '../messages/protocol.ts';
import type { SettingsStore, TopicStore } from './stores.ts';
import { SETTINGS_DEFAULTS } from './validate.ts';

const SETTING_KEYS = Object.keys(SETTINGS_DEFAULTS) as (keyof ExtensionSettings)[];

export function createDexieTopicStore(db: LinkScentDb): TopicStore {
  return {
    list: () => db.topics.orderBy('name').toArray(),
    get: (id) => db.topics.get(id),
    async put(topic: Topic) {
      await db.topics.put(topic);
    },
    async delete(id) {
      await db.topics.delete(id);
    },
  };
}

/** A stored value of the right type for its key, else the default (a hand-edited import). */
function validSetting<K extends keyof ExtensionSettings>(key: K, value: unknown): ExtensionSettings[K] {
  const fallback = SETTINGS_DEFAULTS[key];
  switch (key) {
    case 'activeTopicId':
      return (typeof value === 'string' || value === null ? value : fallback) as ExtensionSettings[K];
    case 'excludedSites':
      return (Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : fallback) as ExtensionSettings[K];
    case 'maxLinksPerPage':
      return (Number.isInteger(value) && (value as number) > 0 ? value : fallback) as ExtensionSettings[K];
    default:
      return fallback;
  }
}

export function createDexieSettingsStore(db: LinkScentDb): SettingsStore {
  return {
    async get() {
      const rows = await db.settings.bulkGet(SETTING_KEYS);
      const settings = { ...SETTINGS_DEFAULTS };
      rows.forEach((row, i) => {
        const key = SETTING_KEYS[i]!;
        if (row) (settings as Record<string, unknown>)[key] = validSetting(key, row.value);
      });
      return settings;
    },
    async put(settings) {
      await db.settings.bulkPut(SETTING_KEYS.map((key) => ({ key, value: settings[key] })));
    },
  };
}
