/**
 * A page's blocks: the segment stream cut at its breaks, each block with its text, its links
 * and where it sits (`PageSegments.blocks`: innermost block element, container). The one block
 * split behind seed 002's content blocks (`content-blocks.ts`), seed 004's main-content
 * extraction (`main-content.ts`) and the crawl store's main text (`segments/page-text.ts`).
 */
import type { PageSegments } from '../segments/types.ts';

/** A link of a block: its place among the page's link segments, and what it says. */
export interface BlockLink {
  /** i for the page's i-th link segment: the i-th link context `extractContexts` gives. */
  ordinal: number;
  url: string;
  anchor: string;
}

/** The segments between two breaks. */
export interface PageBlock {
  /** Innermost block element around the block ('' when unknown or none). */
  tag: string;
  /** Container number (`SegmentBlock.container`); 0 when none. */
  container: number;
  /** Text runs and anchors in order, as they read. */
  runs: string[];
  /** Text runs outside links only. */
  ownRuns: string[];
  links: BlockLink[];
  /** Characters of all runs, and of the anchors among them. */
  chars: number;
  linkChars: number;
}

/**
 * Every block of the page that holds something, in page order. A page built by hand without
 * `blocks` gives each block tag '' and no container.
 */
export function pageBlocks(page: PageSegments): PageBlock[] {
  const blocks: PageBlock[] = [];
  let index = 0;
  let ordinal = 0;
  const start = (): PageBlock => {
    const shape = page.blocks?.[index];
    return { tag: shape?.tag ?? '', container: shape?.container ?? 0, runs: [], ownRuns: [], links: [], chars: 0, linkChars: 0 };
  };
  let block = start();
  for (const segment of page.segments) {
    if (segment.kind === 'break') {
      if (block.runs.length > 0 || block.links.length > 0) blocks.push(block);
      index++;
      block = start();
    } else if (segment.kind === 'text') {
      block.runs.push(segment.text);
      block.ownRuns.push(segment.text);
      block.chars += segment.text.length;
    } else {
      block.links.push({ ordinal: ordinal++, url: segment.url, anchor: segment.anchor });
      if (segment.anchor === '') continue;
      block.runs.push(segment.anchor);
      block.chars += segment.anchor.length;
      block.linkChars += segment.anchor.length;
    }
  }
  if (block.runs.length > 0 || block.links.length > 0) blocks.push(block);
  return blocks;
}

const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;

/** Runs joined by a space, except between two CJK characters (Han, CJK punctuation, full-width forms), which Chinese writes without one. */
export function joinRuns(parts: readonly string[]): string {
  let text = parts[0] ?? '';
  for (const part of parts.slice(1)) {
    const glue = CJK.test(text.at(-1) ?? '') && CJK.test(part[0] ?? '') ? '' : ' ';
    text += glue + part;
  }
  return text;
}
