import { describe, expect, it } from 'vitest';
import {
  type DomNodeLike,
  SegmentBuilder,
  domWalkSteps,
  segmentsFromDom,
  segmentsFromHtml,
  walkDom,
} from '../../../shared/segments/index.ts';
import { siblings, withDocument } from './dom-support.ts';
import { shape } from './segment-shape.ts';

const pageUrl = 'https://news.example.com/2024/index.html';

/** A hand-made element, for trees no HTML parser would build (very deep ones). */
function element(name: string, children: DomNodeLike[], attributes: Record<string, string> = {}): DomNodeLike {
  return {
    nodeType: 1,
    nodeName: name.toUpperCase(),
    localName: name,
    nodeValue: null,
    firstChild: siblings(children),
    nextSibling: null,
    getAttribute: (attribute) => attributes[attribute] ?? null,
  };
}

function text(data: string): DomNodeLike {
  return { nodeType: 3, nodeName: '#text', nodeValue: data, firstChild: null, nextSibling: null };
}

const page =
  '<!doctype html><html><head><title>Batches</title></head><body>' +
  Array.from({ length: 60 }, (_, i) => `<div><h2>Story ${i}</h2><p>Text of story ${i} with <a href="/s/${i}">a link</a>.</p></div>`).join('') +
  '</body></html>';

describe('segmentsFromDom', () => {
  it('accepts a happy-dom Document and reads head facts from it', async () => {
    const result = await withDocument(
      '<title>T</title><meta name=description content=D><base href="/base/"><p>x <a href=y>y</a></p>',
      pageUrl,
      (document) => segmentsFromDom(document, pageUrl),
    );
    expect(result).toMatchObject({ title: 'T', description: 'D', baseUrl: 'https://news.example.com/base/' });
    expect(shape(result.segments)).toEqual(['x', '[y](https://news.example.com/base/y)']);
  });

  it('walks a tree 20,000 elements deep without recursion', () => {
    let node: DomNodeLike = element('a', [text('deep link')], { href: '/deep' });
    for (let i = 0; i < 20_000; i++) node = element(i % 2 ? 'span' : 'div', [node]);
    expect(shape(segmentsFromDom(node, pageUrl).segments)).toEqual(['[deep link](https://news.example.com/deep)']);
  });

  it('does not descend into dropped or hidden subtrees', () => {
    let childReads = 0;
    const script: DomNodeLike = {
      ...element('script', []),
      get firstChild() {
        childReads++;
        return text('var x;');
      },
    };
    const hidden: DomNodeLike = {
      ...element('div', [], { hidden: '' }),
      get firstChild() {
        childReads++;
        return text('secret');
      },
    };
    expect(shape(segmentsFromDom(element('p', [text('a'), script, hidden, text('b')]), pageUrl).segments)).toEqual(['ab']);
    expect(childReads).toBe(0);
  });

  it('reads no attribute of an element that says it has none, and still reads those of the others', () => {
    const reads: string[] = [];
    const counted = (name: string, children: DomNodeLike[], attributes: Record<string, string>): DomNodeLike => ({
      ...element(name, children, attributes),
      hasAttributes: () => Object.keys(attributes).length > 0,
      getAttribute: (attribute) => {
        reads.push(`${name}.${attribute}`);
        return attributes[attribute] ?? null;
      },
    });
    const tree = counted('div', [counted('p', [text('plain')], {}), counted('span', [text('gone')], { hidden: '' }), counted('a', [text('go')], { href: '/go' })], {});
    expect(shape(segmentsFromDom(tree, pageUrl).segments)).toEqual(['plain', '|', '[go](https://news.example.com/go)']);
    expect(reads.filter((read) => !read.startsWith('span.') && !read.startsWith('a.'))).toEqual([]);
    expect(reads).toContain('span.hidden');
    expect(reads).toContain('a.href');
  });

  it('segments a subtree added later against the document base URL', () => {
    const added = element('li', [element('a', [text('new story')], { href: 'story.html' })]);
    const result = segmentsFromDom(added, pageUrl, { baseUrl: 'https://cdn.example.com/mirror/' });
    expect(shape(result.segments)).toEqual(['[new story](https://cdn.example.com/mirror/story.html)']);
  });
});

describe('domWalkSteps', () => {
  it('gives, batch by batch, exactly what one synchronous walk gives', async () => {
    await withDocument(page, pageUrl, (document) => {
      const whole = new SegmentBuilder<DomNodeLike>(pageUrl);
      walkDom(document, whole);
      const batched = new SegmentBuilder<DomNodeLike>(pageUrl);
      let batches = 0;
      for (const _ of domWalkSteps(document, batched, 25)) batches++;
      expect(batches).toBeGreaterThan(10);
      const expected = whole.finish();
      expect(batched.finish()).toEqual(expected);
      expect(expected).toEqual(segmentsFromHtml(page, pageUrl));
    });
  });

  it('yields after every batch of nodes, so a caller can stop at a deadline', async () => {
    await withDocument(page, pageUrl, (document) => {
      const builder = new SegmentBuilder<DomNodeLike>(pageUrl);
      const steps = domWalkSteps(document, builder, 10);
      steps.next();
      steps.next();
      const partial = builder.finish();
      expect(partial.title).toBe('Batches');
      expect(partial.segments.length).toBeGreaterThan(0);
      expect(partial.segments.filter((segment) => segment.kind === 'link').length).toBeLessThan(60);
    });
  });

  it('hands the builder each element as its ref, so every link segment names its element', async () => {
    const html = '<p>x <a href=/1>one <a href=/2>two</a></a> <span hidden><a href=/h>h</a></span><map><area href=/m alt=M></map> <a>no href</a> <a href=/3>three</a></p>';
    await withDocument(html, pageUrl, (document) => {
      const builder = new SegmentBuilder<DomNodeLike>(pageUrl);
      walkDom(document, builder);
      const page = builder.finish();
      expect(page).toEqual(segmentsFromHtml(html, pageUrl));
      const links = page.segments.filter((segment) => segment.kind === 'link');
      expect(builder.linkRefs).toHaveLength(links.length);
      const elements = builder.linkRefs as unknown as Element[];
      expect(elements.map((element) => element.getAttribute('href'))).toEqual(['/1', '/2', '/m', '/3']);
      expect(elements.every((element) => element.isConnected && document.contains(element as never))).toBe(true);
    });
  });

  it('survives the page changing between batches', async () => {
    await withDocument(page, pageUrl, (document) => {
      const builder = new SegmentBuilder<DomNodeLike>(pageUrl);
      const steps = domWalkSteps(document, builder, 50);
      steps.next();
      document.body.innerHTML = '<p>replaced</p>';
      while (!steps.next().done) {
        // drain
      }
      expect(builder.finish().segments.filter((segment) => segment.kind === 'link').length).toBe(60);
    });
  });
});
