/**
 * The page's link registry: ref number ↔ link element (`<a>` or `<area>`), and each element's latest verdict.
 *
 * A `PageLink.ref` is the index here, so a verdict coming back from the background names the
 * element to paint without the page sending selectors or the background knowing the DOM.
 * Elements are held through `WeakRef` so a single-page app that throws away a list does not
 * keep its nodes alive through us; verdicts sit in a `WeakMap` keyed by the element.
 */
import type { Level, PageVerdict } from '../messages/page-links.ts';
import type { LinkElement } from './extract-links.ts';

export class LinkRegistry {
  readonly #elements: WeakRef<LinkElement>[] = [];
  readonly #refs = new WeakMap<Element, number>();
  readonly #verdicts = new WeakMap<Element, PageVerdict>();
  /** Levels by ref, for the page's running totals without touching the DOM. */
  readonly #levels = new Map<number, Level>();

  /** How many links were ever registered on this page (the per-page cap counts these). */
  get size(): number {
    return this.#elements.length;
  }

  /** The element's ref, registering it when new. */
  register(element: LinkElement): number {
    const known = this.#refs.get(element);
    if (known !== undefined) return known;
    const ref = this.#elements.length;
    this.#elements.push(new WeakRef(element));
    this.#refs.set(element, ref);
    return ref;
  }

  has(element: Element): boolean {
    return this.#refs.has(element);
  }

  refOf(element: Element): number | undefined {
    return this.#refs.get(element);
  }

  /** The element behind a ref, or undefined when it was collected or the ref is unknown. */
  element(ref: number): LinkElement | undefined {
    return this.#elements[ref]?.deref();
  }

  /** Records a verdict for its element; returns the element, or undefined when it is gone. */
  setVerdict(verdict: PageVerdict): LinkElement | undefined {
    const element = this.element(verdict.ref);
    if (element === undefined) {
      this.#levels.delete(verdict.ref);
      return undefined;
    }
    this.#verdicts.set(element, verdict);
    this.#levels.set(verdict.ref, verdict.level);
    return element;
  }

  verdictOf(element: Element): PageVerdict | undefined {
    return this.#verdicts.get(element);
  }

  /** Forgets every verdict (the elements stay registered, so a refresh reuses their refs). */
  clearVerdicts(): void {
    for (const ref of this.#levels.keys()) {
      const element = this.element(ref);
      if (element !== undefined) this.#verdicts.delete(element);
    }
    this.#levels.clear();
  }

  /** Links scored so far, and how many of them are on topic (level ≥ 1). */
  totals(): { onTopic: number; total: number } {
    let onTopic = 0;
    for (const level of this.#levels.values()) if (level > 0) onTopic += 1;
    return { onTopic, total: this.#levels.size };
  }
}
