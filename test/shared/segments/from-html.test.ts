import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { segmentsFromHtml } from '../../../shared/segments/index.ts';
import { shape } from './segment-shape.ts';

const pageUrl = 'http://www.example.com.cn/news/index.html';

function segmentShape(html: string): string[] {
  return shape(segmentsFromHtml(html, pageUrl).segments);
}

describe('segmentsFromHtml: blocks and text', () => {
  it('turns nested block boundaries into single breaks, none first or last', () => {
    expect(segmentShape('<div><div><p>one</p></div><section><div><p>two</p></div></section></div>')).toEqual(['one', '|', 'two']);
  });

  it('collapses white space, merges inline runs and drops empty text', () => {
    expect(segmentShape('<p>  a\n\t<b>bold</b>  <i> </i> c </p><p> \n </p><p>d</p>')).toEqual(['a bold c', '|', 'd']);
    expect(segmentShape('<p>中文<b>粗体</b>文字</p>')).toEqual(['中文粗体文字']);
  });

  it('makes br and hr breaks and keeps inline elements in the run', () => {
    expect(segmentShape('a<br>b<hr>c<span>d</span><em>e</em>')).toEqual(['a', '|', 'b', '|', 'cde']);
  });

  it('decodes entities: &amp; &nbsp; (collapsed as white space) &#x4E2D; &#25991; &lt;', () => {
    expect(segmentShape('<p>AT&amp;T&nbsp;&nbsp;and&#x3000;&#x4E2D;&#25991; &lt;b&gt;</p>')).toEqual(['AT&T and 中文 <b>']);
  });

  it('closes unclosed p, li, td, dt and dd as browsers do', () => {
    expect(segmentShape('<p>p1<p>p2<ul><li>l1<li>l2</ul><table><tr><td>c1<td>c2<tr><td>c3</table><dl><dt>t<dd>d</dl>')).toEqual(
      ['p1', '|', 'p2', '|', 'l1', '|', 'l2', '|', 'c1', '|', 'c2', '|', 'c3', '|', 't', '|', 'd'],
    );
  });

  it('ignores stray end tags, except </p> and </br> which break as in HTML5', () => {
    expect(segmentShape('a</span>b</em>c')).toEqual(['abc']);
    expect(segmentShape('a</p>b</br>c')).toEqual(['a', '|', 'b', '|', 'c']);
  });
});

describe('segmentsFromHtml: what is dropped', () => {
  it('drops script, style, template, noscript, iframe, svg, select, textarea and comments', () => {
    const html =
      '<p>a<script>var x = "<a href=/s>s</a>";</script>b<style>p{}</style>c<template><a href=/t>t</a></template>d' +
      '<noscript>e</noscript>f<!-- <a href=/c>comment</a> -->g<svg><text>h</text></svg>i<select><option>j</select>k' +
      '<textarea>l</textarea>m<iframe>n</iframe>o<object>p</object>q<canvas>r</canvas>s</p>';
    expect(segmentShape(html)).toEqual(['abcdfgikmoqs']);
  });

  it('drops subtrees hidden by attribute, links included', () => {
    const html =
      '<p>a<span hidden>b<a href=/1>1</a></span>c<span aria-hidden="true">d</span>e<span aria-hidden="false">f</span>' +
      '<span style="display:none">g</span>h<span style="font-weight:bold;visibility: hidden">i</span>' +
      '<span style="display: nonesuch">j</span><span style="display:block">k</span></p>';
    expect(segmentShape(html)).toEqual(['acefhjk']);
  });

  it('keeps head text out of the stream and reads title, description, keywords and robots', () => {
    const page = segmentsFromHtml(
      '<html><head><title> 财经 &amp; 新闻 </title><meta name="Description" content=" 描述  文字 ">' +
        '<meta name=keywords content="股票,基金"><meta name=robots content="NOINDEX, follow"><link rel=x href=/x>' +
        '</head><body><p>body</p><title>second title</title></body></html>',
      pageUrl,
    );
    expect(page).toMatchObject({ title: '财经 & 新闻', description: '描述 文字', keywords: '股票,基金', robots: { noindex: true, nofollow: false } });
    expect(shape(page.segments)).toEqual(['body']);
  });

  it.each([
    ['nofollow', { noindex: false, nofollow: true }],
    ['none', { noindex: true, nofollow: true }],
    ['all', { noindex: false, nofollow: false }],
  ])('reads meta robots %j', (content, robots) => {
    expect(segmentsFromHtml(`<meta name=robots content="${content}">`, pageUrl).robots).toEqual(robots);
  });

  it('gives empty page facts for a page without head', () => {
    expect(segmentsFromHtml('<p>x</p>', pageUrl)).toEqual({
      pageUrl, baseUrl: pageUrl, title: '', description: '', keywords: '',
      robots: { noindex: false, nofollow: false }, segments: [{ kind: 'text', text: 'x' }],
      blocks: [{ tag: 'p', container: 0 }],
    });
  });
});

