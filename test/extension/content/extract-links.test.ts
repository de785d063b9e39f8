// @vitest-environment happy-dom
/**
 * "Same HTML, same contexts on both sides", at the content-script level: what the content
 * script extracts from a live DOM (here happy-dom) equals what the companion's pipeline gives
 * for the same HTML (`segmentsFromHtml` → `extractContexts`), and each context is tied to the
 * element it came from, so its verdict paints the right link.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractContexts } from '../../../shared/contexts/index.ts';
import { segmentsFromHtml } from '../../../shared/segments/index.ts';
import { normalizeUrl } from '../../../shared/urls/index.ts';
import { extractLinks, extractionSteps, leadingLinks, leadingLinksSoFar, streamingExtractionSteps, TOO_FAR, type ExtractedLink } from '../../../extension/content/extract-links.ts';
import { pageDocument } from './page-dom.ts';

const fixtures = resolve(import.meta.dirname, '../../fixtures/html');
const pageUrl = 'http://finance.example.com.cn/channel/index.html';

const snippets: Record<string, string> = {
  'nav list': '<ul><li><a href=/a>股票</a><li><a href=/b>基金</a><li><a href=/c>债券</a></ul><p>正文 <a href=/d>更多</a> 结尾</p>',
  'hidden duplicates first': '<nav hidden><a href=/x>X menu</a></nav><div style="display:none"><a href=/y>Y</a></div><p>Go <a href=/x>X</a> and <a href=/y>Y</a></p>',
  'unfollowable hrefs': '<p><a href="javascript:void(0)">js</a> <a href="mailto:a@b.c">mail</a> <a href="/ok">ok</a> <a>none</a> <a href="http://[bad">bad</a> <a href="#top">top</a></p>',
  'nested anchors': '<p>x <a href=/1>one <a href=/2>two</a> three</a> four</p>',
  'image and area': '<a href=/i><img alt="A picture"></a><map><area href=/m alt=Map></map><p>text <a href=/t>t</a></p>',
  'base in head': '<html><head><base href="http://other.example/dir/"></head><body><a href=y>y</a> <a href=/z>z</a></body></html>',
  'dropped subtrees': '<p>a <script>x</script><template><a href=/tpl>tpl</a></template><noscript><a href=/ns>ns</a></noscript><a href=/real>real</a></p>',
};

const cases: [string, string][] = [
  ...readdirSync(fixtures)
    .filter((name) => name.endsWith('.html'))
    .map((name): [string, string] => [name, readFileSync(join(fixtures, name), 'utf8')]),
  ...Object.entries(snippets),
];

const parse = (html: string): Document => pageDocument(html, pageUrl);

describe('extractLinks on a live DOM gives the shared pipeline’s contexts', () => {
  it('has the HTML fixtures to compare', () => {
    expect(cases.filter(([name]) => name.endsWith('.html')).length).toBeGreaterThanOrEqual(3);
  });

  it.each(cases)('%s', (_name, html) => {
    for (const window of [80, 12]) {
      const expected = extractContexts(segmentsFromHtml(html, pageUrl), { window });
      const links = extractLinks(parse(html), pageUrl, { window });
      expect(links.map((link) => link.context)).toEqual(expected);
      // Each context names a distinct element whose own href resolves to the context's URL.
      expect(new Set(links.map((link) => link.element)).size).toBe(links.length);
      const base = parse(html).querySelector('base')?.getAttribute('href');
      const resolveBase = base ? new URL(base, pageUrl).href : pageUrl;
      for (const { element, context } of links) {
        expect(normalizeUrl(element.getAttribute('href')!, resolveBase)).toBe(context.url);
      }
    }
  });

  it('gives the same links however small the steps', () => {
    const html = readFileSync(join(fixtures, 'news-portal-zh.html'), 'utf8');
    const whole = extractLinks(parse(html), pageUrl, { window: 80 });
    const doc = parse(html);
    const steps = extractionSteps(doc, pageUrl, { window: 80, domBatch: 1 });
    let yields = 0;
    let step = steps.next();
    while (!step.done) {
      yields++;
      step = steps.next();
    }
    expect(yields).toBeGreaterThan(doc.getElementsByTagName('*').length);
    expect(step.value.map((link) => link.context)).toEqual(whole.map((link) => link.context));
  });

  it('ties a link to the visible element, not a hidden one with the same URL before it', () => {
    const doc = parse(snippets['hidden duplicates first']!);
    const links = extractLinks(doc, pageUrl, { window: 80 });
    expect(links.map((link) => link.context.anchor)).toEqual(['X', 'Y']);
    for (const { element } of links) expect(element.closest('p')).not.toBeNull();
  });

  it('extracts an added subtree with the document’s base and no context from outside it', () => {
    const doc = parse('<p>outside text <a href=/before>before</a></p><div id=feed></div>');
    const feed = doc.getElementById('feed')!;
    const item = doc.createElement('article');
    const link = doc.createElement('a');
    link.setAttribute('href', 'story/1');
    link.textContent = '新 故事';
    item.append(doc.createTextNode('今天 '), link, doc.createTextNode(' 更新'));
    feed.append(item);
    const links = extractLinks(item, pageUrl, { window: 80, baseUrl: 'http://finance.example.com.cn/news/' });
    expect(links).toHaveLength(1);
    expect(links[0]!.element).toBe(link);
    expect(links[0]!.context).toEqual({
      url: 'http://finance.example.com.cn/news/story/1',
      pageUrl,
      anchor: '新 故事',
      before: '今天',
      after: '更新',
    });
  });
});

describe('leadingLinks: the first links of a page, from a walk that stops early', () => {
  // Every count from none to past the page's links: the prefix must be exactly the whole page's
  // first links, context for context and element for element, including the last one taken,
  // whose `after` reads up to the next link.
  it.each(cases)('%s: equals the whole extraction’s first links', (_name, html) => {
    const doc = parse(html);
    for (const window of [80, 12]) {
      const whole = extractLinks(doc, pageUrl, { window });
      const counts = new Set([0, 1, 2, 3, 7, Math.floor(whole.length / 2), whole.length - 1, whole.length, whole.length + 5]);
      for (const count of counts) {
        if (count < 0) continue;
        const lead = leadingLinks(doc, pageUrl, count, { window });
        expect(lead.map((link) => link.context)).toEqual(whole.slice(0, count).map((link) => link.context));
        expect(lead.map((link) => link.element)).toEqual(whole.slice(0, count).map((link) => link.element));
      }
    }
  });

  it('stops walking soon after the links it needs', () => {
    // An attribute on each paragraph: the walk reads none of an element without any.
    const html = `<body>${Array.from({ length: 400 }, (_, i) => `<p class="p">段落 ${i} <a href="/p/${i}">链接 ${i}</a> 结尾</p>`).join('')}</body>`;
    const doc = parse(html);
    let reads = 0;
    // Count the nodes the walk asks about through the attribute reads of the elements it opens.
    const paragraphs = [...doc.querySelectorAll('p')];
    for (const p of paragraphs) {
      const original = p.getAttribute.bind(p);
      p.getAttribute = (name: string) => {
        if (name === 'hidden') reads++;
        return original(name);
      };
    }
    const lead = leadingLinks(doc, pageUrl, 10, { window: 80 });
    expect(lead).toHaveLength(10);
    // Eleven links must end; the walk checks its count every 32 nodes (5 per paragraph here).
    expect(reads).toBeGreaterThanOrEqual(11);
    expect(reads).toBeLessThan(40);
  });
});

/** `leadingLinksSoFar`'s links, where the test expects links. */
function asLinks(found: ExtractedLink[] | null | typeof TOO_FAR): ExtractedLink[] {
  if (!Array.isArray(found)) throw new Error(`expected links, got ${String(found)}`);
  return found;
}

