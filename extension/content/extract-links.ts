/**
 * Extraction: a page (or a subtree added later) → its link contexts, each with its element.
 *
 * This is the shared pipeline's stages 1 and 2 as the companion runs them (`SegmentBuilder`
 * fed by the shared DOM walker, then `extractContexts`), so the same HTML gives the same
 * contexts on both sides; the only thing added here is which element each context came from.
 * It runs as a generator so the caller can spread it over idle periods (see idle.ts).
 */
// Straight to the modules, not the folders' index files: `shared/segments/index.ts` also
// exports the companion's htmlparser2 producer, which has no place in a content script.
import { extractContexts } from '../../shared/contexts/extract-contexts.ts';
import type { LinkContext } from '../../shared/contexts/types.ts';
import { DEFAULT_DOM_BATCH, domWalkSteps } from '../../shared/segments/from-dom.ts';
import { SegmentBuilder } from '../../shared/segments/segment-builder.ts';
import { normalizeUrl } from '../../shared/urls/normalize-url.ts';
import { track, type LinkElement } from './tracked-dom.ts';

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
  /** Links paired with their element between two yields. Default 256. */
  matchBatch?: number;
}

/**
 * Pairs contexts (one per link segment, in page order) with the recorded link elements (a
 * superset, in the same order): the next element whose href resolves to the context's URL.
 * An href is resolved against the final base URL and, failing that, the page URL, since a link
 * before a late `<base>` resolved against the page.
 */
export function* matchLinks(
  contexts: readonly LinkContext[],
  candidates: readonly LinkElement[],
  baseUrl: string,
  batch = 256,
): Generator<void, ExtractedLink[], void> {
  const links: ExtractedLink[] = [];
  let next = 0;
  for (let i = 0; i < contexts.length; i++) {
    const context = contexts[i]!;
    while (next < candidates.length) {
      const element = candidates[next++]!;
      const href = element.getAttribute('href') ?? '';
      if (normalizeUrl(href, baseUrl) === context.url || normalizeUrl(href, context.pageUrl) === context.url) {
        links.push({ element, context });
        break;
      }
    }
    if ((i + 1) % batch === 0) yield;
  }
  return links;
}

/** The extraction as resumable steps; the generator's return value is the page's links. */
export function* extractionSteps(
  root: Node,
  pageUrl: string,
  options: ExtractOptions,
): Generator<void, ExtractedLink[], void> {
  const candidates: LinkElement[] = [];
  const builder = new SegmentBuilder(pageUrl, options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl });
  yield* domWalkSteps(track(root, candidates), builder, options.domBatch ?? DEFAULT_DOM_BATCH);
  const page = builder.finish();
  const contexts = extractContexts(page, { window: options.window });
  yield;
  return yield* matchLinks(contexts, candidates, page.baseUrl, options.matchBatch);
}

/** The whole extraction at once (small subtrees, tests). */
export function extractLinks(root: Node, pageUrl: string, options: ExtractOptions): ExtractedLink[] {
  const steps = extractionSteps(root, pageUrl, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
