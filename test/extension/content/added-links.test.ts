// @vitest-environment happy-dom
/** Links added later: which added subtrees are worth a walk, and when the watcher hands them over. */
import { beforeEach, describe, expect, it } from 'vitest';
import { insideSkippedAncestor, newLinkRoots, watchAddedLinks } from '../../../extension/content/added-links.ts';

function el(html: string): HTMLElement {
  const template = document.createElement('template');
  template.innerHTML = html; // test fixture markup, not page data
  return template.content.firstElementChild as HTMLElement;
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(() => document.body.replaceChildren());

describe('newLinkRoots', () => {
  it('keeps the outermost added subtrees that hold unknown links', () => {
    const known = el('<a href="/k">k</a>');
    const outer = el('<section><div><a href="/n">n</a></div></section>');
    const noLinks = el('<p>text only <a>no href</a></p>');
    const onlyKnown = el('<div></div>');
    document.body.append(known, outer, noLinks, onlyKnown);
    onlyKnown.append(known);
    const inner = outer.querySelector('div')!;
    const detached = el('<div><a href="/d">d</a></div>');
    const roots = newLinkRoots([outer, inner, noLinks, onlyKnown, detached, document.createTextNode('t')], (e) => e === known);
    expect(roots).toEqual([outer]);
  });

  it('skips subtrees under hidden, dropped, head or link ancestors', () => {
    const hidden = el('<div aria-hidden="true"><span></span></div>');
    const link = el('<a href="/outer"><span></span></a>');
    const dropped = el('<object><span></span></object>');
    const visible = el('<div class="feed"><span></span></div>');
    document.body.append(hidden, link, dropped, visible);
    const probes = [hidden, link, dropped, visible].map((parent) => parent.querySelector('span')!);
    expect(probes.map(insideSkippedAncestor)).toEqual([true, true, true, false]);
    const meta = document.createElement('a');
    document.head.append(meta);
    expect(insideSkippedAncestor(meta)).toBe(true);
    meta.remove();
  });
});

describe('watchAddedLinks', () => {
  it('hands over new links once per quiet period', async () => {
    const calls: Element[][] = [];
    const stop = watchAddedLinks(document.body, () => false, (roots) => calls.push(roots), { debounceMs: 30 });
    const a = el('<div><a href="/1">1</a></div>');
    const b = el('<div><a href="/2">2</a></div>');
    document.body.append(a);
    await tick(10);
    document.body.append(b);
    await tick(10);
    expect(calls).toHaveLength(0);
    await tick(60);
    expect(calls).toEqual([[a, b]]);
    stop();
    document.body.append(el('<div><a href="/3">3</a></div>'));
    await tick(60);
    expect(calls).toHaveLength(1);
  });

  it('still flushes on a page that never stops changing', async () => {
    const calls: Element[][] = [];
    const stop = watchAddedLinks(document.body, () => false, (roots) => calls.push(roots), { debounceMs: 30, maxWaitMs: 60 });
    const ticker = setInterval(() => document.body.append(el('<span>tick</span>')), 10);
    document.body.append(el('<div><a href="/n">n</a></div>'));
    await tick(200);
    clearInterval(ticker);
    stop();
    expect(calls.length).toBeGreaterThanOrEqual(1);
  });
});
