/**
 * The popup's crawl panel: "Crawl from here" (the current page as the seed, the active topic's
 * model), the last crawl's live progress, a link to it in the companion's dashboard, and "Pull
 * labels" (the labels the crawl learned, merged into the topic's examples).
 *
 * Progress is polled: one 'crawl/get' a second while the crawl can still change. The service's
 * event stream would need the token in a header, which EventSource cannot send, and a stream held
 * by a popup that the browser may close at any moment buys nothing over a poll of a small answer.
 * The background remembers the last crawl, so a reopened popup shows it again.
 *
 * Before starting, the user sets pages, depth and scope (same site, same domain, anywhere); the
 * background remembers the choice, so the next popup offers it again. When a crawl is done, the
 * panel says why it ended: the page limit, or nothing left to fetch within the depth and scope.
 *
 * Everything shown comes from the companion and goes in as text or as an attribute value.
 */
import { FINAL_STATES, type CrawlScope, type CrawlState } from '../../shared/service-api/types.ts';
import type { CrawlChoice } from '../messages/settings.ts';
import { CRAWL_CHOICE_DEFAULTS } from '../storage/validate.ts';
import type { UiToBackgroundReplies } from '../messages/ui-to-background.ts';
import type { CrawlView } from '../messages/views.ts';
import type { UiSend } from '../messages/send.ts';
import { failureText } from '../ui/companion-text.ts';
import { byId, errorText, h, showStatus } from '../ui/dom.ts';
import { percent, uiLocale, type Translate } from '../ui/i18n.ts';

export interface CrawlPanelOptions {
  /** The current tab's URL (the seed), when the popup may read it. */
  pageUrl: () => string | undefined;
  /** After labels were merged: the popup shows the new counts. */
  onLearned: () => Promise<void>;
  /** Default 1000 ms. */
  pollMs?: number;
}

export interface CrawlPanel {
  /** Shows the last crawl (and starts polling it while it runs). */
  load(): Promise<void>;
  /** Whether "Crawl from here" can work: a web page and an active topic. */
  setCanStart(canStart: boolean): void;
  /** Stops polling (the popup's life ends with its window; tests end it sooner). */
  stop(): void;
}

const STATE_KEYS: Record<CrawlState, string> = {
  running: 'popupCrawlRunning',
  paused: 'popupCrawlPaused',
  done: 'popupCrawlDone',
  stopped: 'popupCrawlStopped',
  failed: 'popupCrawlFailed',
};

const SCOPE_KEYS: Record<CrawlScope, string> = {
  'seed-hosts': 'popupScopeSite',
  'seed-domains': 'popupScopeDomain',
  any: 'popupScopeAny',
};

/** Why a done crawl ended, in the user's words; null while it runs or when it did not end by itself. */
export function endedText(t: Translate, { info, choice }: CrawlView): string | null {
  if (info.state !== 'done') return null;
  const ended = info.ended;
  if (ended?.by === 'max-pages' || (ended === undefined && info.progress.fetched >= info.progress.maxPages)) {
    return t('popupEndedMaxPages', info.progress.maxPages);
  }
  if (ended?.beyondDepth && choice) return t('popupEndedDepth', choice.maxDepth);
  if (ended?.outOfScope && choice) return t('popupEndedScope', t(SCOPE_KEYS[choice.scope]));
  if (choice) return t('popupEndedNothingLeft', choice.maxDepth, t(SCOPE_KEYS[choice.scope]));
  return t('popupEndedNothing');
}

