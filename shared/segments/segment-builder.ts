/**
 * `SegmentBuilder`: the one implementation of the segment rules (pipeline stage 1).
 *
 * Producers only translate their source into three events, in document order:
 * `openElement(name, attr)`, `text(data)` and `closeElement(name)`, then call `finish()`.
 * `segmentsFromHtml` drives it from htmlparser2's events (companion), `segmentsFromDom` from a
 * DOM walk (extension). Because every rule lives here, the same document gives the same
 * `PageSegments` on both sides, and so the same link contexts (Han et al. 2010 §3.3) and scores.
 *
 * The rules, in short (details on each method):
 * - subtrees of `DROPPED_ELEMENTS` and of elements hidden by attribute are dropped;
 * - inside `<head>` only `title`, `base` and `meta` count; the first `<title>` is the title;
 * - `<meta name=description|keywords|robots>` fill those fields; robots accumulate;
 * - the first `<base href>` sets the base URL for the links after it;
 * - `<a href>` / `<area href>` with a followable URL become link segments; others are text;
 * - block boundaries become breaks, never two in a row, never first or last;
 * - white space is collapsed, adjacent text runs merged, empty text dropped;
 * - each block (the run between two breaks) is described in `blocks`: the innermost block
 *   element it sits in and the innermost container element (`shared/blocks/` reads them).
 *
 * Events must be balanced (every open has its close, void elements included); a close with no
 * matching open is ignored, and a close of an outer element implicitly closes the ones inside.
 * Names are lower-case HTML tag names; entities are already decoded.
 *
 * A producer may pass an opaque `ref` with each open element (the DOM producer passes the node,
 * the HTML producer nothing). The builder keeps the ref of each link segment's element in
 * `linkRefs`, beside the segments rather than in them: segments and link contexts stay plain,
 * comparable, serialisable data, and the extension's content script still knows which element to
 * paint for each context without matching URLs back to elements.
 */
import { parseUrl, urlResolver } from '../urls/normalize-url.ts';
import type { LinkSegment, MetaRobots, PageSegments, Segment, SegmentBlock } from './types.ts';
import {
  type AttributeReader,
  BLOCK_ELEMENTS,
  CONTAINER_ELEMENTS,
  DROPPED_ELEMENTS,
  collapseWhiteSpace,
  isHiddenByAttributes,
  parseRobotsContent,
  relHasNofollow,
} from './segment-rules.ts';

export type { AttributeReader } from './segment-rules.ts';

export interface SegmentBuilderOptions {
  /**
   * The base URL links resolve against, when the caller already knows it (the extension walking
   * a subtree added after load passes `document.baseURI`). When given, `<base>` elements met in
   * the events are ignored. Default: `pageUrl`, until a `<base href>` is met.
   */
  baseUrl?: string;
}

/** What an open element did, undone when it closes. */
const SKIP = 1;
const HEAD = 2;
const TITLE = 4;
const LINK = 8;
const BLOCK = 16;

interface Frame {
  name: string;
  effects: number;
  /** For LINK: which link this element opened (a nested anchor may have ended it already). */
  linkId: number;
}

interface OpenLink<Ref> {
  id: number;
  ref: Ref | undefined;
  url: string;
  nofollow: boolean;
  text: string[];
  imageAlts: string[];
  ariaLabel: string;
  title: string;
}

export class SegmentBuilder<Ref = unknown> {
  readonly #pageUrl: string;
  #baseUrl: string;
  /** `normalizeUrl(href, #baseUrl)`, made once per base (`urlResolver`). */
  #resolve: (href: string) => string | undefined;
  #baseFixed: boolean;
  #title: string | undefined;
  #titleText: string[] | undefined;
  #description: string | undefined;
  #keywords: string | undefined;
  readonly #robots: MetaRobots = { noindex: false, nofollow: false };
  readonly #segments: Segment[] = [];
  readonly #linkRefs: (Ref | undefined)[] = [];
  readonly #stack: Frame[] = [];
  /** The open block elements but html and body, innermost last; containers with their number. */
  readonly #blockStack: { name: string; id: number }[] = [];
  #nextContainerId = 1;
  readonly #blocks: SegmentBlock[] = [];
  #skipDepth = 0;
  #headDepth = 0;
  #bodySeen = false;
  #titleDepth = 0;
  #pendingText: string[] = [];
  #pendingBreak = false;
  #link: OpenLink<Ref> | undefined;
  #nextLinkId = 1;
  #finished = false;

  constructor(pageUrl: string, options: SegmentBuilderOptions = {}) {
    this.#pageUrl = pageUrl;
    this.#baseUrl = options.baseUrl ?? pageUrl;
    this.#resolve = urlResolver(this.#baseUrl);
    this.#baseFixed = options.baseUrl !== undefined;
  }

