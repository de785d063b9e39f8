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

/** Least share of a block's characters that must be outside links for the block to be main text. */
const MAIN_TEXT_SHARE = 0.5;

/**
 * A page's main text, one line per block in page order (seed 004's denoising in its plainest
 * form): a block (the runs between two block boundaries) whose link text is more than half its
 * characters is navigation, a footer or a link list, and is left out. A page with no block left
 * (a directory of links) gives every block, so a page with words never gives none. Within a
 * block, runs are joined by a space, except between two CJK characters (Han, CJK punctuation,
 * full-width forms), which Chinese writes without one.
 */
export function mainText(page: PageSegments): string {
  const blocks: { parts: string[]; linkChars: number; chars: number }[] = [{ parts: [], linkChars: 0, chars: 0 }];
  for (const segment of page.segments) {
    const block = blocks[blocks.length - 1]!;
    if (segment.kind === 'break') blocks.push({ parts: [], linkChars: 0, chars: 0 });
    else {
      const text = segment.kind === 'text' ? segment.text : segment.anchor;
      if (text === '') continue;
      block.parts.push(text);
      block.chars += text.length;
      if (segment.kind === 'link') block.linkChars += text.length;
    }
  }
  const lines = (keep: (block: (typeof blocks)[number]) => boolean) =>
    blocks.filter((block) => block.chars > 0 && keep(block)).map((block) => joinRuns(block.parts));
  const main = lines((block) => block.chars - block.linkChars >= MAIN_TEXT_SHARE * block.chars);
  return (main.length > 0 ? main : lines(() => true)).join('\n');
}

const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;

function joinRuns(parts: string[]): string {
  let text = parts[0] ?? '';
  for (const part of parts.slice(1)) {
    const glue = CJK.test(text.at(-1) ?? '') && CJK.test(part[0] ?? '') ? '' : ' ';
    text += glue + part;
  }
  return text;
}
