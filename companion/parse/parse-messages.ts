/** The messages between the pool (`parse-pool.ts`) and a parse thread (`parse-thread.ts`). */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { LinkRules } from '../crawl/link-rules.ts';
import type { HtmlBytes } from '../fetch/types.ts';
import type { PackedPage } from './packed-page.ts';

export type ParseRequest =
  /** A crawl's fixed link rules, under a number its pages name: sent to a thread once, before its first such page. */
  | { rules: number; source: LinkRules }
  /** The crawl that used these rules has ended. */
  | { forget: number }
  | PageRequest;

export interface PageRequest {
  id: number;
  /** The page's text, or its bytes (their buffer transferred, not copied). */
  html: string | HtmlBytes;
  pageUrl: string;
  window: number;
  links?: { askedUrl: string; rules: number };
}

/** A parsed page (`ParsedPage`) with its segments packed (`packed-page.ts`). */
export interface PackedParsedPage {
  page: PackedPage;
  contexts: LinkContext[];
  hosts?: (string | null)[];
}

export type ParseReply =
  /** The thread has loaded its modules and takes pages. */
  | { ready: true }
  | { id: number; parsed: PackedParsedPage }
  | { id: number; error: { name: string; message: string } };
