// @vitest-environment happy-dom
/** Painting verdicts: the attribute and class the stylesheet (and the e2e test) rely on. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { LinkVerdict } from '../../../extension/messages/page-links.ts';
import { LinkRegistry } from '../../../extension/content/link-registry.ts';
import { LEVEL_ATTRIBUTE, MARK_CLASS, clearHighlights, paintVerdicts } from '../../../extension/content/paint.ts';

const verdict = (ref: number, level: LinkVerdict['level'], p = 0.5): LinkVerdict => ({ ref, p, level, top: [] });

describe('painting', () => {
  let registry: LinkRegistry;
  let links: HTMLAnchorElement[];

  beforeEach(() => {
    document.body.replaceChildren();
    registry = new LinkRegistry();
    links = [0, 1, 2, 3].map((i) => {
      const a = document.createElement('a');
      a.href = `/l${i}`;
      a.className = 'page-own-class';
      a.textContent = `link ${i}`;
      document.body.append(a);
      return a;
    });
    for (const a of links) registry.register(a);
  });

  it('sets data-linkscent-level and the class for levels 1–3, nothing for 0', () => {
    const marked = paintVerdicts(registry, [verdict(0, 1), verdict(1, 2), verdict(2, 3), verdict(3, 0)]);
    expect(marked).toBe(3);
    expect(links.map((a) => a.getAttribute(LEVEL_ATTRIBUTE))).toEqual(['1', '2', '3', null]);
    expect(links.map((a) => a.classList.contains(MARK_CLASS))).toEqual([true, true, true, false]);
    // The page's own classes are kept, and nothing inline is written.
    expect(links.every((a) => a.classList.contains('page-own-class') && !a.hasAttribute('style'))).toBe(true);
    expect(registry.totals()).toEqual({ onTopic: 3, total: 4 });
  });

  it('unmarks a link whose new verdict is level 0', () => {
    paintVerdicts(registry, [verdict(1, 3)]);
    paintVerdicts(registry, [verdict(1, 0)]);
    expect(links[1]!.hasAttribute(LEVEL_ATTRIBUTE)).toBe(false);
    expect(links[1]!.classList.contains(MARK_CLASS)).toBe(false);
    expect(registry.totals()).toEqual({ onTopic: 0, total: 1 });
  });

  it('ignores verdicts for refs it never gave out', () => {
    expect(paintVerdicts(registry, [verdict(99, 3)])).toBe(0);
    expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}]`)).toHaveLength(0);
  });

  it('clears every highlight and the totals', () => {
    paintVerdicts(registry, [verdict(0, 3), verdict(1, 1)]);
    clearHighlights(document, registry);
    expect(document.querySelectorAll(`[${LEVEL_ATTRIBUTE}], .${MARK_CLASS}`)).toHaveLength(0);
    expect(registry.totals()).toEqual({ onTopic: 0, total: 0 });
    expect(registry.verdictOf(links[0]!)).toBeUndefined();
    // The refs survive, so a refresh repaints the same elements.
    expect(registry.refOf(links[1]!)).toBe(1);
  });
});
