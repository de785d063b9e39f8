/**
 * Extraction: a page (or a subtree added later) → its link contexts, each with its element.
 *
 * This is the shared pipeline's stages 1 and 2 as the companion runs them (`SegmentBuilder`
 * fed by the shared DOM walker, then `extractContexts`), so the same HTML gives the same
 * contexts on both sides. The walker hands the builder each element as its ref, and the builder
 * keeps the ref of every link segment (`linkRefs`, one per context, in order), so each context's
 * element comes straight from the walk. It runs as a generator so the caller can spread it over
 * idle periods (see idle.ts).
 */
// Straight to the modules, not the folders' index files: `shared/segments/index.ts` also
// exports the companion's htmlparser2 producer, which has no place in a content script.
import { extractContexts, linkContextAt, MAX_LINKS_PER_PAGE } from '../../shared/contexts/extract-contexts.ts';
import type { LinkContext } from '../../shared/contexts/types.ts';
import { DEFAULT_DOM_BATCH, domWalkSteps, type DomNodeLike } from '../../shared/segments/from-dom.ts';
import { SegmentBuilder } from '../../shared/segments/segment-builder.ts';

/** The elements that become link segments. */
export type LinkElement = HTMLAnchorElement | HTMLAreaElement;

/** True for an `<a>` or `<area>` element (HTML namespace or not: the walker goes by local name). */
export function isLinkElement(node: Element): node is LinkElement {
  const name = node.localName;
  return name === 'a' || name === 'area';
}

export interface ExtractedLink {
  element: LinkElement;
  context: LinkContext;
}

export interface ExtractOptions {
  /** Context window W in characters (from 'page/settings'). */
  window: number;
  /** Fixed base URL, for a subtree walked without its document's `<base>` (`document.baseURI`). */
  baseUrl?: string;
  /** DOM nodes visited between two yields. Default the shared walker's (256). */
  domBatch?: number;
}

