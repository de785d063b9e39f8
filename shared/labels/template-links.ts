/**
 * Template links: the links a site repeats on every page (navigation trees, sidebars, footers),
 * recognised as the same target under the same anchor on several distinct pages of one host.
 *
 * Why they are treated apart (issue 12): a help site's navigation tree puts the same few hundred
 * links on every page, so learning every sighting as a new example floods the model with one
 * context per page per link, and their contexts are each other's anchors, which say nothing
 * about where the link leads. So, once a link is known as a template link, a page's sighting of
 * it is not learned again, and it is highlighted only on strong evidence of its own.
 *
 * The rule: `(host of the page, target URL, anchor)` seen on at least `minPages` distinct pages
 * of that host. The anchor is compared after trimming, collapsing white space and lower-casing,
 * so `Home` and ` home ` are one anchor. Memory is bounded: at most `maxEntries` links are kept,
 * the least recently seen dropped first (the tokenizer's `LruCache`), and each keeps at most
 * `minPages` page URLs, which is all the rule needs.
 *
 * Its cost is paid for every link of every page the worker scores (issue 14). Kept as a Map put
 * in order by deleting and re-inserting each sighting's key, with the page's URL parsed for every
 * link, a sighting took 8.2 µs once the memory was full (200 pages of 1,000 links, 300 of them
 * shared; Node 20); with the LRU and the page's host parsed once per page, 1.4–1.6 µs.
 *
 * Pure and platform-free: the extension's worker keeps one for every topic (a site's template is
 * the site's, not a topic's); tests drive it with hand-made links.
 */
import { LruCache } from '../tokens/lru-cache.ts';
import { urlHost } from '../urls/normalize-url.ts';

export interface TemplateLinkOptions {
  /** Distinct pages of one host a link must be seen on to be a template link. Default 3. */
  minPages?: number;
  /** Links remembered at most (least recently seen dropped first). Default 50,000. */
  maxEntries?: number;
}

/** What identifies a sighting: where the link points, what it says, and the page it is on. */
export interface Sighting {
  url: string;
  pageUrl: string;
  anchor: string;
}

export const DEFAULT_TEMPLATE_MIN_PAGES = 3;
export const DEFAULT_TEMPLATE_MAX_ENTRIES = 50_000;

/** The last page URL whose host was asked, and that host: a page's links come together. */
let lastPage = { url: '', host: '' };

function pageHost(pageUrl: string): string {
  if (pageUrl !== lastPage.url) lastPage = { url: pageUrl, host: urlHost(pageUrl) ?? '' };
  return lastPage.host;
}

/**
 * `pageUrl` as the one string kept for the page whose host was last asked (`pageHost`): every
 * link of a page the worker is handed carries its own copy of the page's URL (a structured
 * clone makes one per link), and a memory of 50,000 links kept one each (issue 14's worker
 * profile: what a page's sightings leave in the heap is what its young-generation GCs copy).
 */
function pageUrlKept(pageUrl: string): string {
  return pageUrl === lastPage.url ? lastPage.url : pageUrl;
}

/** White space that collapsing changes: a run of two or more, or one that is not a plain space. */
const UNCOLLAPSED_SPACE = /\s\s|[^\S ]/u;

/** The key a template link is remembered by: page host, target, normalised anchor. */
export function templateKey(link: Sighting): string {
  const host = pageHost(link.pageUrl);
  let anchor = link.anchor.trim();
  // Most anchors have no white space to collapse, and `replace` built a new string for every
  // anchor with a space in it (issue 14's worker profile): it runs only where it changes something.
  if (UNCOLLAPSED_SPACE.test(anchor)) anchor = anchor.replace(/\s+/gu, ' ');
  anchor = anchor.toLowerCase();
  return `${host}\u0000${link.url}\u0000${anchor}`;
}

export class TemplateLinks {
  readonly minPages: number;
  readonly maxEntries: number;
  /**
   * key → the distinct page URLs it was seen on (at most `minPages`), in the order seen. An array,
   * not a `Set`: it holds two or three URLs, and nearly every link of a page the worker scores is
   * new to the memory, so a `Set` was made per link (issue 14's worker profile).
   */
  readonly #pages: LruCache<string, string[]>;

  constructor({ minPages = DEFAULT_TEMPLATE_MIN_PAGES, maxEntries = DEFAULT_TEMPLATE_MAX_ENTRIES }: TemplateLinkOptions = {}) {
    if (!(Number.isInteger(minPages) && minPages >= 2)) throw new RangeError(`minPages must be a whole number ≥ 2, got ${minPages}`);
    if (!(Number.isInteger(maxEntries) && maxEntries >= 1)) throw new RangeError(`maxEntries must be a whole number ≥ 1, got ${maxEntries}`);
    this.minPages = minPages;
    this.maxEntries = maxEntries;
    this.#pages = new LruCache(maxEntries);
  }

  /** How many links are remembered. */
  get size(): number {
    return this.#pages.size;
  }

  /**
   * Records that `link` is on its page (seeing it again on the same page changes nothing) and
   * returns whether it is a template link now, this sighting included.
   */
  see(link: Sighting): boolean {
    const key = templateKey(link);
    const pages = this.#pages.get(key); // most recently seen now
    if (pages === undefined) {
      this.#pages.set(key, [pageUrlKept(link.pageUrl)]); // the least recently seen goes when full
      return false; // one page, and `minPages` is at least 2
    }
    if (pages.length < this.minPages && !pages.includes(link.pageUrl)) pages.push(pageUrlKept(link.pageUrl));
    return pages.length >= this.minPages;
  }

  /** Whether `link` was seen on `minPages` distinct pages of its host (records nothing). */
  isTemplate(link: Sighting): boolean {
    return (this.#pages.peek(templateKey(link))?.length ?? 0) >= this.minPages;
  }

  /**
   * Whether this sighting of `link` would be a page seen after the link became a template link:
   * its page is not among the first `minPages` it was seen on. Those first sightings are the
   * ones learned; every later page's is the same link again.
   */
  isRepeat(link: Sighting): boolean {
    const pages = this.#pages.peek(templateKey(link));
    return pages !== undefined && pages.length >= this.minPages && !pages.includes(link.pageUrl);
  }

  clear(): void {
    this.#pages.clear();
  }
}
