/**
 * The toolbar popup: active topic, the model's counts and held-out accuracy, this page's
 * on-topic links, "mark this page on / off topic", an on/off switch for this site, and the
 * companion crawl panel ("Crawl from here", progress, "Pull labels": `crawl-panel.ts`).
 *
 * It holds no state of its own: every action is one UiToBackground request followed by a fresh
 * `stats/get`, so the popup always shows what the background has. The `browser` object is a
 * parameter (structurally typed) so tests can drive the popup under happy-dom with a fake one.
 */
import type { UiToBackgroundReplies } from '../messages/ui-to-background.ts';
import { createUiSender, type MessageRuntime, type UiSend } from '../messages/send.ts';
import { byId, errorText, h, showStatus } from '../ui/dom.ts';
import { createTranslate, localize, percent, uiLocale, type I18nLike, type Translate } from '../ui/i18n.ts';
import { createCrawlPanel, type CrawlPanel } from './crawl-panel.ts';

/** The part of `browser` the popup uses. */
export interface PopupBrowser {
  runtime: MessageRuntime & { openOptionsPage(): Promise<void> };
  i18n: I18nLike;
  tabs: { query(query: { active: true; currentWindow: true }): Promise<{ id?: number; url?: string }[]> };
}

type Stats = UiToBackgroundReplies['stats/get'];
type TopicList = UiToBackgroundReplies['topics/list'];

interface Elements {
  topic: HTMLSelectElement;
  noTopic: HTMLElement;
  pageCount: HTMLElement;
  markOn: HTMLButtonElement;
  markOff: HTMLButtonElement;
  siteRow: HTMLElement;
  siteEnabled: HTMLInputElement;
  siteLabel: HTMLElement;
  counts: HTMLElement;
  accuracy: HTMLElement;
  teachMore: HTMLElement;
  status: HTMLElement;
}

function elementsOf(doc: Document): Elements {
  return {
    topic: byId(doc, 'topic', HTMLSelectElement),
    noTopic: byId(doc, 'no-topic', HTMLElement),
    pageCount: byId(doc, 'page-count', HTMLElement),
    markOn: byId(doc, 'mark-on', HTMLButtonElement),
    markOff: byId(doc, 'mark-off', HTMLButtonElement),
    siteRow: byId(doc, 'site-row', HTMLElement),
    siteEnabled: byId(doc, 'site-enabled', HTMLInputElement),
    siteLabel: byId(doc, 'site-label', HTMLElement),
    counts: byId(doc, 'counts', HTMLElement),
    accuracy: byId(doc, 'accuracy', HTMLElement),
    teachMore: byId(doc, 'teach-more', HTMLElement),
    status: byId(doc, 'status', HTMLElement),
  };
}

/** Fills the topic switcher; with no topics it points to the options page instead. */
function renderTopics(doc: Document, el: Elements, list: TopicList): void {
  el.topic.replaceChildren(
    ...list.topics.map((topic) => {
      const option = h(doc, 'option', { value: topic.id }, topic.name);
      option.selected = topic.id === list.activeId;
      return option;
    }),
  );
  el.topic.hidden = list.topics.length === 0;
  el.noTopic.hidden = list.topics.length > 0;
}

/**
 * The threshold in use and its precision and recall on held-out examples, with their count and
 * how many are on topic: never plain accuracy, which answering "off topic" always would make
 * look high when one link in thirty is on topic (issue 12).
 */
export function qualityText(t: Translate, heldOut: Stats['heldOut']): string {
  if (heldOut === null || heldOut.figures === null) return t('popupAccuracyUnknown');
  const locale = uiLocale(t);
  const how =
    heldOut.mode === 'fixed'
      ? t('popupThresholdFixed')
      : heldOut.mode === 'precision'
        ? t(heldOut.reached ? 'popupThresholdPrecision' : 'popupThresholdPrecisionMissed')
        : t('popupThresholdF1');
  const { precision, recall } = heldOut.figures;
  return t('popupQuality', heldOut.threshold.toFixed(2), how, percent(precision, locale), percent(recall, locale), heldOut.n, heldOut.positives);
}

/**
 * Fewer on-topic examples than this and the popup asks for more. A topic taught with 8 on-topic
 * examples lit nothing on its test pages (the lens bench's Writer topic), and its held-out
 * figures, a handful of links, said little either way; 30 is the usual minimum of a class.
 */
export const FEW_ON_TOPIC_EXAMPLES = 30;

