/**
 * What the crawl does to a fetched page before it scores the links (pipeline stages 1–2): the
 * page's segments, and its link contexts at the window the strategy scores. One function, run by
 * the parse threads (`parse-thread.ts`) and, with none, on the event loop, so a page gives the
 * same segments and contexts wherever it was parsed.
 */
import { extractContexts } from '../../shared/contexts/extract-contexts.ts';
import type { LinkContext } from '../../shared/contexts/types.ts';
import { segmentsFromHtml } from '../../shared/segments/from-html.ts';
import type { PageSegments } from '../../shared/segments/types.ts';

export interface ParsedPage {
  page: PageSegments;
  /** The page's link contexts, in page order, extracted with the asked window. */
  contexts: LinkContext[];
}

/** Segments and link contexts of an HTML document fetched from `pageUrl`. */
export function parsePage(html: string, pageUrl: string, window: number): ParsedPage {
  const page = segmentsFromHtml(html, pageUrl);
  return { page, contexts: extractContexts(page, { window }) };
}