describe('segmentsFromHtml: blocks', () => {
  it('describes each block by its innermost block element and container', () => {
    const page = segmentsFromHtml(
      '<body>lead<div id=a>loose<p>one <b>bold</b></p><ul><li><a href=/x>x</a></li><li>two</li></ul></div><h1>head</h1></body>',
      pageUrl,
    );
    // Containers numbered in document order: div 1, ul 2. Text directly in body has neither.
    expect(page.blocks).toEqual([
      { tag: '', container: 0 },
      { tag: 'div', container: 1 },
      { tag: 'p', container: 1 },
      { tag: 'li', container: 2 },
      { tag: 'li', container: 2 },
      { tag: 'h1', container: 0 },
    ]);
    expect(page.segments.filter((segment) => segment.kind === 'break')).toHaveLength(page.blocks!.length - 1);
  });

  it('keeps a block whose text ends at the next block element in the block it was in', () => {
    const page = segmentsFromHtml('<td>cell<br>after break</td><p>para</p>', pageUrl);
    expect(page.blocks!.map((block) => block.tag)).toEqual(['td', 'td', 'p']);
  });
});

describe('segmentsFromHtml: links', () => {
  it('resolves links against the page URL and normalises them', () => {
    expect(segmentShape('<a href="a.html#frag">A</a><a href="HTTP://Money.163.COM:80/x">B</a><a href=" /c \n">C</a>')).toEqual([
      '[A](http://www.example.com.cn/news/a.html)',
      '[B](http://money.163.com/x)',
      '[C](http://www.example.com.cn/c)',
    ]);
  });

  it('resolves links after the first <base href> against it, and reports it as baseUrl', () => {
    const page = segmentsFromHtml(
      '<a href=a.html>before</a><base href="http://cdn.example.com/dir/"><base href="http://ignored.example/"><a href=a.html>after</a>',
      pageUrl,
    );
    expect(page.baseUrl).toBe('http://cdn.example.com/dir/');
    expect(shape(page.segments)).toEqual(['[before](http://www.example.com.cn/news/a.html)', '[after](http://cdn.example.com/dir/a.html)']);
  });

  it('resolves a relative <base href> against the page URL', () => {
    expect(segmentsFromHtml('<base href="/root/"><a href=x>x</a>', pageUrl).segments).toEqual([
      { kind: 'link', url: 'http://www.example.com.cn/root/x', anchor: 'x', nofollow: false },
    ]);
  });

  it('drops javascript:, mailto:, tel:, data: and unparsable links but keeps their text', () => {
    expect(
      segmentShape('<p>a <a href="javascript:void(0)">js</a> b <a href="mailto:x@y.cn">mail</a> <a href="tel:1">tel</a> <a href="data:,x">data</a> <a href="http://[x">bad</a> <a>none</a> c</p>'),
    ).toEqual(['a js b mail tel data bad none c']);
  });

  it('takes the anchor from text, else image alt, else aria-label, else title', () => {
    expect(
      segmentShape(
        '<a href=/1 title=t1><img alt="alt 1">text 1</a><a href=/2 title=t2><img alt=" alt  2 "><img alt=more></a>' +
          '<a href=/3 aria-label="label 3" title=t3><img src=x></a><a href=/4 title=" title 4 "></a><a href=/5></a>',
      ),
    ).toEqual([
      '[text 1](http://www.example.com.cn/1)',
      '[alt 2 more](http://www.example.com.cn/2)',
      '[label 3](http://www.example.com.cn/3)',
      '[title 4](http://www.example.com.cn/4)',
      '[](http://www.example.com.cn/5)',
    ]);
  });

  it('makes <area href> a link anchored by its alt', () => {
    expect(segmentShape('<map><area href=/m alt="Map area"><area href=/n></map>')).toEqual(['[Map area](http://www.example.com.cn/m)', '[](http://www.example.com.cn/n)']);
  });

  it('flags rel=nofollow among other rel tokens', () => {
    expect(segmentShape('<a href=/a rel="external NoFollow">a</a><a href=/b rel="nofollowing">b</a>')).toEqual([
      '[a](http://www.example.com.cn/a)!nofollow',
      '[b](http://www.example.com.cn/b)',
    ]);
  });

  it('separates the words of blocks inside a link by a space, not a break', () => {
    expect(segmentShape('<p>x</p><a href=/card><h3>Title</h3><p>Summary<br>line</p></a><p>y</p>')).toEqual([
      'x', '|', '[Title Summary line](http://www.example.com.cn/card)', '|', 'y',
    ]);
  });

  it('ends an outer link at a nested anchor', () => {
    expect(segmentShape('<p>x <a href=/outer>outer <a href=/inner>inner</a> tail</a> y</p>')).toEqual([
      'x', '[outer](http://www.example.com.cn/outer)', '[inner](http://www.example.com.cn/inner)', 'tail y',
    ]);
  });

  it('keeps every occurrence of a URL linked twice', () => {
    expect(segmentShape('<a href=/a>one</a><a href=/a#x>two</a>')).toEqual(['[one](http://www.example.com.cn/a)', '[two](http://www.example.com.cn/a)']);
  });

  it('decodes entities in attributes the HTML5 way (&copy= in a query stays literal)', () => {
    expect(segmentShape('<a href="/q?a=1&copy=2&amp;b=3">q</a>')).toEqual(['[q](http://www.example.com.cn/q?a=1&copy=2&b=3)']);
  });
});

describe('segmentsFromHtml: charset decoded by the caller', () => {
  const html =
    '<html><head><meta charset="gbk"><title>财经新闻_新浪网</title></head>' +
    '<body><p>央行宣布<a href="/news/rrr.shtml">下调存款准备金率</a>，释放流动性。</p></body></html>';
  const gbkBytes = iconv.encode(html, 'gbk');

  it('gives the right Chinese text for GBK bytes decoded with iconv-lite', () => {
    const page = segmentsFromHtml(iconv.decode(gbkBytes, 'gbk'), 'http://finance.sina.com.cn/');
    expect(page.title).toBe('财经新闻_新浪网');
    expect(shape(page.segments)).toEqual(['央行宣布', '[下调存款准备金率](http://finance.sina.com.cn/news/rrr.shtml)', '，释放流动性。']);
  });

  it('really depends on the decoding: the same bytes read as UTF-8 give other text', () => {
    expect(gbkBytes.length).toBeLessThan(Buffer.byteLength(html, 'utf8'));
    expect(segmentsFromHtml(gbkBytes.toString('utf8'), 'http://finance.sina.com.cn/').title).not.toBe('财经新闻_新浪网');
  });
});
