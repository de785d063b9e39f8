/**
 * Content script → background (`runtime.sendMessage` from a tab). The background answers only a
 * tab of this extension's content script.
 */
import type { LinkVerdict, PageVerdict, SentLink } from './page-links.ts';
import type { Unlisted } from './request-types.ts';

export type ContentToBackground =
  /** First message of a page: should it run, and with which window and cap? */
  | { type: 'page/settings'; pageUrl: string }
  /** One batch of a page's links (visible links first). `first` on the first batch of a page
   * load or of a refresh, the only one that carries the page's `title`; labeled examples are
   * taken from these contexts by URL pattern. */
  | { type: 'page/links'; pageUrl: string; title?: string; links: SentLink[]; first: boolean }
  /** The page's running totals after painting, for the toolbar badge. */
  | { type: 'page/count'; pageUrl: string; onTopic: number; total: number }
  /** The features behind a marked link's verdict, for its hover explanation: the link as the
   * page sent it in 'page/links', scored again (the same model gives the same features). */
  | { type: 'link/explain'; pageUrl: string; link: SentLink };

export interface ContentToBackgroundReplies {
  'page/settings': {
    enabled: boolean;
    /** Context window W in characters for `extractContexts`. */
    window: number;
    maxLinks: number;
  };
  'page/links': { verdicts: PageVerdict[] };
  'page/count': { ok: true };
  'link/explain': { top: LinkVerdict['top'] };
}

export const CONTENT_TYPES = ['page/settings', 'page/links', 'page/count', 'link/explain'] as const satisfies readonly ContentToBackground['type'][];

/** Compile-time check that the list names every request type (the router relies on it). */
const everyContentTypeListed: [Unlisted<ContentToBackground['type'], typeof CONTENT_TYPES>] extends [never] ? true : never = true;
void everyContentTypeListed;
