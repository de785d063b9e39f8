/** Background → content script (`tabs.sendMessage`). The content script answers only its own extension. */

export type BackgroundToContent =
  /** The model, topic or settings changed: ask `page/settings` again, send links again. */
  | { type: 'verdicts/refresh' }
  /** Remove every highlight (site excluded, topic gone). */
  | { type: 'highlight/clear' }
  /** The page's current totals (for the popup). */
  | { type: 'page/summary' };

export interface BackgroundToContentReplies {
  'verdicts/refresh': { ok: true };
  'highlight/clear': { ok: true };
  'page/summary': { onTopic: number; total: number };
}
