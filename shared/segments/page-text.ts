/**
 * A page's words, read off its segments: what seed 004's best-first value compares with the
 * topic (the parent page's similarity), and anything else that wants "the text of the page".
 */
import { joinRuns, pageBlocks, type PageBlock } from '../blocks/page-blocks.ts';
import type { PageSegments } from './types.ts';

/** A page's visible words: title, meta description and keywords, text runs and anchors, in order. */
export function pageText(page: PageSegments): string[] {
  const texts = [page.title, page.description, page.keywords];
  for (const segment of page.segments) {
    if (segment.kind === 'text') texts.push(segment.text);
    else if (segment.kind === 'link') texts.push(segment.anchor);
  }
  return texts;
}

/** Least share of a block's characters that must be outside links for the block to be main text. */
const MAIN_TEXT_SHARE = 0.5;

/**
 * A page's main text, one line per block in page order (the crawl store's text, `--store-text`):
 * a block whose link text is more than half its characters is navigation, a footer or a link
 * list, and is left out. A page with no block left (a directory of links) gives every block, so
 * a page with words never gives none. (Seed 004's stricter extraction, for judging a page
 * against a topic, is `shared/blocks/main-content.ts`; both read the blocks of `pageBlocks`.)
 */
export function mainText(page: PageSegments): string {
  const blocks = pageBlocks(page).filter((block) => block.chars > 0);
  const lines = (keep: (block: PageBlock) => boolean) => blocks.filter(keep).map((block) => joinRuns(block.runs));
  const main = lines((block) => block.chars - block.linkChars >= MAIN_TEXT_SHARE * block.chars);
  return (main.length > 0 ? main : lines(() => true)).join('\n');
}
