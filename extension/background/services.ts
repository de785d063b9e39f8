/**
 * The adapters the background's handlers act through (STYLE.md 5). `index.ts` builds them on
 * webextension-polyfill; tests build them in memory. Handlers see plain data only.
 */
import type { BackgroundToContent, BackgroundToContentReplies } from '../messages/background-to-content.ts';
import type { FetchLike } from '../companion-client/client.ts';
import type { PublishedPageSettings } from '../messages/page-settings.ts';
import { topicNamedIn, type CompanionStore, type SettingsStore, type TopicStore } from '../storage/stores.ts';
import { TOPIC_DEFAULTS } from '../storage/validate.ts';
import type { WorkerRemote } from './worker-host.ts';

export interface WorkerCaller {
  call<T>(what: string, fn: (remote: WorkerRemote) => Promise<T>): Promise<T>;
}

export interface TabsAdapter {
  /** Sends to a tab's content script; null when the tab has none (or it did not answer). */
  send<M extends BackgroundToContent>(tabId: number, message: M): Promise<BackgroundToContentReplies[M['type']] | null>;
  /** Every tab's id (content scripts that are not there simply do not answer). */
  allTabIds(): Promise<number[]>;
  /** A tab's URL, when the extension may read it (activeTab after a popup click). */
  urlOf(tabId: number): Promise<string | null>;
}

export interface BadgeAdapter {
  /** The on-topic link count on the tab's toolbar button; null clears it. */
  set(tabId: number, count: number | null): Promise<void>;
}

/** Where the settings content scripts read at injection go (`storage.local`; page-settings.ts). */
export interface PageSettingsSink {
  publish(settings: PublishedPageSettings): Promise<void>;
}

export interface BackgroundServices {
  topics: TopicStore;
  settings: SettingsStore;
  worker: WorkerCaller;
  tabs: TabsAdapter;
  badge: BadgeAdapter;
  /** The companion pairing and the last crawl. */
  companion: CompanionStore;
  /** How the companion client reaches the service; default the global `fetch` (tests pass theirs). */
  fetch?: FetchLike;
  /** The settings content scripts read without asking (absent: they always ask 'page/settings'). */
  pageSettings?: PageSettingsSink;
}

/**
 * Writes what content scripts need to start without a 'page/settings' round trip
 * (messages/page-settings.ts), from the stores as they are now.
 */
export async function publishPageSettings(services: Pick<BackgroundServices, 'topics' | 'settings' | 'companion' | 'pageSettings'>): Promise<void> {
  if (services.pageSettings === undefined) return;
  const [current, pairing] = await Promise.all([services.settings.get(), services.companion.get()]);
  const topic = await topicNamedIn(services.topics, current);
  await services.pageSettings.publish({
    version: 1,
    active: topic !== null,
    window: topic?.window ?? TOPIC_DEFAULTS.window,
    maxLinks: current.maxLinksPerPage,
    excludedSites: current.excludedSites,
    companionPort: pairing.port,
  });
}

/**
 * Asks every tab (but `except`, refreshed already) to re-read its settings and re-score its links
 * (the model, a mark or the topic changed). The settings content scripts read at injection are
 * published first, so a page that starts meanwhile reads the new ones.
 */
export async function refreshAllTabs(services: Pick<BackgroundServices, 'tabs' | 'topics' | 'settings' | 'companion' | 'pageSettings'>, except?: number): Promise<void> {
  const { tabs } = services;
  await publishPageSettings(services);
  const ids = (await tabs.allTabIds()).filter((id) => id !== except);
  await Promise.all(ids.map((id) => tabs.send(id, { type: 'verdicts/refresh' })));
}
