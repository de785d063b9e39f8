/**
 * Content script entry (manifest content_scripts, document_start, http and https pages): it
 * reads its settings (published by the background, else asked for) while the page loads, and starts on the DOM once it is parsed
 * (dom-ready.ts says why not later).
 *
 * The only file here that touches the real `browser`: everything else takes its dependencies as
 * parameters so it runs under happy-dom in tests. This script only extracts and paints
 * (STYLE.md 6): no model, no lexicon, no WASM, no Worker.
 */
import browser, { type Runtime } from 'webextension-polyfill';
import type { BackgroundToContent } from '../messages/background-to-content.ts';
import { PAGE_SETTINGS_KEY, pageSettingsFrom } from '../messages/page-settings.ts';
import { createContentSender } from '../messages/send.ts';
import { createTranslate } from '../ui/i18n.ts';
import { idleRequester, promptRequester } from './idle.ts';
import { PageSession } from './page-session.ts';
import { SETTLED_MARK } from './paint.ts';

const BACKGROUND_TYPES: ReadonlySet<string> = new Set<BackgroundToContent['type']>([
  'verdicts/refresh',
  'highlight/clear',
  'page/summary',
]);

function isBackgroundMessage(message: unknown): message is BackgroundToContent {
  return typeof message === 'object' && message !== null && BACKGROUND_TYPES.has((message as { type?: unknown }).type as string);
}

// Asked for first thing: the settings the background published spare the page's first run a
// round trip to the background (messages/page-settings.ts).
const published = browser.storage.local.get(PAGE_SETTINGS_KEY).then(
  (items) => pageSettingsFrom(items[PAGE_SETTINGS_KEY], location.href),
  () => null,
);

const session = new PageSession({
  doc: document,
  send: createContentSender(browser.runtime),
  publishedSettings: () => published,
  t: createTranslate(browser.i18n),
  requestIdle: idleRequester(window),
  requestSoon: promptRequester(window),
  requestFrame: (callback) => window.requestAnimationFrame(callback),
  pageUrl: () => location.href,
  viewport: () => ({ width: window.innerWidth, height: window.innerHeight }),
  settled: (totals) => {
    performance.clearMarks(SETTLED_MARK);
    performance.mark(SETTLED_MARK, { detail: totals });
  },
});

browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
  // Only the extension's own background talks to the content script.
  if (sender.id !== browser.runtime.id || !isBackgroundMessage(message)) return undefined;
  return session.handle(message);
});

// A failure here (the extension was reloaded under the page, so its context is gone) leaves the
// page exactly as it was.
session.start().catch(() => session.destroy());
