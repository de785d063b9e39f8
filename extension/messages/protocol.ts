/**
 * The extension's one message protocol, named by direction (STYLE.md 4), one module per part:
 *
 *   content → background   ContentToBackground   content-to-background.ts (runtime.sendMessage from a tab)
 *   ui → background        UiToBackground        ui-to-background.ts      (popup and options pages)
 *   background → content   BackgroundToContent   background-to-content.ts (tabs.sendMessage)
 *   background → worker    WorkerApi             worker-api.ts            (comlink; through the offscreen
 *                                                                          document in Chromium, directly in
 *                                                                          Firefox's event page)
 *
 * and what they carry: page-links.ts (a page's links and their verdicts), settings.ts (the user's
 * settings and topic input), views.ts (what the popup and options page show, failures);
 * i18n-keys.ts (the locale keys the manifest and background need); request-types.ts (the
 * type-level helpers); send.ts (the one typed sender). Modules import the part they need; this
 * file is the map, and re-exports every part.
 *
 * Every request type maps to its reply type in the `…Replies` interfaces, so a sender gets a
 * typed answer and a handler must return one. The background checks the sender before acting:
 * content messages only from a tab of this extension's content script, UI messages only from
 * this extension's own pages.
 *
 * Message names are stable: the content script, popup and options are written against them.
 *
 * Build contract (manifest.config.ts reads these paths, keep them in step):
 *   extension/content/index.ts        content script entry (document_start, http and https pages)
 *   extension/content/highlight.css   content stylesheet, injected by the manifest (CSP-safe)
 *   extension/popup/index.html        toolbar popup
 *   extension/options/index.html      options page (opened in a tab)
 *   public/_locales/{en,zh_CN}/messages.json   with at least the keys in `MESSAGE_KEYS` (i18n-keys.ts)
 */
export type * from './background-to-content.ts';
export * from './content-to-background.ts';
export * from './i18n-keys.ts';
export type * from './page-links.ts';
export type * from './request-types.ts';
export type * from './settings.ts';
export * from './ui-to-background.ts';
export type * from './views.ts';
