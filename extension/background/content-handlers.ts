/**
 * Content → background: a page asks whether to run, sends its links in batches, reports its
 * on-topic count. Each batch is scored for the active topic and, in the same pass, its contexts
 * are stored and the pattern-labeled ones learned (passive labeling, no button).
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import { normalizeUrl, urlHost } from '../../shared/urls/normalize-url.ts';
import type { LinkVerdict, PageLink, PageVerdict } from '../messages/page-links.ts';
import { topicNamedIn } from '../storage/stores.ts';
import { isExcluded, TOPIC_DEFAULTS } from '../storage/validate.ts';
import { carriesToken, isCompanionPage } from '../companion-client/companion-pages.ts';
import { passiveExamples } from './passive-labels.ts';
import type { ContentHandlers } from './router.ts';
import { publishPageSettings, type BackgroundServices } from './services.ts';

/** The most links one batch may carry, whatever the page claims. */
export const MAX_BATCH = 1000;
const MAX_TEXT = 2000;

/** A well-formed link from a page's message, or null: page data is checked, never trusted. */
export function cleanLink(link: unknown, pageUrl: string): PageLink | null {
  if (typeof link !== 'object' || link === null) return null;
  const { ref, url, anchor, before, after } = link as Record<string, unknown>;
  if (typeof ref !== 'number' || !Number.isInteger(ref) || ref < 0) return null;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url) || url.length > 4096) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_TEXT) : '');
  return { ref, url, pageUrl, anchor: text(anchor), before: text(before), after: text(after) };
}

/** The verdicts as a page gets them: all but `top`, which 'link/explain' brings on hover. */
export function withoutExplanations(verdicts: readonly LinkVerdict[]): PageVerdict[] {
  return verdicts.map(({ top: _top, ...verdict }) => verdict);
}

function hostOf(url: string): string {
  return urlHost(url) ?? '';
}

export function createContentHandlers(services: BackgroundServices): ContentHandlers {
  const { topics, settings, worker, badge, companion } = services;

  /**
   * The active topic, or null where the content script must do nothing: an excluded site, or a
   * page of the companion service (its dashboard's URLs carry the pairing token, issue 12).
   */
  async function enabledTopic(pageUrl: string) {
    const [current, pairing] = await Promise.all([settings.get(), companion.get()]);
    if (isExcluded(hostOf(pageUrl), current.excludedSites)) return { topic: null, current, token: pairing.token };
    if (isCompanionPage(pageUrl, pairing.port) || carriesToken(pageUrl, pairing.token)) return { topic: null, current, token: pairing.token };
    // From the settings just read: every batch of every page comes through here.
    return { topic: await topicNamedIn(topics, current), current, token: pairing.token };
  }

  return {
    async 'page/settings'(_message, origin) {
      // Asked when the content script found no settings published (a new install, storage
      // cleared) or on a refresh: publish them, so the next pages need not ask.
      publishPageSettings(services).catch((error: unknown) => console.error('LinkScent: publishing the page settings failed', error));
      const { topic, current } = await enabledTopic(origin.url);
      if (topic === null) await badge.set(origin.tabId, null);
      return { enabled: topic !== null, window: topic?.window ?? TOPIC_DEFAULTS.window, maxLinks: current.maxLinksPerPage };
    },

    async 'page/links'(message, origin) {
      // The page is the sender's, not whatever the message says, in the pipeline's URL form.
      const pageUrl = normalizeUrl(origin.url, origin.url) ?? origin.url;
      const { topic, token } = await enabledTopic(pageUrl);
      if (topic === null) return { verdicts: [] };
      const raw: unknown[] = Array.isArray(message.links) ? message.links.slice(0, MAX_BATCH) : [];
      // A link that carries the pairing token is neither scored nor stored.
      const links = raw.map((link) => cleanLink(link, pageUrl)).filter((link): link is PageLink => link !== null && !carriesToken(link.url, token));
      if (links.length === 0) return { verdicts: [] };
      const contexts: LinkContext[] = links.map(({ ref: _ref, ...context }) => context);
      const examples = passiveExamples(topic, contexts);
      const page = message.first ? { url: pageUrl, title: typeof message.title === 'string' ? message.title.slice(0, 500) : '' } : undefined;
      // Scored against the model as it was, then this batch's examples are learned: the Worker
      // takes its calls in the order they are made. The page waits for its verdicts only, not
      // for the examples and the page record to be written (an IndexedDB transaction in the
      // Worker, which on the first batch of a page held its verdicts back; issue 14).
      const verdicts = worker.call('scoreLinks', (remote) => remote.scoreLinks(topic, links));
      const learned = worker.call('observe', (remote) => remote.observe(topic, examples, page));
      learned.catch((error: unknown) => console.error('LinkScent: learning from a page failed', error));
      return { verdicts: withoutExplanations(await verdicts) };
    },

    async 'link/explain'(message, origin) {
      const pageUrl = normalizeUrl(origin.url, origin.url) ?? origin.url;
      const { topic, token } = await enabledTopic(pageUrl);
      const link = cleanLink(message.link, pageUrl);
      if (topic === null || link === null || carriesToken(link.url, token)) return { top: [] };
      // The link as the page sent it in 'page/links', scored as it was then (nothing is learned
      // from it): the same model gives the same features.
      const [verdict] = await worker.call('scoreLinks', (remote) => remote.scoreLinks(topic, [link]));
      return { top: verdict?.top ?? [] };
    },

    async 'page/count'(message, origin) {
      const onTopic = Number.isInteger(message.onTopic) && message.onTopic >= 0 ? message.onTopic : 0;
      await badge.set(origin.tabId, onTopic);
      return { ok: true };
    },
  };
}
