/**
 * What a page sends and gets back: its links as link contexts with a ref, and each link's
 * verdict. The content script, the background and the worker all speak these.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { Label, Score } from '../../shared/model/types.ts';

/** A link context as the content script found it, with its index on the page for painting. */
export interface PageLink extends LinkContext {
  /** Index of the link element in the content script's own registry for this page. */
  ref: number;
}

/**
 * A `PageLink` as a page sends it: without `pageUrl`, which the background takes from the
 * message's sender (never from the page's word) and adds back. Repeated in every link, it was
 * the same URL serialised thousands of times per page (issue 14).
 */
export type SentLink = Omit<PageLink, 'pageUrl'>;

/** Highlight strength: 0 = below threshold; 1..3 = on topic, weak to strong. */
export type Level = 0 | 1 | 2 | 3;

/** A link's verdict: what a page needs to paint it, and the features behind it. */
export interface LinkVerdict {
  ref: number;
  /** P(+ | link), in [0, 1]. */
  p: number;
  level: Level;
  /** Top features, for the hover explanation (largest |weight| first); empty when level is 0. */
  top: Score['top'];
  /** The user marked this link (or its target page) on (1) or off (0) topic: the mark wins. */
  mark?: Label;
  /** A link the site repeats on many pages (navigation, footer): lit only on strong evidence. */
  template?: boolean;
  /** A link to the page itself or to a fragment of it: never lit. */
  self?: boolean;
}

/**
 * A verdict as a page gets it: without `top`, which the page asks for when the user hovers the
 * link ('link/explain'), and keeps once it has it. Why: a page's replies carried about 91 KB of
 * explanations per 500 links, which the page parses on its main thread, busy with its own load,
 * while the explanations of a handful of links are ever read (issue 14).
 */
export type PageVerdict = Omit<LinkVerdict, 'top'> & { top?: LinkVerdict['top'] };