export function createCrawlPanel(doc: Document, send: UiSend, t: Translate, options: CrawlPanelOptions): CrawlPanel {
  const pollMs = options.pollMs ?? 1000;
  const el = {
    start: byId(doc, 'crawl-start', HTMLButtonElement),
    hint: byId(doc, 'crawl-hint', HTMLElement),
    crawl: byId(doc, 'crawl', HTMLElement),
    state: byId(doc, 'crawl-state', HTMLElement),
    ended: byId(doc, 'crawl-ended', HTMLElement),
    pages: byId(doc, 'crawl-pages', HTMLInputElement),
    depth: byId(doc, 'crawl-depth', HTMLInputElement),
    scope: byId(doc, 'crawl-scope', HTMLSelectElement),
    progress: byId(doc, 'crawl-progress', HTMLElement),
    dashboard: byId(doc, 'crawl-dashboard', HTMLAnchorElement),
    pull: byId(doc, 'crawl-pull', HTMLButtonElement),
    status: byId(doc, 'crawl-status', HTMLElement),
  };
  const locale = uiLocale(t);
  const oneDecimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let canStart = false;
  let busy = false;

  const setStatus = (text: string, kind: 'ok' | 'error') => showStatus(el.status, text, kind);

  function showChoice(choice: CrawlChoice): void {
    el.pages.value = String(choice.maxPages);
    el.depth.value = String(choice.maxDepth);
    el.scope.value = choice.scope;
  }

  /** The fields as a choice; the background checks the ranges and says what is wrong. */
  const readChoice = (): CrawlChoice => ({
    maxPages: Number(el.pages.value),
    maxDepth: Number(el.depth.value),
    scope: el.scope.value as CrawlScope,
  });

  function render(view: CrawlView): void {
    const { info, dashboardUrl } = view;
    const ended = endedText(t, view);
    el.ended.hidden = ended === null;
    el.ended.textContent = ended ?? '';
    el.crawl.hidden = false;
    el.crawl.dataset['crawlId'] = info.id;
    el.crawl.dataset['state'] = info.state;
    const state = t(STATE_KEYS[info.state]);
    el.state.textContent = info.state === 'failed' && info.error ? `${state}: ${info.error}` : state;
    const p = info.progress;
    const rows: [string, string, string][] = [
      ['fetched', t('popupCrawlPages'), t('popupCrawlPagesOf', p.fetched, p.maxPages)],
      ['harvest', t('popupCrawlHarvest'), p.harvest === null ? '—' : percent(p.harvest, locale)],
      ['speed', t('popupCrawlSpeed'), oneDecimal.format(p.pagesPerSecond)],
      ['queued', t('popupCrawlQueued'), String(p.queued)],
      ['errors', t('popupCrawlErrors'), String(p.errors)],
    ];
    el.progress.replaceChildren(
      ...rows.flatMap(([field, label, value]) => [h(doc, 'dt', {}, label), h(doc, 'dd', { 'data-field': field }, value)]),
    );
    // An attribute value, never markup; the URL's origin is the service's (client.ts checks it).
    el.dashboard.setAttribute('href', dashboardUrl);
    el.pull.disabled = false;
  }

  function schedule(view: CrawlView | null): void {
    clearTimeout(timer);
    if (stopped || view === null || FINAL_STATES.has(view.info.state)) return;
    timer = setTimeout(() => void poll(), pollMs);
  }

  async function poll(): Promise<void> {
    let reply: UiToBackgroundReplies['crawl/get'];
    try {
      reply = await send({ type: 'crawl/get' });
    } catch (error) {
      setStatus(errorText(error), 'error');
      return;
    }
    if (!reply.ok) {
      // The companion may come back (it resumes its running crawls): keep asking, say why it is quiet.
      setStatus(failureText(t, reply), 'error');
      clearTimeout(timer);
      if (!stopped) timer = setTimeout(() => void poll(), pollMs * 2);
      return;
    }
    el.hint.hidden = reply.paired;
    if (!reply.paired) el.hint.textContent = t('companionNotPaired');
    if (reply.crawl === null) {
      el.crawl.hidden = true;
      return;
    }
    if (el.status.classList.contains('error')) setStatus('', 'ok');
    render(reply.crawl);
    schedule(reply.crawl);
  }

  el.start.addEventListener('click', () => {
    const pageUrl = options.pageUrl();
    if (pageUrl === undefined || busy) return;
    busy = true;
    el.start.disabled = true;
    setStatus(t('popupCrawlStarting'), 'ok');
    void (async () => {
      try {
        const reply = await send({ type: 'crawl/start', pageUrl, choice: readChoice() });
        if (!reply.ok) return setStatus(failureText(t, reply), 'error');
        setStatus(t('popupCrawlStarted'), 'ok');
        render(reply.crawl);
        schedule(reply.crawl);
      } catch (error) {
        setStatus(errorText(error), 'error');
      } finally {
        busy = false;
        el.start.disabled = !canStart;
      }
    })();
  });

  el.pull.addEventListener('click', () => {
    el.pull.disabled = true;
    setStatus(t('popupCrawlPulling'), 'ok');
    void (async () => {
      try {
        const reply = await send({ type: 'crawl/pull-labels' });
        if (!reply.ok) return setStatus(failureText(t, reply), 'error');
        setStatus(t('popupCrawlPulled', reply.added, reply.duplicates), 'ok');
        await options.onLearned();
      } catch (error) {
        setStatus(errorText(error), 'error');
      } finally {
        el.pull.disabled = false;
      }
    })();
  });

  /** The last choice, then the last crawl. */
  async function load(): Promise<void> {
    showChoice(CRAWL_CHOICE_DEFAULTS);
    try {
      const reply = await send({ type: 'companion/get' });
      if (reply?.crawlChoice) showChoice(reply.crawlChoice);
    } catch (error) {
      setStatus(errorText(error), 'error');
    }
    await poll();
  }

  return {
    load,
    setCanStart(value) {
      canStart = value;
      el.start.disabled = !value || busy;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