  /**
   * True while inside a dropped or hidden subtree: every event is ignored until it closes. A DOM
   * walker may use it to skip the children (and just send the close), which gives the same
   * result faster.
   */
  get skipping(): boolean {
    return this.#skipDepth > 0;
  }

  /** `ref`: what the producer knows this element by (the DOM node); see `linkRefs`. */
  openElement(name: string, attr: AttributeReader, ref?: Ref): void {
    this.#assertOpen();
    const frame: Frame = { name, effects: 0, linkId: 0 };
    this.#stack.push(frame);
    if (this.#skipDepth > 0) return;
    if (DROPPED_ELEMENTS.has(name) || isHiddenByAttributes(attr)) {
      frame.effects = SKIP;
      this.#skipDepth++;
      return;
    }
    switch (name) {
      case 'head':
        // HTML5 ignores a `<head>` start tag once the body has begun (concatenated templates
        // repeat it); honouring it would swallow the rest of the body's text.
        if (this.#bodySeen) return;
        frame.effects = HEAD;
        this.#headDepth++;
        return;
      case 'body':
        this.#bodySeen = true;
        break;
      case 'title':
        frame.effects = TITLE;
        if (this.#titleDepth++ === 0 && this.#title === undefined) this.#titleText = [];
        return;
      case 'base':
        this.#onBase(attr('href'));
        return;
      case 'meta':
        this.#onMeta(attr('name'), attr('content'));
        return;
    }
    if (this.#headDepth > 0 || this.#titleDepth > 0) return;
    if (name === 'a' || name === 'area') {
      this.#onLinkOpen(frame, name, attr, ref);
    } else if (name === 'img') {
      const alt = attr('alt');
      if (this.#link !== undefined && alt != null) this.#link.imageAlts.push(alt);
    }
    if (BLOCK_ELEMENTS.has(name)) {
      frame.effects |= BLOCK;
      // The boundary first: text still pending belongs to the block that was open before.
      this.#boundary();
      // html and body are left out: a DOM always has them, htmlparser2's events only when the
      // markup does, and the two producers must describe the same blocks.
      if (name !== 'html' && name !== 'body') {
        this.#blockStack.push({ name, id: CONTAINER_ELEMENTS.has(name) ? this.#nextContainerId++ : 0 });
      }
    }
  }

  /** Character data, entities decoded. Ignored in dropped subtrees and in `<head>`. */
  text(data: string): void {
    this.#assertOpen();
    if (this.#skipDepth > 0) return;
    if (this.#titleDepth > 0) {
      this.#titleText?.push(data);
    } else if (this.#headDepth > 0) {
      return;
    } else if (this.#link !== undefined) {
      this.#link.text.push(data);
    } else {
      this.#pendingText.push(data);
    }
  }

  closeElement(name: string): void {
    this.#assertOpen();
    let index = this.#stack.length - 1;
    while (index >= 0 && this.#stack[index]!.name !== name) index--;
    if (index < 0) return; // a stray end tag
    while (this.#stack.length > index) this.#onClose(this.#stack.pop()!);
  }

  /**
   * The `ref` of each link segment's element, in page order: `linkRefs[i]` belongs to the page's
   * i-th link segment, and so to the i-th link context `extractContexts` gives. Complete after
   * `finish()`; undefined entries where the producer passed no ref.
   */
  get linkRefs(): readonly (Ref | undefined)[] {
    return this.#linkRefs;
  }

  /**
   * The segments emitted so far, in order (live: later events append to it). An emitted segment
   * never changes, so a walk still under way (the extension's, which sends links as it passes
   * them) can read the contexts of the links before its last one: a link's `before` reads only segments before it,
   * and its `after` stops at the next link at the latest (shared/contexts/extract-contexts.ts).
   * After `finish()`, the page's `segments` are this same array.
   */
  get segmentsSoFar(): readonly Segment[] {
    return this.#segments;
  }

  /** Close what is still open and return the page. The builder cannot be used afterwards. */
  finish(): PageSegments {
    this.#assertOpen();
    while (this.#stack.length > 0) this.#onClose(this.#stack.pop()!);
    this.#endLink();
    this.#flushText();
    this.#finished = true;
    return {
      pageUrl: this.#pageUrl,
      baseUrl: this.#baseUrl,
      title: this.#title ?? '',
      description: this.#description ?? '',
      keywords: this.#keywords ?? '',
      robots: { ...this.#robots },
      segments: this.#segments,
      blocks: this.#blocks,
    };
  }

  #onClose(frame: Frame): void {
    const { effects } = frame;
    if (effects & SKIP) this.#skipDepth--;
    if (effects & HEAD) this.#headDepth--;
    if (effects & TITLE && --this.#titleDepth === 0 && this.#titleText !== undefined) {
      this.#title = collapseWhiteSpace(this.#titleText.join(''));
      this.#titleText = undefined;
    }
    if (effects & LINK && this.#link?.id === frame.linkId) this.#endLink();
    if (effects & BLOCK) {
      // The boundary before the pop: the block's last text is flushed while it is still open.
      this.#boundary();
      if (frame.name !== 'html' && frame.name !== 'body') this.#blockStack.pop();
    }
  }

  /** The first `<base href>` wins, as in browsers; one that does not parse leaves `pageUrl`. */
  #onBase(href: string | null | undefined): void {
    if (this.#baseFixed || href == null) return;
    this.#baseFixed = true;
    const resolved = parseUrl(href, this.#pageUrl);
    if (resolved === undefined) return;
    this.#baseUrl = resolved.href;
    this.#resolve = urlResolver(this.#baseUrl);
  }

  /** description / keywords: the first one given; robots: every one adds its restrictions. */
  #onMeta(name: string | null | undefined, content: string | null | undefined): void {
    if (name == null || content == null) return;
    switch (name.trim().toLowerCase()) {
      case 'description':
        this.#description ??= collapseWhiteSpace(content);
        return;
      case 'keywords':
        this.#keywords ??= collapseWhiteSpace(content);
        return;
      case 'robots': {
        const robots = parseRobotsContent(content);
        this.#robots.noindex ||= robots.noindex;
        this.#robots.nofollow ||= robots.nofollow;
        return;
      }
    }
  }

  /**
   * `<a>` ends any open link first: nested anchors are invalid, and both the HTML5 tree builder
   * and htmlparser2 close the outer one there. An `<area>` inside a link is ignored. Without a
   * followable URL the element is not a link and its text stays in the running text.
   */
  #onLinkOpen(frame: Frame, name: string, attr: AttributeReader, ref: Ref | undefined): void {
    if (name === 'a') this.#endLink();
    else if (this.#link !== undefined) return;
    const href = attr('href');
    if (href == null) return;
    const url = this.#resolve(href);
    if (url === undefined) return;
    this.#flushText();
    const alt = name === 'area' ? attr('alt') : null;
    this.#link = {
      id: this.#nextLinkId++,
      ref,
      url,
      nofollow: relHasNofollow(attr('rel')),
      text: [],
      imageAlts: alt != null ? [alt] : [],
      ariaLabel: attr('aria-label') ?? '',
      title: attr('title') ?? '',
    };
    frame.effects |= LINK;
    frame.linkId = this.#link.id;
  }

  /** Anchor: the link's text, else its images' alt text, else aria-label, else title. */
  #endLink(): void {
    const link = this.#link;
    if (link === undefined) return;
    this.#link = undefined;
    const anchor =
      collapseWhiteSpace(link.text.join('')) ||
      collapseWhiteSpace(link.imageAlts.join(' ')) ||
      collapseWhiteSpace(link.ariaLabel) ||
      collapseWhiteSpace(link.title);
    const segment: LinkSegment = { kind: 'link', url: link.url, anchor, nofollow: link.nofollow };
    this.#emit(segment);
    this.#linkRefs.push(link.ref);
  }

  /** A block edge: inside a link it only separates words; elsewhere it is a break. */
  #boundary(): void {
    if (this.#link !== undefined) {
      this.#link.text.push(' ');
      return;
    }
    this.#flushText();
    this.#pendingBreak = true;
  }

  #flushText(): void {
    if (this.#pendingText.length === 0) return;
    const text = collapseWhiteSpace(this.#pendingText.join(''));
    this.#pendingText = [];
    if (text !== '') this.#emit({ kind: 'text', text });
  }

  /**
   * Breaks are emitted lazily, before the next content: never first, last or doubled. The first
   * content of a block also records the block's shape.
   */
  #emit(segment: Segment): void {
    const startsBlock = this.#segments.length === 0 || this.#pendingBreak;
    if (this.#pendingBreak && this.#segments.length > 0) this.#segments.push({ kind: 'break' });
    this.#pendingBreak = false;
    if (startsBlock) this.#blocks.push(this.#blockShape());
    this.#segments.push(segment);
  }

  /** The innermost open block element's name ('' outside any) and container's number (0 outside any). */
  #blockShape(): SegmentBlock {
    const stack = this.#blockStack;
    let container = 0;
    for (let i = stack.length - 1; i >= 0 && container === 0; i--) container = stack[i]!.id;
    return { tag: stack.at(-1)?.name ?? '', container };
  }

  #assertOpen(): void {
    if (this.#finished) throw new Error('SegmentBuilder: finish() was already called; start a new builder');
  }
}
