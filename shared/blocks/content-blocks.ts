/**
 * Content blocks: seed 002's content block partition (CBP, §4): the page cut into regions, each
 * judged against the topic on its own, so that an on-topic region of an off-topic page is not
 * lost in the page's average, and an off-topic region of an on-topic page does not ride on it.
 *
 * The paper partitions by the DOM's layout elements (after its refs. [3, 24, 25]); here a
 * content block is every block of one container element (a `div`, `ul`, `table`, `section`,
 * `nav`…, `segment-rules.ts`): a navigation list is one block, an article's paragraphs in their
 * `div` are one, a table is one. Blocks outside any container stand alone.
 */
import type { PageSegments } from '../segments/types.ts';
import { joinRuns, pageBlocks, type BlockLink } from './page-blocks.ts';

export interface ContentBlock {
  /** The container's number; blocks outside any container have none (undefined). */
  container?: number;
  /** The block's words, anchors included (a list of on-topic links is an on-topic block). */
  text: string;
  links: BlockLink[];
}

/** The page's content blocks, in the order of their first block. */
export function contentBlocks(page: PageSegments): ContentBlock[] {
  const out: ContentBlock[] = [];
  const byContainer = new Map<number, { block: ContentBlock; lines: string[] }>();
  const pending: { block: ContentBlock; lines: string[] }[] = [];
  for (const block of pageBlocks(page)) {
    const line = joinRuns(block.runs);
    let entry = block.container === 0 ? undefined : byContainer.get(block.container);
    if (entry === undefined) {
      entry = { block: { text: '', links: [] }, lines: [] };
      if (block.container !== 0) {
        entry.block.container = block.container;
        byContainer.set(block.container, entry);
      }
      pending.push(entry);
      out.push(entry.block);
    }
    if (line !== '') entry.lines.push(line);
    entry.block.links.push(...block.links);
  }
  for (const { block, lines } of pending) block.text = lines.join('\n');
  return out;
}
