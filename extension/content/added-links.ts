/**
 * Links added after load (infinite scroll, single-page apps): a MutationObserver collects the
 * added subtrees, and after a quiet moment (debounced) hands over only the new subtrees that
 * hold links the registry does not know yet.
 *
 * A subtree walked on its own is seen without its ancestors, so one inside a dropped, hidden or
 * `<head>` element, or inside a link, is skipped here with the shared segment rules (the shared
 * walker's documented contract for added nodes): the same element would give no segment in a
 * whole-page walk either.
 */
import { DROPPED_ELEMENTS, isHiddenByAttributes } from '../../shared/segments/segment-rules.ts';
import { isLinkElement } from './extract-links.ts';

/** Default quiet time before added subtrees are extracted, in milliseconds. */
export const DEFAULT_DEBOUNCE_MS = 400;

/** True when an ancestor of `node` (not `node` itself) means its subtree yields no segment. */
export function insideSkippedAncestor(node: Node): boolean {
  for (let element = node.parentElement; element !== null; element = element.parentElement) {
    const name = element.localName;
    if (name === 'head' || DROPPED_ELEMENTS.has(name)) return true;
    if (isLinkElement(element) && element.hasAttribute('href')) return true;
    if (isHiddenByAttributes((attribute) => element.getAttribute(attribute))) return true;
  }
  return false;
}

const LINK_SELECTOR = 'a[href], area[href]';

/**
 * The roots worth extracting among `added`: connected elements, not inside another of them,
 * not inside a skipped ancestor, holding at least one link `isKnown` does not know. (Our own
 * tooltip host holds no link in its light DOM, so it never qualifies.)
 */
export function newLinkRoots(added: Iterable<Node>, isKnown: (element: Element) => boolean): Element[] {
  const candidates = new Set<Element>();
  for (const node of added) {
    if (node.nodeType !== 1 || !node.isConnected) continue;
    candidates.add(node as Element);
  }
  const roots: Element[] = [];
  for (const element of candidates) {
    let nested = false;
    for (let parent = element.parentElement; parent !== null && !nested; parent = parent.parentElement) {
      nested = candidates.has(parent);
    }
    if (nested || insideSkippedAncestor(element)) continue;
    const links = element.matches(LINK_SELECTOR) ? [element] : [...element.querySelectorAll(LINK_SELECTOR)];
    if (links.some((link) => !isKnown(link))) roots.push(element);
  }
  return roots;
}

export interface WatchOptions {
  /** Quiet time before a flush. Default `DEFAULT_DEBOUNCE_MS`. */
  debounceMs?: number;
  /** Longest wait after the first unflushed mutation, so a page that never stops mutating (a
   * ticker, a clock) still gets its new links. Default 4 × `debounceMs`. */
  maxWaitMs?: number;
  now?: () => number;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/**
 * Calls `onRoots` with new link subtrees, once per quiet period (trailing debounce with a
 * maximum wait). Returns `stop`.
 * Only `childList` mutations are observed: attribute and text changes never add a link element.
 */
export function watchAddedLinks(
  target: Node,
  isKnown: (element: Element) => boolean,
  onRoots: (roots: Element[]) => void,
  options: WatchOptions = {},
): () => void {
  const { debounceMs = DEFAULT_DEBOUNCE_MS } = options;
  const maxWaitMs = options.maxWaitMs ?? 4 * debounceMs;
  const now = options.now ?? (() => Date.now());
  let firstPendingAt = 0;
  const later = options.setTimeout ?? ((callback, ms) => globalThis.setTimeout(callback, ms));
  const cancel = options.clearTimeout ?? ((handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>));
  let pending: Node[] = [];
  let timer: unknown;

  const flush = (): void => {
    timer = undefined;
    const added = pending;
    pending = [];
    const roots = newLinkRoots(added, isKnown);
    if (roots.length > 0) onRoots(roots);
  };

  const observer = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node.nodeType === 1) pending.push(node);
    if (pending.length === 0) return;
    if (timer === undefined) firstPendingAt = now();
    else if (now() - firstPendingAt < maxWaitMs) cancel(timer);
    else return; // waited long enough: let the running timer fire
    timer = later(flush, debounceMs);
  });
  observer.observe(target, { childList: true, subtree: true });

  return () => {
    observer.disconnect();
    if (timer !== undefined) cancel(timer);
    timer = undefined;
    pending = [];
  };
}
