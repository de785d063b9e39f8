/**
 * Link contexts: pipeline stage 2, Han et al. 2010 §3.3.
 *
 * Han et al. classify links, not pages, from each link's anchor and its context. Rather than
 * build a tag tree, they use a window heuristic: look W characters to each side of the link; if
 * another link lies in that window, the context on that side is that link's anchor (a link in a
 * navigation list is best described by its neighbours); otherwise it is the nearby text (a link
 * inside a paragraph is described by its sentence).
 *
 * Our window, per side: up to W characters of text (text segments' lengths; breaks count none),
 * crossing at most one block boundary. If a link lies in it (whatever text, such as a ` | `
 * separator, lies between), the side's context is the nearest such link's anchor. Otherwise it is
 * the window's text: the W characters nearest the link, the text on the two sides of a crossed
 * boundary joined by a space. So a link in `<li>` sees the anchors of its neighbours, and a link
 * at the start of a paragraph may take the end of the previous paragraph, but not the one before.
 */
import type { LinkSegment, PageSegments, Segment } from '../segments/types.ts';
import { firstCharacters, lastCharacters } from './clip-text.ts';
import type { LinkContext } from './types.ts';

/** Han et al. 2010 do not state W; 80 characters is about a sentence in Chinese, ~15 words in English. */
export const DEFAULT_CONTEXT_WINDOW = 80;

/**
 * The most links read from one page, on both sides: the extension's setting cannot go past it,
 * and the crawler takes no more. A 200,000-link page held the service for 6.5 s in contexts,
 * features and frontier inserts; real pages stay far below (a sitemap page of a large site has a
 * few thousand), so the first 20,000 in page order are the page.
 */
export const MAX_LINKS_PER_PAGE = 20_000;

export interface ContextOptions {
  /** Window W in characters on each side of a link, a positive integer. Default `DEFAULT_CONTEXT_WINDOW`. */
  window?: number;
  /** Links taken, the first in page order; at most (and by default) `MAX_LINKS_PER_PAGE`. */
  maxLinks?: number;
}

/**
 * Every link of the page (up to `maxLinks`), in page order, with its `before` and `after` context. A URL linked
 * twice gives two contexts; a `rel="nofollow"` link carries `nofollow: true`.
 *
 * Linear in the page: each side's scan stops at the first link, the second break or W
 * characters, and the builder never emits two adjacent text runs or breaks, so a scan visits at
 * most four segments and copies at most about W characters.
 *
 * @throws RangeError when `window` is not a positive integer.
 */
export function extractContexts(page: PageSegments, options: ContextOptions = {}): LinkContext[] {
  const window = options.window ?? DEFAULT_CONTEXT_WINDOW;
  if (!Number.isInteger(window) || window < 1) throw new RangeError(`context window must be a positive integer, got ${window}`);
  const maxLinks = Math.min(options.maxLinks ?? MAX_LINKS_PER_PAGE, MAX_LINKS_PER_PAGE);
  const { segments, pageUrl } = page;
  const contexts: LinkContext[] = [];
  for (let i = 0; i < segments.length && contexts.length < maxLinks; i++) {
    if (segments[i]!.kind === 'link') contexts.push(linkContextAt(segments, i, pageUrl, window));
  }
  return contexts;
}

/**
 * The context of the link segment at `index`, exactly as `extractContexts` gives it (which
 * calls this for every link). For a page read as it arrives (`SegmentBuilder.segmentsSoFar`):
 * a link's context reads no segment past the next link, so it is final once the next link is
 * there. `window` must be a positive integer (`extractContexts` checks it).
 */
export function linkContextAt(segments: readonly Segment[], index: number, pageUrl: string, window: number): LinkContext {
  const link = segments[index] as LinkSegment;
  const context: LinkContext = {
    url: link.url,
    pageUrl,
    anchor: link.anchor,
    before: sideContext(segments, index, -1, window),
    after: sideContext(segments, index, +1, window),
  };
  if (link.nofollow) context.nofollow = true;
  return context;
}

/** One side's context of the link at `index`: `step` -1 looks before it, +1 after it. */
function sideContext(segments: readonly Segment[], index: number, step: -1 | 1, window: number): string {
  const pieces: string[] = [];
  let characters = 0;
  let breaks = 0;
  for (let j = index + step; j >= 0 && j < segments.length; j += step) {
    const segment = segments[j]!;
    if (segment.kind === 'break') {
      if (++breaks > 1) break;
    } else if (segment.kind === 'link') {
      return (segment as LinkSegment).anchor; // a link within the window: its anchor, text between or not
    } else {
      pieces.push(segment.text);
      characters += segment.text.length;
      if (characters >= window) break;
    }
  }
  if (pieces.length === 0) return '';
  if (step < 0) pieces.reverse();
  const text = pieces.join(' ');
  return step < 0 ? lastCharacters(text, window) : firstCharacters(text, window);
}
