/**
 * What the crawl does to a fetched page before it scores the links (pipeline stages 1–2): the
 * page's text from its bytes (`fetch/html-bytes.ts`), its segments, its link contexts at the
 * window the strategy scores, and which links the crawl's fixed rules let it follow
 * (`crawl/link-rules.ts`). One function, run by the parse threads (`parse-thread.ts`) and, with
 * none, on the event loop, so a page gives the same result wherever it was parsed.
 */
import { extractContexts } from '../../shared/contexts/extract-contexts.ts';
import type { LinkContext } from '../../shared/contexts/types.ts';
import { segmentsFromHtml } from '../../shared/segments/from-html.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import { followableHosts, type CompiledLinkRules } from '../crawl/link-rules.ts';
import { decodeBody } from '../fetch/html-bytes.ts';
import type { HtmlBytes } from '../fetch/types.ts';

export interface PageToParse {
  /** The page's text, or its body undecoded (decoded here). */
  html: string | HtmlBytes;
  /** The URL the page was fetched from, after redirects: links resolve against it. */
  pageUrl: string;
  /** The context window, in characters (`extractContexts`). */
  window: number;
  /** When given, which links the crawl's fixed rules let it follow (`ParsedPage.hosts`). */
  links?: {
    /** The URL the crawl asked for (before redirects): a link to it is the page itself. */
    askedUrl: string;
    rules: CompiledLinkRules;
  };
}

export interface ParsedPage {
  page: PageSegments;
  /** The page's link contexts, in page order, extracted with the asked window. */
  contexts: LinkContext[];
  /** With `links`: per context, its host when the fixed rules let it be followed, else null (`followableHosts`). */
  hosts?: (string | null)[];
}

/** Segments, link contexts and (with `links`) followable hosts of an HTML document. */
export function parsePage({ html, pageUrl, window, links }: PageToParse): ParsedPage {
  const page = segmentsFromHtml(typeof html === 'string' ? html : decodeBody(html).text, pageUrl);
  const contexts = extractContexts(page, { window });
  if (!links) return { page, contexts };
  return { page, contexts, hosts: followableHosts(links.askedUrl, pageUrl, page, contexts, links.rules) };
}
