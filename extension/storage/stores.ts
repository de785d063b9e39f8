/**
 * What the background needs from storage, as two small interfaces, so its handlers are tested on
 * an in-memory implementation and run on the Dexie one (`dexie-stores.ts`) in the browser.
 */
import type { Topic } from '../../shared/model/types.ts';
import type { CompanionSettings, ExtensionSettings } from '../messages/protocol.ts';

export interface TopicStore {
  list(): Promise<Topic[]>;
  get(id: string): Promise<Topic | undefined>;
  put(topic: Topic): Promise<void>;
  delete(id: string): Promise<void>;
}

export interface SettingsStore {
  /** The settings, defaults filled in for anything never saved. */
  get(): Promise<ExtensionSettings>;
  put(settings: ExtensionSettings): Promise<void>;
}

/** The pairing with the companion and the last crawl (`CompanionSettings`). */
export interface CompanionStore {
  /** Defaults filled in for anything never saved. */
  get(): Promise<CompanionSettings>;
  /** Writes the given fields only. */
  put(patch: Partial<CompanionSettings>): Promise<void>;
}

/** The active topic, or null when none is set or it was deleted. */
export async function activeTopic(topics: TopicStore, settings: SettingsStore): Promise<Topic | null> {
  return topicNamedIn(topics, await settings.get());
}

/** The topic settings already read name as active (saves reading them again), or null. */
export async function topicNamedIn(topics: TopicStore, { activeTopicId }: Pick<ExtensionSettings, 'activeTopicId'>): Promise<Topic | null> {
  if (activeTopicId === null) return null;
  return (await topics.get(activeTopicId)) ?? null;
}
