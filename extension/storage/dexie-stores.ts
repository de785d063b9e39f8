/**
 * Topics and settings on the shared schema: topics in `topics`, each extension setting as one
 * row of `settings` (key = the field's name), so an import that lacks a setting leaves the
 * default rather than a half-filled object.
 */
import type { LinkScentDb } from './database.ts';
import type { Topic } from '../../shared/model/types.ts';
import type { CompanionSettings, ExtensionSettings, LastCrawl } from '../messages/protocol.ts';
import type { CompanionStore, SettingsStore, TopicStore } from './stores.ts';
import { COMPANION_DEFAULTS, isValidPort, SETTINGS_DEFAULTS, validateCrawlChoice } from './validate.ts';

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

/**
 * Rows of the companion pairing start with this: the worker leaves them out of every exported
 * model file and keeps them across an import (`worker/dexie-repository.ts`).
 */
export const COMPANION_KEY_PREFIX = 'companion.';

const COMPANION_FIELDS = Object.keys(COMPANION_DEFAULTS) as (keyof CompanionSettings)[];
const companionKey = (field: keyof CompanionSettings) => `${COMPANION_KEY_PREFIX}${field}`;

function isLastCrawl(value: unknown): value is LastCrawl {
  if (typeof value !== 'object' || value === null) return false;
  const { id, topicId, startedAt } = value as Record<string, unknown>;
  return typeof id === 'string' && id !== '' && typeof topicId === 'string' && typeof startedAt === 'number';
}

/** A stored companion value of the right type, else the default. */
function validCompanion<K extends keyof CompanionSettings>(field: K, value: unknown): CompanionSettings[K] {
  switch (field) {
    case 'port':
      return (isValidPort(value) ? value : COMPANION_DEFAULTS.port) as CompanionSettings[K];
    case 'token':
      return (typeof value === 'string' ? value : COMPANION_DEFAULTS.token) as CompanionSettings[K];
    case 'lastCrawl':
      return (isLastCrawl(value) ? value : null) as CompanionSettings[K];
    case 'crawlChoice': {
      const checked = validateCrawlChoice(value);
      return (checked.ok ? checked.value : COMPANION_DEFAULTS.crawlChoice) as CompanionSettings[K];
    }
    default:
      return COMPANION_DEFAULTS[field];
  }
}

export function createDexieCompanionStore(db: LinkScentDb): CompanionStore {
  return {
    async get() {
      const rows = await db.settings.bulkGet(COMPANION_FIELDS.map(companionKey));
      const settings = { ...COMPANION_DEFAULTS };
      rows.forEach((row, i) => {
        const field = COMPANION_FIELDS[i]!;
        if (row) (settings as Record<string, unknown>)[field] = validCompanion(field, row.value);
      });
      return settings;
    },
    async put(patch) {
      const fields = COMPANION_FIELDS.filter((field) => patch[field] !== undefined);
      await db.settings.bulkPut(fields.map((field) => ({ key: companionKey(field), value: patch[field] })));
    },
  };
}
