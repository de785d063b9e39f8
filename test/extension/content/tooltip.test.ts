// @vitest-environment happy-dom
/**
 * The hover explanation: page words are shown as text (never parsed as markup), features get
 * readable names, one host element is reused, and hover / focus open and close it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkVerdict } from '../../../extension/messages/page-links.ts';
import { createTranslate } from '../../../extension/ui/i18n.ts';
import { featureLabel, formatWeight } from '../../../extension/content/feature-labels.ts';
import { attachHover } from '../../../extension/content/hover.ts';
import { LinkRegistry } from '../../../extension/content/link-registry.ts';
import { paintVerdicts } from '../../../extension/content/paint.ts';
import { TOOLTIP_TAG, Tooltip } from '../../../extension/content/tooltip.ts';
import { fakeI18n } from '../ui/fake-browser.ts';

const t = createTranslate(fakeI18n('en'));
const hostile = '<img src=x onerror="globalThis.pwned=1">';

const verdict: LinkVerdict = {
  ref: 0,
  p: 0.873,
  level: 3,
  top: [
    { feature: `a:${hostile}`, weight: 2.5 },
    { feature: 'lex:context', weight: 1.25 },
    { feature: 'c:体育', weight: -0.4 },
  ],
};

/** A link in the test document's style: `href` and its text. */
function anchor(href: string, text: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

describe('feature labels', () => {
  it('strip the namespaces into readable labels, in either language', () => {
    expect(featureLabel('a:finance', t)).toBe('anchor: finance');
    expect(featureLabel('c:基金', t)).toBe('context: 基金');
    expect(featureLabel('u:news', t)).toBe('URL: news');
    expect(featureLabel('lex:anchor', t)).toBe('anchor contains a lexicon term');
    expect(featureLabel('a:a:b', t)).toBe('anchor: a:b');
    expect(featureLabel('x:odd', t)).toBe('x:odd');
    const zh = createTranslate(fakeI18n('zh_CN'));
    expect(featureLabel('a:股票', zh)).toBe('锚文本：股票');
    expect(featureLabel('lex:context', zh)).toBe('上下文包含词表术语');
  });

  it('format weights with their sign', () => {
    expect([formatWeight(1.254), formatWeight(-0.4), formatWeight(0)]).toEqual(['+1.25', '\u22120.40', '+0.00']);
  });
});

describe('Tooltip', () => {
  let link: HTMLAnchorElement;
  let tooltip: Tooltip;

  beforeEach(() => {
    link = anchor('/x', 'x');
    document.body.replaceChildren(link);
    tooltip = new Tooltip(document, t);
  });
  afterEach(() => tooltip.destroy());

  it('shows a hostile feature word as text, creating no element from it', () => {
    tooltip.show(link, verdict);
    const content = tooltip.content!;
    expect(content.textContent).toContain(hostile);
    expect(content.querySelector('img')).toBeNull();
    expect(document.querySelector('img')).toBeNull();
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    expect(content.textContent).toContain('On topic: 87%');
    expect([...content.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      `+2.50anchor: ${hostile}`,
      '+1.25context contains a lexicon term',
      '\u22120.40context: 体育',
    ]);
    expect([...content.querySelectorAll('li')].map((li) => li.getAttribute('part'))).toEqual([
      'feature for',
      'feature for',
      'feature against',
    ]);
  });

  it("says first that the user marked the link, or that the site repeats it", () => {
    tooltip.show(link, { ...verdict, mark: 1 });
    expect(tooltip.content!.firstElementChild!.textContent).toBe('You marked this link on topic.');
    tooltip.show(link, { ...verdict, template: true });
    expect(tooltip.content!.firstElementChild!.textContent).toMatch(/repeats this link on many pages/);
    tooltip.show(link, verdict);
    expect(tooltip.content!.firstElementChild!.getAttribute('part')).toBe('score');
  });

  it('uses one host element, outside the page’s links, and never a style attribute in markup', () => {
    tooltip.show(link, verdict);
    tooltip.show(link, { ...verdict, top: [] });
    expect(document.querySelectorAll(TOOLTIP_TAG)).toHaveLength(1);
    expect(tooltip.content!.textContent).toContain('No known words');
    expect(tooltip.host!.hasAttribute('data-open')).toBe(true);
    expect(tooltip.host!.querySelector('*')).toBeNull(); // contents live in the shadow root only
    tooltip.hide();
    expect(tooltip.host!.hasAttribute('data-open')).toBe(false);
  });
});

describe('attachHover', () => {
  it('opens on a marked link and closes when the pointer leaves', async () => {
    const marked = anchor('/m', 'marked');
    const plain = anchor('/p', 'plain');
    document.body.replaceChildren(marked, plain);
    const registry = new LinkRegistry();
    registry.register(marked);
    registry.register(plain);
    paintVerdicts(registry, [verdict, { ref: 1, p: 0.1, level: 0, top: [] }]);
    const tooltip = new Tooltip(document, t);
    const stop = attachHover(document, registry, tooltip, 0);

    plain.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    expect(tooltip.host).toBeUndefined();

    marked.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    await vi.waitFor(() => expect(tooltip.host?.hasAttribute('data-open')).toBe(true));
    expect(tooltip.content!.textContent).toContain(hostile);

    marked.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, relatedTarget: plain }));
    expect(tooltip.host!.hasAttribute('data-open')).toBe(false);

    marked.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(tooltip.host!.hasAttribute('data-open')).toBe(true);
    stop();
    expect(tooltip.host!.hasAttribute('data-open')).toBe(false);
    tooltip.destroy();
  });

  it('asks for the features of a verdict that came without them, once, and shows them', async () => {
    const marked = anchor('/m', 'marked');
    const other = anchor('/o', 'other');
    document.body.replaceChildren(marked, other);
    const registry = new LinkRegistry();
    registry.register(marked);
    const { top, ...bare } = verdict;
    paintVerdicts(registry, [bare]);
    const tooltip = new Tooltip(document, t);
    const asked: Element[] = [];
    const stop = attachHover(document, registry, tooltip, 0, async (link) => (asked.push(link), top));

    marked.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    await vi.waitFor(() => expect(tooltip.host?.hasAttribute('data-open')).toBe(true));
    expect(asked).toEqual([marked]);
    expect([...tooltip.content!.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      `+2.50anchor: ${hostile}`,
      '+1.25context contains a lexicon term',
      '\u22120.40context: 体育',
    ]);
    marked.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, relatedTarget: other }));
    marked.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    expect(tooltip.host!.hasAttribute('data-open')).toBe(true);
    expect(asked).toHaveLength(1);
    stop();
    tooltip.destroy();
  });
});
