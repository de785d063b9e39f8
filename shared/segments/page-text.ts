/**
 * A page's words, read off its segments: what seed 004's best-first value compares with the
 * topic (the parent page's similarity), and anything else that wants "the text of the page".
 */
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
