/**
 * Painting verdicts: one attribute and one class per link, styled by `highlight.css` (the
 * manifest's content stylesheet), so no inline style and nothing a page's CSP could block.
 *
 *   data-linkscent-level="1" | "2" | "3"   on-topic strength, weak to strong
 *   class="linkscent-link"                  present on every marked link
 *
 * Level 0 removes both, so a refresh can lower a link back to unmarked. The writes happen
 * inside animation frames, a bounded number per frame (`paint-queue.ts`), after every read, so
 * painting never forces a layout in the middle of the page's own work; only the page's first
 * verdicts while it is still being parsed are written at once (`PaintQueue.paintNow`).
 */
import type { PageVerdict } from '../messages/page-links.ts';
import type { LinkRegistry } from './link-registry.ts';

export const LEVEL_ATTRIBUTE = 'data-linkscent-level';
export const MARK_CLASS = 'linkscent-link';
/**
 * The User Timing mark (`performance.mark`) index.ts leaves each time every link a run sent has
 * its verdict painted, on topic or not; `detail` is `{ onTopic, total }`. Only the latest is
 * kept, so the page's timeline does not grow with it, and it writes nothing to the DOM, so the
 * page's styles and observers see nothing. bench/extension-bench.ts waits for it.
 */
export const SETTLED_MARK = 'linkscent:settled';

/** Applies verdicts to their elements now; returns how many elements were marked. */
export function paintVerdicts(registry: LinkRegistry, verdicts: readonly PageVerdict[]): number {
  let marked = 0;
  for (const verdict of verdicts) {
    const element = registry.setVerdict(verdict);
    if (element === undefined) continue;
    if (verdict.level > 0) {
      element.setAttribute(LEVEL_ATTRIBUTE, String(verdict.level));
      element.classList.add(MARK_CLASS);
      marked += 1;
    } else if (element.hasAttribute(LEVEL_ATTRIBUTE)) {
      // Only a link we marked is unmarked: `classList.remove` rewrites a page's own class
      // attribute even when our class is not in it, which restyles the link and shows up in
      // the page's MutationObservers, for about half of every page's links.
      unmark(element);
    }
  }
  return marked;
}

function unmark(element: Element): void {
  element.removeAttribute(LEVEL_ATTRIBUTE);
  element.classList.remove(MARK_CLASS);
}

export type RequestFrame = (callback: () => void) => unknown;

/** Removes every highlight under `root` and forgets the verdicts. */
export function clearHighlights(root: ParentNode, registry: LinkRegistry): void {
  for (const element of root.querySelectorAll(`[${LEVEL_ATTRIBUTE}], .${MARK_CLASS}`)) unmark(element);
  registry.clearVerdicts();
}
