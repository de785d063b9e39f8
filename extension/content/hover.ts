/**
 * Shows the tooltip for a marked link under the pointer or the keyboard focus.
 *
 * Four delegated listeners on the document (not one per link): cheap on a page with thousands
 * of links, and links added later need nothing extra. All passive; the tooltip waits a moment
 * before it opens, so sweeping the pointer across a menu does not flash it.
 */
import type { LinkRegistry } from './link-registry.ts';
import { LEVEL_ATTRIBUTE } from './paint.ts';
import type { Tooltip } from './tooltip.ts';

/** Milliseconds the pointer rests on a link before the explanation opens. */
export const HOVER_DELAY_MS = 250;

function markedLink(target: EventTarget | null): Element | null {
  return target instanceof Element ? target.closest(`[${LEVEL_ATTRIBUTE}]`) : null;
}

/** Wires hover and focus on `doc` to `tooltip`; returns `stop`. */
export function attachHover(doc: Document, registry: LinkRegistry, tooltip: Tooltip, delayMs = HOVER_DELAY_MS): () => void {
  let current: Element | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = (link: Element, delay: number): void => {
    if (link === current) return;
    current = link;
    clearTimeout(timer);
    const show = (): void => {
      const verdict = registry.verdictOf(link);
      if (verdict !== undefined && verdict.level > 0 && link.isConnected) tooltip.show(link, verdict);
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