describe('leadingLinksSoFar: the first links of a page the parser has built part of', () => {
  // What the parser has built so far is modelled by the page's HTML cut after a tag, parsed on
  // its own: the links taken from it must be the whole page's first links, context for context,
  // and every link of the part but its last one must be taken (up to the count).
  it.each(cases)('%s: equals the whole extraction’s first links at every cut', (_name, html) => {
    const whole = extractLinks(parse(html), pageUrl, { window: 80 });
    const cuts = [...html.matchAll(/>/g)].map((m) => m.index + 1);
    const step = Math.max(1, Math.floor(cuts.length / 40));
    let compared = 0;
    for (const cut of [...cuts.filter((_, c) => c % step === 0), html.length]) {
      const part = parse(html.slice(0, cut));
      const inPart = extractLinks(part, pageUrl, { window: 80 }).length;
      for (const count of [1, 3, 100]) {
        const lead = leadingLinksSoFar(part, pageUrl, count, { window: 80 });
        if (inPart < 3) {
          expect(lead).toBeNull();
          continue;
        }
        expect(lead).toHaveLength(Math.min(count, inPart - 2));
        expect(asLinks(lead).map((link) => link.context)).toEqual(whole.slice(0, asLinks(lead).length).map((link) => link.context));
        compared++;
      }
    }
    if (whole.length >= 3) expect(compared).toBeGreaterThan(0);
  });

  it('takes every link but the last two parsed, up to the count', () => {
    // The parser is inside the fourth link: the third may still grow, and the second's `after` reads it.
    const doc = parse('<p>a <a href=/1>one</a> b <a href=/2>two</a> c <a href=/3>three</a> d <a href=/4>fo');
    expect(asLinks(leadingLinksSoFar(doc, pageUrl, 10, { window: 80 })).map((link) => link.context.anchor)).toEqual(['one', 'two']);
    expect(asLinks(leadingLinksSoFar(doc, pageUrl, 1, { window: 80 })).map((link) => link.context.anchor)).toEqual(['one']);
    expect(leadingLinksSoFar(parse('<p>a <a href=/1>one</a> b <a href=/2>tw'), pageUrl, 10, { window: 80 })).toBeNull();
  });

  it('gives up on a part whose first links are further in than it walks', () => {
    const html = `<body>${Array.from({ length: 100 }, (_, i) => `<p>段落 ${i}</p>`).join('')}<a href=/1>one</a> <a href=/2>two</a> <a href=/3>three</a> <a href=/4>four</a>`;
    expect(leadingLinksSoFar(parse(html), pageUrl, 10, { window: 80 }, 64)).toBe(TOO_FAR);
    expect(asLinks(leadingLinksSoFar(parse(html), pageUrl, 10, { window: 80 }))).toHaveLength(2);
  });
});

