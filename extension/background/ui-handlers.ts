/**
 * Popup and options → background: topics, settings, statistics, marking a page, excluding a site,
 * export and import; the companion's requests are in `companion-handlers.ts`. Anything that
 * changes what a page should show ends with a refresh of the tabs, so the user never presses a
 * "rescore" button.
 */
import type { Topic } from '../../shared/model/types.ts';
import { normalizeUrl, urlHost } from '../../shared/urls/normalize-url.ts';
import type { TopicInput } from '../messages/settings.ts';
import type { Counts, Failure } from '../messages/views.ts';
import { activeTopic } from '../storage/stores.ts';
import { isExcluded, mergeSettings, normalizeHost, validateTopic } from '../storage/validate.ts';
import { createCompanionHandlers } from './companion-handlers.ts';
import type { UiHandlers } from './router.ts';
import { refreshAllTabs, type BackgroundServices } from './services.ts';

const EMPTY_COUNTS: Counts = { byLabel: { on: 0, off: 0 }, bySource: {}, pagesSeen: 0 };

function failure(error: unknown): Failure {
  return { ok: false, error: error instanceof Error ? error.message : String(error) };
}

/** Whether a topic edit changes the features, so the model must be rebuilt from its examples. */
export function needsRetrain(before: Topic, after: Topic): boolean {
  return (
    before.featureGroup !== after.featureGroup ||
    before.form !== after.form ||
    (before.urlTokens === true) !== (after.urlTokens === true) ||
    (before.featureVersion ?? 1) !== (after.featureVersion ?? 1) ||
    JSON.stringify(before.lexicon) !== JSON.stringify(after.lexicon)
  );
}

/** The fields of a stored topic an edit keeps unless it names them. */
function keptFields(topic: Topic): Partial<TopicInput> {
  return {
    urlTokens: topic.urlTokens === true,
    featureVersion: topic.featureVersion ?? 1,
    thresholdMode: topic.thresholdMode ?? 'fixed',
    ...(topic.targetPrecision === undefined ? {} : { targetPrecision: topic.targetPrecision }),
  };
}

function exportFileName(now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `linkscent-${stamp}.json`;
}

export function createUiHandlers(services: BackgroundServices): UiHandlers {
  const { topics, settings, worker, tabs } = services;

  async function setActive(topicId: string | null): Promise<void> {
    await settings.put({ ...(await settings.get()), activeTopicId: topicId });
  }

  return {
    ...createCompanionHandlers(services),

    async 'topics/list'() {
      const [list, current] = await Promise.all([topics.list(), settings.get()]);
      return { topics: list, activeId: current.activeTopicId };
    },

    async 'topics/save'({ topic: input }) {
      const stored = typeof input?.id === 'string' ? await topics.get(input.id.trim()) : undefined;
      // An edit keeps what the form does not show: a topic made before URL tokens and calibration
      // keeps its features and its fixed threshold until the user changes them.
      const checked = validateTopic(stored ? { ...keptFields(stored), ...input } : input);
      if (!checked.ok) return checked;
      const topic = checked.value;
      const before = stored;
      await topics.put(topic);
      if ((await settings.get()).activeTopicId === null) await setActive(topic.id);
      if (before && needsRetrain(before, topic)) await worker.call('retrain', (remote) => remote.retrain(topic));
      await refreshAllTabs(services);
      return { ok: true, topic };
    },

    async 'topics/delete'({ topicId }) {
      await topics.delete(topicId);
      await worker.call('dropTopic', (remote) => remote.dropTopic(topicId));
      if ((await settings.get()).activeTopicId === topicId) await setActive((await topics.list())[0]?.id ?? null);
      await refreshAllTabs(services);
      return { ok: true };
    },

    async 'topics/activate'({ topicId }) {
      if (!(await topics.get(topicId))) return { ok: false, error: 'That topic no longer exists.' };
      await setActive(topicId);
      await refreshAllTabs(services);
      return { ok: true };
    },

    async 'settings/get'() {
      return settings.get();
    },

    async 'settings/save'({ settings: patch }) {
      const merged = mergeSettings(await settings.get(), patch);
      if (!merged.ok) return merged;
      await settings.put(merged.value);
      await refreshAllTabs(services);
      return { ok: true, settings: merged.value };
    },

    async 'stats/get'({ tabId }) {
      const topic = await activeTopic(topics, settings);
      const current = await settings.get();
      const [counts, heldOut] = topic
        ? await Promise.all([
            worker.call('counts', (remote) => remote.counts(topic)),
            worker.call('evaluateHeldOut', (remote) => remote.evaluateHeldOut(topic)),
          ])
        : [EMPTY_COUNTS, null];
      let pageOnTopicLinks: number | null = null;
      let host: string | null = null;
      if (tabId !== undefined) {
        const url = await tabs.urlOf(tabId);
        if (url !== null && /^https?:\/\//.test(url)) host = urlHost(url) ?? null;
        pageOnTopicLinks = (await tabs.send(tabId, { type: 'page/summary' }))?.onTopic ?? null;
      }
      return {
        topic,
        counts,
        heldOut,
        pageOnTopicLinks,
        siteEnabled: host === null ? null : !isExcluded(host, current.excludedSites),
        host,
      };
    },

    async 'page/mark'({ tabId, pageUrl, label }) {
      const topic = await activeTopic(topics, settings);
      if (topic === null) return { ok: false, error: 'Choose or create a topic first.' };
      const url = normalizeUrl(pageUrl, pageUrl);
      if (url === undefined) return { ok: false, error: 'Only web pages (http or https) can be marked.' };
      if (label !== 0 && label !== 1) return { ok: false, error: `A label is 0 or 1, not ${String(label)}.` };
      const { labeled } = await worker.call('labelTarget', (remote) => remote.labelTarget(topic, url, label, 'page'));
      // The page's links re-score, and so does every open page linking to it (the mark shows there).
      if (tabId !== undefined) await tabs.send(tabId, { type: 'verdicts/refresh' });
      await refreshAllTabs(services, tabId);
      return { ok: true, labeled };
    },

    async 'site/toggle'({ host, enabled }) {
      const current = await settings.get();
      const site = normalizeHost(host);
      if (site === null) return { ok: true, settings: current };
      const others = current.excludedSites.filter((s) => s !== site);
      const next = { ...current, excludedSites: enabled ? others : [...others, site] };
      await settings.put(next);
      await refreshAllTabs(services);
      return { ok: true, settings: next };
    },

    async 'db/export'() {
      try {
        const fileText = await worker.call('exportDatabase', (remote) => remote.exportDatabase());
        return { ok: true, fileText, fileName: exportFileName() };
      } catch (error) {
        return failure(error);
      }
    },

    async 'db/import'({ fileText, replace }) {
      if (typeof fileText !== 'string' || fileText.trim() === '') return { ok: false, error: 'The file is empty.' };
      try {
        const result = await worker.call('importDatabase', (remote) => remote.importDatabase(fileText, replace === true));
        // A merge keeps our settings, so with no active topic here the first one becomes it (a
        // replace takes the file's settings, active topic included, as they are).
        if (replace !== true) {
          const { activeTopicId } = await settings.get();
          if (activeTopicId === null || !(await topics.get(activeTopicId))) await setActive((await topics.list())[0]?.id ?? null);
        }
        await refreshAllTabs(services);
        return { ok: true, ...result };
      } catch (error) {
        return failure(error);
      }
    },
  };
}
