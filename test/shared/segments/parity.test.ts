/**
 * Parity: the extension's producer (`segmentsFromDom` over a browser-like DOM, here happy-dom)
 * and the companion's (`segmentsFromHtml` over htmlparser2's events) must give the same
 * segments and the same link contexts for the same HTML (DESIGN.md: a model trained on one side
 * scores the same on the other).
 *
 * Two DOMs: happy-dom (a real `Document`, as the extension walks) and parse5
 * (the WHATWG tree builder, i.e. what a browser builds). happy-dom is not fully conformant: it
 * drops a stray `</p>` and `</br>`, where the spec (and browsers, parse5 and htmlparser2) make an
 * empty `<p>` and a `<br>`; those cases run against parse5 only (HAPPY_DOM_DEVIATIONS).
 *
 * Kept out of the parity set altogether, because HTML5 tree building and htmlparser2's event stream
 * genuinely disagree there (the segment rules cannot reconcile what the two parsers build):
 * - text or links directly inside `<table>`/`<tr>` (HTML5 foster-parents them before the table;
 *   htmlparser2 keeps them in place);
 * - an `<a>` left open across a block end (`<div><a href=x>t</div>more`): HTML5 reconstructs the
 *   formatting element, so "more" becomes a second link to x; htmlparser2 closes the link at
 *   `</div>`;
 * - a `<p>` inside an inline element closed later, markup inside `<select>`, `<svg>` or `<math>`
 *   whose HTML tags break out of foreign content, and text inside `<head>` (HTML5 moves it and
 *   the rest of the head into `<body>`);
 * - `<base>` after a link: a browser resolves every link against the document's first base,
 *   the builder only the links after it (both producers agree; the browser's `a.href` would not).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractContexts } from '../../../shared/contexts/index.ts';
import { type PageSegments, segmentsFromDom, segmentsFromHtml } from '../../../shared/segments/index.ts';
import { parse5Document, withDocument } from './dom-support.ts';

const fixtures = resolve(import.meta.dirname, '../../fixtures/html');
const pageUrl = 'http://finance.example.com.cn/channel/index.html';

const snippets: Record<string, string> = {
  'implied end tags': '<p>a<p>b<ul><li>c<li><a href=/d>d</a></ul><dl><dt>e<dd>f</dl><h2>g<h3>h</h3>',
  'nested anchors': '<p>x <a href=/1>one <a href=/2>two</a> three</a> four</p>',
  'hidden and dropped':
    '<p>a<span hidden>b</span><span style="color:red; display : none !important">c</span><b aria-hidden=TRUE>d</b>e' +
    '<svg><a href=/s><text>s</text></a></svg><math><mi>x</mi></math>f<select><option>o</select>g</p>',
  'entities in attributes': '<a href="/q?a=1&copy=2&amp;b=3&lang=zh">q</a><a href="/x?&notit;=1">r</a>',
  'white space only': '<div> \n <span> </span>\t</div><p>&nbsp;</p><a href=/only>only</a>',
  'image anchors': '<a href=/i><img alt="  A   picture "><img alt=second></a><a href=/e><img></a><map><area href=/m alt=Map></map>',
  'block inside a link': '<p>before</p><a href=/card><div>Card title</div><p>Card text</p></a><p>after</p>',
  'stray <head> in the body': '<html><head><title>t</title></head><body><p>a</p><head><meta name=keywords content=k><p>b <a href=/b>b</a></p>',
  'empty document': '',
  'text only': 'just text, no markup',
  'meta and base in body': '<p>x</p><meta name=robots content=none><base href="http://other.example/dir/"><a href=y>y</a>',
};

/** Conformant HTML5 behaviour that happy-dom 21 does not reproduce: parse5 only. */
const HAPPY_DOM_DEVIATIONS: Record<string, string> = {
  'stray </p> and </br>': '<div>a</span></p>b</div></li>c<br></br>d</em>',
};

const cases: [string, string][] = [
  ...readdirSync(fixtures)
    .filter((name) => name.endsWith('.html'))
    .map((name): [string, string] => [name, readFileSync(join(fixtures, name), 'utf8')]),
  ...Object.entries(snippets),
];

function expectSamePage(fromDom: PageSegments, fromHtml: PageSegments): void {
  expect(fromDom).toEqual(fromHtml);
  expect(extractContexts(fromDom)).toEqual(extractContexts(fromHtml));
  expect(extractContexts(fromDom, { window: 12 })).toEqual(extractContexts(fromHtml, { window: 12 }));
}

describe('segmentsFromDom over happy-dom agrees with segmentsFromHtml', () => {
  it('covers every fixture', () => {
    expect(cases.filter(([name]) => name.endsWith('.html')).length).toBeGreaterThanOrEqual(3);
  });

  it.each(cases)('%s', async (_name, html) => {
    const fromDom = await withDocument(html, pageUrl, (document) => segmentsFromDom(document, pageUrl));
    expectSamePage(fromDom, segmentsFromHtml(html, pageUrl));
  });
});

describe('segmentsFromDom over parse5 (the spec tree) agrees with segmentsFromHtml', () => {
  it.each([...cases, ...Object.entries(HAPPY_DOM_DEVIATIONS)])('%s', (_name, html) => {
    expectSamePage(segmentsFromDom(parse5Document(html), pageUrl), segmentsFromHtml(html, pageUrl));
  });
});