describe('streamingExtractionSteps: the links of a page as the walk finalizes them', () => {
  // Every link exactly once, in page order, with the whole extraction's context and element,
  // however small the walk's steps.
  it.each(cases)('%s: equals the whole extraction, handed over piece by piece', (_name, html) => {
    const doc = parse(html);
    for (const window of [80, 12]) {
      const whole = extractLinks(doc, pageUrl, { window });
      for (const domBatch of [1, 3, 64, 100_000]) {
        const handed: ExtractedLink[] = [];
        const steps = streamingExtractionSteps(doc, pageUrl, { window, domBatch }, (links) => {
          expect(links.length).toBeGreaterThan(0);
          handed.push(...links);
        });
        let step = steps.next();
        while (!step.done) step = steps.next();
        expect(step.value).toBe(whole.length);
        expect(handed.map((link) => link.context)).toEqual(whole.map((link) => link.context));
        expect(handed.map((link) => link.element)).toEqual(whole.map((link) => link.element));
      }
    }
  });

  it('hands a link over once the next link has ended, before the walk ends', () => {
    const doc = parse('<p>a <a href=/1>one</a> b</p><p>c <a href=/2>two</a> d</p><p>e</p>');
    const handed: string[][] = [];
    // One node a step: html, head, body, p, "a ", a, "one", " b", p, "c ", a, "two", …
    const steps = streamingExtractionSteps(doc, pageUrl, { window: 80, domBatch: 1 }, (links) => handed.push(links.map((link) => link.context.anchor)));
    let seen = 0;
    while (handed.length === 0) {
      expect(steps.next().done).toBe(false);
      seen++;
    }
    // 'one' is final only once 'two' has ended, and the walk has nodes left.
    expect(handed).toEqual([['one']]);
    expect(seen).toBeGreaterThan(8);
    while (!steps.next().done);
    expect(handed).toEqual([['one'], ['two']]);
  });

  it('rejects a window that is not a positive integer', () => {
    expect(() => streamingExtractionSteps(parse('<a href=/1>x</a>'), pageUrl, { window: 0 }, () => undefined).next()).toThrow(RangeError);
  });
});