/** The extraction as resumable steps; the generator's return value is the page's links. */
export function* extractionSteps(
  root: Node,
  pageUrl: string,
  options: ExtractOptions,
): Generator<void, ExtractedLink[], void> {
  const builder = new SegmentBuilder<DomNodeLike>(pageUrl, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
  yield* domWalkSteps(root, builder, options.domBatch ?? DEFAULT_DOM_BATCH);
  const contexts = extractContexts(builder.finish(), { window: options.window });
  yield;
  // The walker passed the live nodes themselves, and only `a` / `area` elements open links.
  const elements = builder.linkRefs as readonly LinkElement[];
  return contexts.map((context, i) => ({ element: elements[i]!, context }));
}

/**
 * The same extraction, handing the links over as they become final: after each step of the
 * walk, `emit` gets the links whose contexts can no longer change, in page order, each exactly
 * the context `extractionSteps` gives it; the rest when the walk ends. So a page's links can go
 * to be scored while the walk is still going (page-session.ts). Returns the number of links.
 *
 * Why a link is final before the walk ends: as for `leadingLinks` below, a link's `before`
 * reads only segments before it and its `after` stops at the next link at the latest, and the
 * builder's segments never change once emitted (`SegmentBuilder.segmentsSoFar`). So every link
 * but the last one emitted so far is final. `emit` is not called with an empty list.
 */
export function* streamingExtractionSteps(
  root: Node,
  pageUrl: string,
  options: ExtractOptions,
  emit: (links: ExtractedLink[]) => void,
): Generator<void, number, void> {
  const { window } = options;
  if (!Number.isInteger(window) || window < 1) throw new RangeError(`context window must be a positive integer, got ${window}`);
  const builder = new SegmentBuilder<DomNodeLike>(pageUrl, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
  const segments = builder.segmentsSoFar;
  // The walker passed the live nodes themselves, and only `a` / `area` elements open links.
  const elements = builder.linkRefs as readonly LinkElement[];
  let scan = 0;
  let taken = 0;
  const take = (final: number): void => {
    const count = Math.min(final, MAX_LINKS_PER_PAGE);
    const links: ExtractedLink[] = [];
    while (taken < count && scan < segments.length) {
      const i = scan++;
      if (segments[i]!.kind !== 'link') continue;
      links.push({ element: elements[taken++]!, context: linkContextAt(segments, i, pageUrl, window) });
    }
    if (links.length > 0) emit(links);
  };
  const steps = domWalkSteps(root, builder, options.domBatch ?? DEFAULT_DOM_BATCH);
  while (!steps.next().done) {
    // The last link so far waits for the next one: its `after` may still grow.
    take(elements.length - 1);
    yield;
  }
  builder.finish(); // closes what is still open, which may end the last link
  take(elements.length);
  return taken;
}

/** DOM nodes the leading walk visits between two checks of its link count. */
const LEADING_STEP = 32;

/**
 * The page's first `count` links in page order, with exactly the contexts a whole-page
 * extraction gives them, from a walk that stops early: the links a page can send before its
 * first layout (index.ts runs at document_start, and the walk needs no layout).
 *
 * Why a prefix is exact: a link's `before` reads only segments before it, and its `after`
 * stops at the next link at the latest (shared/contexts/extract-contexts.ts). The builder
 * emits a link segment when the link ends, and every segment before that is final then. So
 * once `count + 1` links have ended, the first `count` see the same segments as in the whole
 * page; `finish()` only closes what is still open after them. A page with fewer links is
 * walked to its end, and then every link is exact.
 */
export function leadingLinks(root: Node, pageUrl: string, count: number, options: ExtractOptions): ExtractedLink[] {
  if (count < 1) return [];
  const builder = new SegmentBuilder<DomNodeLike>(pageUrl, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
  const steps = domWalkSteps(root, builder, LEADING_STEP);
  let ended = false;
  while (builder.linkRefs.length <= count) {
    if (steps.next().done) {
      ended = true;
      break;
    }
  }
  if (!ended) steps.return();
  const contexts = extractContexts(builder.finish(), { window: options.window, maxLinks: count });
  const elements = builder.linkRefs as readonly LinkElement[];
  return contexts.map((context, i) => ({ element: elements[i]!, context }));
}

/** `leadingLinksSoFar`'s answer when the page's first links are further in than it walks. */
export const TOO_FAR = Symbol('too far');

/** DOM nodes `leadingLinksSoFar` walks at most looking for the page's first links. */
export const LEADING_NODES_WHILE_PARSING = 4096;

/**
 * `leadingLinks` of a page still being parsed: the first links of what the parser has built so
 * far, up to `count`, those whose contexts can no longer change. A link's context is final once
 * the next link is complete (its `after` may read that link's text, see `leadingLinks`), and
 * the last link parsed may not be (the parser may still be inside it): so every link but the
 * last two parsed, or the first `count` once `count + 2` have been parsed. Null while fewer
 * than three links have been parsed (try again later, or, once the page is parsed, take
 * `leadingLinks`), and `TOO_FAR` when the first `maxNodes` nodes hold fewer (wait for the
 * parsed page rather than walk a longer prefix again at every check).
 *
 * Why they are the whole page's: the parser appends nodes in page order, so what it has built
 * so far is the start of the finished page. Not for markup the parser repairs behind itself (a
 * stray node in a table is moved before the table, a misnested `</b>` moves what it closes) or
 * a page script that rewrites what was parsed: page-session.ts compares these links with those
 * the whole page's walk gives later, and sends again any that changed.
 */
export function leadingLinksSoFar(
  root: Node,
  pageUrl: string,
  count: number,
  options: ExtractOptions,
  maxNodes = LEADING_NODES_WHILE_PARSING,
): ExtractedLink[] | null | typeof TOO_FAR {
  if (count < 1) return [];
  const builder = new SegmentBuilder<DomNodeLike>(pageUrl, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
  const steps = domWalkSteps(root, builder, LEADING_STEP);
  let parsedToEnd = false;
  let nodes = 0;
  while (builder.linkRefs.length < count + 2) {
    if (steps.next().done) {
      parsedToEnd = true;
      break;
    }
    nodes += LEADING_STEP;
    if (nodes >= maxNodes && builder.linkRefs.length < 3) {
      steps.return();
      return TOO_FAR;
    }
  }
  if (!parsedToEnd) steps.return();
  const final = Math.min(count, builder.linkRefs.length - 2);
  if (final < 1) return null;
  const contexts = extractContexts(builder.finish(), { window: options.window, maxLinks: final });
  const elements = builder.linkRefs as readonly LinkElement[];
  return contexts.map((context, i) => ({ element: elements[i]!, context }));
}

/** The whole extraction at once (small subtrees, tests). */
export function extractLinks(root: Node, pageUrl: string, options: ExtractOptions): ExtractedLink[] {
  const steps = extractionSteps(root, pageUrl, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