/** Fills counts, accuracy, this page's count and the site switch from one `stats/get` reply. */
function renderStats(doc: Document, el: Elements, t: Translate, stats: Stats): void {
  const { counts } = stats;
  const rows: [string, number][] = [
    [t('popupExamplesOn'), counts.byLabel.on],
    [t('popupExamplesOff'), counts.byLabel.off],
    [t('popupSourcePattern'), counts.bySource.pattern ?? 0],
    [t('popupSourceUser'), counts.bySource.user ?? 0],
    [t('popupSourcePage'), counts.bySource.page ?? 0],
    [t('popupSourceCrawl'), counts.bySource.crawl ?? 0],
    [t('popupPagesSeen'), counts.pagesSeen],
  ];
  el.counts.replaceChildren(...rows.flatMap(([label, n]) => [h(doc, 'dt', {}, label), h(doc, 'dd', {}, String(n))]));

  el.accuracy.textContent = qualityText(t, stats.heldOut);
  const few = stats.topic !== null && counts.byLabel.on < FEW_ON_TOPIC_EXAMPLES;
  el.teachMore.hidden = !few;
  el.teachMore.textContent = few ? t('popupFewOnTopic', counts.byLabel.on) : '';

  const onPage = stats.host !== null;
  el.pageCount.textContent = !onPage
    ? t('popupPageUnsupported')
    : stats.pageOnTopicLinks === null
      ? t('popupPageNotScanned')
      : t('popupPageOnTopic', stats.pageOnTopicLinks);

  const canMark = onPage && stats.topic !== null;
  el.markOn.disabled = !canMark;
  el.markOff.disabled = !canMark;

  el.siteRow.hidden = stats.siteEnabled === null || stats.host === null;
  el.siteEnabled.checked = stats.siteEnabled === true;
  el.siteLabel.textContent = stats.host === null ? '' : t('popupSiteEnabled', stats.host);
}

export interface PopupOptions {
  /** Seconds between progress polls of a running crawl, in ms. Default 1000. */
  pollMs?: number;
}

/** Wires the popup in `doc` to the background and shows the current state; returns the crawl panel. */
export async function startPopup(doc: Document, browser: PopupBrowser, options: PopupOptions = {}): Promise<CrawlPanel> {
  const t = createTranslate(browser.i18n);
  const send: UiSend = createUiSender(browser.runtime);
  localize(doc, t);
  const el = elementsOf(doc);
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  const tabId = tab?.id;
  let stats: Stats | null = null;

  const refresh = async (): Promise<void> => {
    const [topics, latest] = await Promise.all([send({ type: 'topics/list' }), send({ type: 'stats/get', tabId })]);
    stats = latest;
    renderTopics(doc, el, topics);
    renderStats(doc, el, t, latest);
    crawl.setCanStart(latest.topic !== null && latest.host !== null && tab?.url !== undefined);
  };
  const crawl = createCrawlPanel(doc, send, t, {
    pageUrl: () => tab?.url,
    onLearned: () => refresh(),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  });

  /** Runs one user action; any failure becomes the status line, never an uncaught rejection. */
  const act = (action: () => Promise<string | null>) => async () => {
    try {
      const message = await action();
      if (message !== null) showStatus(el.status, message, 'ok');
      await refresh();
    } catch (error) {
      showStatus(el.status, errorText(error), 'error');
    }
  };

  el.topic.addEventListener(
    'change',
    act(async () => {
      const reply = await send({ type: 'topics/activate', topicId: el.topic.value });
      if (!reply.ok) throw new Error(reply.error);
      return null;
    }),
  );

  const mark = (label: 0 | 1) =>
    act(async () => {
      const pageUrl = tab?.url;
      if (pageUrl === undefined) throw new Error(t('popupPageUnsupported'));
      const reply = await send({ type: 'page/mark', tabId, pageUrl, label });
      if (!reply.ok) throw new Error(reply.error);
      return t(label === 1 ? 'popupMarkedOn' : 'popupMarkedOff', reply.labeled);
    });
  el.markOn.addEventListener('click', mark(1));
  el.markOff.addEventListener('click', mark(0));

  el.siteEnabled.addEventListener(
    'change',
    act(async () => {
      const host = stats?.host;
      if (host === null || host === undefined) return null;
      await send({ type: 'site/toggle', host, enabled: el.siteEnabled.checked });
      return null;
    }),
  );

  // The options page opens in a tab; the browser closes the popup as the tab takes focus.
  byId(doc, 'open-options', HTMLButtonElement).addEventListener('click', () => {
    browser.runtime.openOptionsPage().catch((error: unknown) => showStatus(el.status, errorText(error), 'error'));
  });

  try {
    await refresh();
  } catch (error) {
    showStatus(el.status, errorText(error), 'error');
  }
  // Its failures land in its own status line: the rest of the popup works without a companion.
  await crawl.load();
  return crawl;
}
