/**
 * Shows the tooltip for a marked link under the pointer or the keyboard focus.
 *
 * Four delegated listeners on the document (not one per link): cheap on a page with thousands
 * of links, and links added later need nothing extra. All passive; the tooltip waits a moment
 * before it opens, so sweeping the pointer across a menu does not flash it.
 */
import type { LinkVerdict } from '../messages/page-links.ts';
import type { LinkRegistry } from './link-registry.ts';
import { LEVEL_ATTRIBUTE } from './paint.ts';
import type { Tooltip } from './tooltip.ts';

/** Milliseconds the pointer rests on a link before the explanation opens. */
export const HOVER_DELAY_MS = 250;

function markedLink(target: EventTarget | null): Element | null {
  return target instanceof Element ? target.closest(`[${LEVEL_ATTRIBUTE}]`) : null;
}

/**
 * The features behind a marked link's verdict (the verdicts a page gets carry none, see
 * `PageVerdict`), or null when they cannot be had.
 */
export type Explain = (link: Element) => Promise<LinkVerdict['top'] | null>;

/**
 * Wires hover and focus on `doc` to `tooltip`; returns `stop`. A verdict without its features
 * gets them from `explain` first (kept with the verdict, so the next time shows at once), and
 * the tooltip opens when they come, if the link is still the one pointed at.
 */
export function attachHover(doc: Document, registry: LinkRegistry, tooltip: Tooltip, delayMs = HOVER_DELAY_MS, explain?: Explain): () => void {
  let current: Element | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = (link: Element, delay: number): void => {
    if (link === current) return;
    current = link;
    clearTimeout(timer);
    const show = (): void => {
      const verdict = registry.verdictOf(link);
      if (verdict === undefined || verdict.level === 0 || !link.isConnected) return;
      if (verdict.top !== undefined || explain === undefined) {
        tooltip.show(link, verdict);
        return;
      }
      explain(link).then(
        (top) => {
          if (top === null) return;
          verdict.top = top;
          if (current === link && registry.verdictOf(link) === verdict && link.isConnected) tooltip.show(link, verdict);
        },
        () => undefined, // no explanation (the extension was reloaded): no tooltip
      );
    };
    if (delay > 0) timer = setTimeout(show, delay);
    else show();
  };

  const close = (): void => {
    current = null;
    clearTimeout(timer);
    tooltip.hide();
  };

  const onOver = (event: Event): void => {
    const link = markedLink(event.target);
    if (link !== null) open(link, delayMs);
  };
  const onOut = (event: Event): void => {
    const related = (event as MouseEvent | FocusEvent).relatedTarget;
    if (current !== null && !(related instanceof Node && current.contains(related))) close();
  };
  const onFocus = (event: Event): void => {
    const link = markedLink(event.target);
    if (link !== null) open(link, 0);
  };

  const listeners: [string, (event: Event) => void][] = [
    ['mouseover', onOver],
    ['mouseout', onOut],
    ['focusin', onFocus],
    ['focusout', onOut],
    ['scroll', close],
  ];
  for (const [type, listener] of listeners) doc.addEventListener(type, listener, { capture: true, passive: true });
  return () => {
    for (const [type, listener] of listeners) doc.removeEventListener(type, listener, { capture: true });
    close();
  };
}
