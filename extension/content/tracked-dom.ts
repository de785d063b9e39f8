/**
 * A view of the live DOM for the shared walker that remembers which link elements it read.
 *
 * The shared producer (`domWalkSteps` → `SegmentBuilder`) turns a tree into segments but, being
 * platform-neutral, does not say which element became which link segment; the content script
 * needs exactly that to paint a verdict. Rather than repeat any segment rule here, we hand the
 * walker this look-alike of each node (it is typed against the structural `DomNodeLike`): every
 * element forwards to the real one, and an `a` / `area` records itself when the builder reads
 * its `href`. The builder reads `href` only for a link candidate it has not dropped (hidden,
 * in `<head>`, inside a dropped subtree), in document order, so the recorded elements are the
 * link segments' elements plus those whose href turned out not to be followable; `matchLinks`
 * in extract-links.ts pairs them with the segments by URL.
 */
import type { DomNodeLike } from '../../shared/segments/from-dom.ts';

export type LinkElement = HTMLAnchorElement | HTMLAreaElement;

const ELEMENT_NODE = 1;
const DOCUMENT_NODE = 9;
const DOCUMENT_FRAGMENT_NODE = 11;

/** An element as the walker sees it; `getAttribute('href')` on a link records the element. */
class TrackedElement implements DomNodeLike {
  readonly nodeType = ELEMENT_NODE;
  readonly #element: Element;
  readonly #seen: LinkElement[];

  constructor(element: Element, seen: LinkElement[]) {
    this.#element = element;
    this.#seen = seen;
  }

  get nodeName(): string {
    return this.#element.nodeName;
  }

  get localName(): string {
    return this.#element.localName;
  }

  get nodeValue(): null {
    return null;
  }

  get childNodes(): DomNodeLike[] {
    return trackChildren(this.#element, this.#seen);
  }

  getAttribute(name: string): string | null {
    const value = this.#element.getAttribute(name);
    if (name === 'href' && value !== null && isLinkElement(this.#element)) this.#seen.push(this.#element);
    return value;
  }
}

/** A document or fragment: only its children are wrapped. */
class TrackedContainer implements DomNodeLike {
  readonly nodeValue = null;
  readonly #node: Node;
  readonly #seen: LinkElement[];

  constructor(node: Node, seen: LinkElement[]) {
    this.#node = node;
    this.#seen = seen;
  }

  get nodeType(): number {
    return this.#node.nodeType;
  }

  get nodeName(): string {
    return this.#node.nodeName;
  }

  get childNodes(): DomNodeLike[] {
    return trackChildren(this.#node, this.#seen);
  }
}

function trackChildren(node: Node, seen: LinkElement[]): DomNodeLike[] {
  const children: DomNodeLike[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) children.push(track(child, seen));
  return children;
}

/** True for an `<a>` or `<area>` element (HTML namespace or not: the walker goes by local name). */
export function isLinkElement(node: Element): node is LinkElement {
  const name = node.localName;
  return name === 'a' || name === 'area';
}

/** Wraps `node` for the walker; text and other leaf nodes go as they are. */
export function track(node: Node, seen: LinkElement[]): DomNodeLike {
  switch (node.nodeType) {
    case ELEMENT_NODE:
      return new TrackedElement(node as Element, seen);
    case DOCUMENT_NODE:
    case DOCUMENT_FRAGMENT_NODE:
      return new TrackedContainer(node, seen);
    default:
      return node as unknown as DomNodeLike;
  }
}
