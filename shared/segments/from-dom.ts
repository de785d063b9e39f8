/**
 * Segments from a DOM tree: the extension's producer (pipeline stage 1).
 *
 * It walks the tree and sends the same open / text / close events htmlparser2 gives
 * `segmentsFromHtml`, into the same `SegmentBuilder`, so a page's segments do not depend on
 * which side extracted them. Attributes are read with `getAttribute` (the raw markup value,
 * never computed style or the resolved `a.href`), for the same reason.
 *
 * `shared/` has no DOM lib: the walker is typed against `DomNodeLike`, which a browser `Node`,
 * a happy-dom `Node` or any look-alike satisfies.
 *
 * Each element goes to the builder as its own `ref`, so `builder.linkRefs` names the element of
 * every link segment (the extension paints its verdict there).
 *
 * The walk is iterative (an explicit stack, no recursion), so a pathologically deep page cannot
 * overflow the call stack. It follows child nodes only: a `<template>`'s content and shadow
 * roots are not walked (htmlparser2 sees neither as page text either).
 */
import { SegmentBuilder, type SegmentBuilderOptions } from './segment-builder.ts';
import type { PageSegments } from './types.ts';

/** The part of a DOM `Node` the walker reads. */
export interface DomNodeLike {
  /** 1 element, 3 text, 4 CDATA, 9 document, 11 document fragment; others are skipped. */
  readonly nodeType: number;
  readonly nodeName: string;
  /** Elements' lower-case tag name (HTML elements); `nodeName` lower-cased is used when absent. */
  readonly localName?: string | null;
  /** Text nodes' data. */
  readonly nodeValue: string | null;
  readonly firstChild: DomNodeLike | null;
  readonly nextSibling: DomNodeLike | null;
  getAttribute?(name: string): string | null;
  /** Elements: false when the element has no attribute at all (then none is read). */
  hasAttributes?(): boolean;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;
const DOCUMENT_NODE = 9;
const DOCUMENT_FRAGMENT_NODE = 11;

/** Default number of nodes `domWalkSteps` visits between two yields. */
export const DEFAULT_DOM_BATCH = 256;

interface WalkFrame {
  /** The element to close once its children are done; `undefined` for a document / fragment. */
  name: string | undefined;
  children: readonly DomNodeLike[];
  next: number;
}

/**
 * Segment a document (or any subtree) in one go.
 *
 * @param root a `Document`, an element, or a fragment. For a whole page pass `document`, so
 *   `<head>` (title, meta, base) is seen.
 */
export function segmentsFromDom(root: DomNodeLike, pageUrl: string, options: SegmentBuilderOptions = {}): PageSegments {
  const builder = new SegmentBuilder<DomNodeLike>(pageUrl, options);
  walkDom(root, builder);
  return builder.finish();
}

/** Send `root` and its whole subtree to `builder`, synchronously. Call `builder.finish()` after. */
export function walkDom(root: DomNodeLike, builder: SegmentBuilder<DomNodeLike>): void {
  for (const _ of domWalkSteps(root, builder, Number.POSITIVE_INFINITY)) {
    // never reached: an infinite batch does not yield
  }
}

/**
 * The walk as a generator that yields after every `batch` nodes, for idle-time extraction:
 *
 * ```ts
 * const builder = new SegmentBuilder<DomNodeLike>(location.href);
 * const steps = domWalkSteps(document, builder);
 * requestIdleCallback(function work(deadline) {
 *   while (deadline.timeRemaining() > 1) {
 *     if (steps.next().done) return publish(builder.finish());
 *   }
 *   requestIdleCallback(work);
 * });
 * ```
 *
 * Each element's children are copied when it is entered, so a page that mutates between two
 * batches cannot derail the walk (a node removed meanwhile is still walked, once; one inserted
 * into an element already entered is not).
 *
 * For nodes added later (a MutationObserver's `addedNodes`), walk each added subtree with a
 * fresh builder whose base URL is the document's, and finish it on its own:
 * `segmentsFromDom(node, location.href, { baseUrl: document.baseURI })`. Such a subtree is seen
 * without its ancestors, so the caller skips nodes inside a hidden, dropped or link ancestor,
 * and its contexts do not reach into the page around it.
 */
export function* domWalkSteps(
  root: DomNodeLike,
  builder: SegmentBuilder<DomNodeLike>,
  batch = DEFAULT_DOM_BATCH,
): Generator<void, void, void> {
  const stack: WalkFrame[] = [{ name: undefined, children: [root], next: 0 }];
  let visited = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.children.length) {
      stack.pop();
      if (frame.name !== undefined) builder.closeElement(frame.name);
      continue;
    }
    const node = frame.children[frame.next++]!;
    switch (node.nodeType) {
      case ELEMENT_NODE: {
        const name = node.localName ?? node.nodeName.toLowerCase();
        // Most elements of a page carry no attribute, and the builder asks every element for
        // three (hidden, aria-hidden, style): one check spares those reads.
        builder.openElement(name, node.hasAttributes?.() === false ? NO_ATTRIBUTES : (attribute) => node.getAttribute?.(attribute), node);
        // Inside a dropped subtree every event would be ignored: skip straight to the close.
        const children = builder.skipping ? NO_CHILDREN : childrenOf(node);
        stack.push({ name, children, next: 0 });
        break;
      }
      case TEXT_NODE:
      case CDATA_SECTION_NODE:
        builder.text(node.nodeValue ?? '');
        break;
      case DOCUMENT_NODE:
      case DOCUMENT_FRAGMENT_NODE:
        stack.push({ name: undefined, children: childrenOf(node), next: 0 });
        break;
      default:
        break; // comments, doctype, processing instructions
    }
    if (++visited >= batch) {
      visited = 0;
      yield;
    }
  }
}

const NO_CHILDREN: readonly DomNodeLike[] = [];
const NO_ATTRIBUTES = (): null => null;

/**
 * `node`'s children as they are now, copied. Followed through `firstChild` / `nextSibling`
 * rather than `Array.from(node.childNodes)`: in Chromium, on a 5,000-link page (40,000 nodes),
 * copying every element's children took 5–8 ms this way against 24–35 ms through the NodeList's
 * iterator, which was the largest item in the content script's CPU profile (issue 14).
 */
function childrenOf(node: DomNodeLike): DomNodeLike[] {
  const children: DomNodeLike[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) children.push(child);
  return children;
}
