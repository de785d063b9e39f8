/**
 * The background: Chromium's service worker, Firefox's event page. It wires browser events to
 * the handlers and keeps nothing it cannot lose: topics and settings are read from IndexedDB
 * for each message, the badge text lives in the browser, the model in the Worker and IndexedDB.
 * Listeners are registered synchronously at the top level, as MV3 requires for wake-ups.
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { openExtensionDb } from '../storage/database.ts';
import { createDexieCompanionStore, createDexieSettingsStore, createDexieTopicStore } from '../storage/dexie-stores.ts';
import { activeTopic } from '../storage/stores.ts';
import { removeTokenUrls } from '../storage/token-cleanup.ts';
import { createContentHandlers } from './content-handlers.ts';
import { createDirectPortSource } from './direct-host.ts';
import { labelOfMenuItem, markLink, MENU_IDS } from './link-marks.ts';
import { createOffscreenPortSource } from './offscreen-host.ts';
import { createRouter } from './router.ts';
import { publishPageSettings, refreshAllTabs, type BackgroundServices } from './services.ts';
import { PAGE_SETTINGS_KEY } from '../messages/page-settings.ts';
import { createUiHandlers } from './ui-handlers.ts';
import { WorkerHost } from './worker-host.ts';

// A service worker cannot construct a Worker; an event page can.
const host = new WorkerHost(typeof Worker === 'function' ? createDirectPortSource() : createOffscreenPortSource());
const db = openExtensionDb();

const services: BackgroundServices = {
  topics: createDexieTopicStore(db),
  settings: createDexieSettingsStore(db),
  companion: createDexieCompanionStore(db),
  worker: host,
  tabs: {
    async send(tabId, message) {
      try {
        return ((await browser.tabs.sendMessage(tabId, message)) ?? null) as never;
      } catch {
        return null; // no content script there (a chrome:// page, an excluded site, not loaded yet)
      }
    },
    async allTabIds() {
      return (await browser.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
    },
    async urlOf(tabId) {
      try {
        return (await browser.tabs.get(tabId)).url ?? null;
      } catch {
        return null;
      }
    },
  },
  pageSettings: {
    async publish(settings) {
      await browser.storage.local.set({ [PAGE_SETTINGS_KEY]: settings });
    },
  },
  badge: {
    async set(tabId, count) {
      const text = count === null || count === 0 ? '' : count > 999 ? '999+' : String(count);
      try {
        await browser.action.setBadgeText({ tabId, text });
        if (text !== '') await browser.action.setBadgeBackgroundColor({ tabId, color: '#2e7d32' });
      } catch {
        // the tab closed meanwhile
      }
    },
  },
};

// Each start of the background: what content scripts read at injection follows the database
// (an update, or a profile whose storage.local was cleared).
publishPageSettings(services).catch((error: unknown) => console.error('LinkScent: publishing the page settings failed', error));

const route = createRouter({
  extensionId: browser.runtime.id,
  extensionOrigin: browser.runtime.getURL(''),
  content: createContentHandlers(services),
  ui: createUiHandlers(services),
});

browser.runtime.onMessage.addListener(
  (message: unknown, sender: Runtime.MessageSender) => route(message, sender) as Promise<unknown> | undefined,
);

function message(key: string, fallback: string): string {
  return browser.i18n.getMessage(key) || fallback;
}

async function createMenus(): Promise<void> {
  await browser.contextMenus.removeAll();
  browser.contextMenus.create({ id: MENU_IDS.on, title: message('menuMarkLinkOn', 'Link is on topic'), contexts: ['link'] });
  browser.contextMenus.create({ id: MENU_IDS.off, title: message('menuMarkLinkOff', 'Link is off topic'), contexts: ['link'] });
}

browser.runtime.onInstalled.addListener(() => {
  void createMenus();
  void cleanTokenUrls().catch((error: unknown) => console.error('LinkScent: removing token URLs failed', error));
});

/**
 * Issue 12's upgrade: examples stored from the companion's dashboard before its pages were left
 * alone carry the pairing token in a URL. They go, and their topics' models are rebuilt.
 */
async function cleanTokenUrls(): Promise<void> {
  const { token } = await services.companion.get();
  const cleaned = await removeTokenUrls(db, token);
  for (const topicId of cleaned.topics) {
    const topic = await services.topics.get(topicId);
    if (topic) await host.call('retrain', (remote) => remote.retrain(topic));
  }
}
browser.runtime.onStartup.addListener(() => void createMenus());

browser.contextMenus.onClicked.addListener((info, tab) => {
  const label = labelOfMenuItem(info.menuItemId);
  const pageUrl = info.pageUrl ?? tab?.url;
  if (label === null || info.linkUrl === undefined || pageUrl === undefined) return;
  void (async () => {
    const topic = await activeTopic(services.topics, services.settings);
    if (topic === null) return;
    const click = { linkUrl: info.linkUrl!, pageUrl, ...(info.linkText ? { linkText: info.linkText } : {}) };
    await markLink(host, topic, click, label);
    // The mark shows wherever the link appears, so every open page re-scores, not this one only.
    await refreshAllTabs(services);
  })().catch((error: unknown) => console.error('LinkScent: marking the link failed', error));
});
