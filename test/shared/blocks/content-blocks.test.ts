import { describe, expect, it } from 'vitest';
import { contentBlocks } from '../../../shared/blocks/content-blocks.ts';
import { pageBlocks } from '../../../shared/blocks/page-blocks.ts';
import { segmentsFromHtml } from '../../../shared/segments/from-html.ts';

const page = (html: string) => segmentsFromHtml(html, 'http://x.test/');

describe('contentBlocks (seed 002 §4, content block partition)', () => {
  it('groups the blocks of one container into one content block, anchors in its text, links in page order', () => {
    const blocks = contentBlocks(
      page('<ul><li><a href=/a>A</a></li><li><a href=/b>B</a></li></ul><div><p>one</p><ul><li><a href=/c>C</a></li></ul><p>two <a href=/d>D</a></p></div><p>loose</p>'),
    );
    expect(blocks.map((block) => block.text)).toEqual(['A\nB', 'one\ntwo D', 'C', 'loose']);
    expect(blocks.map((block) => block.links.map((link) => `${link.ordinal}:${link.url}`))).toEqual([
      ['0:http://x.test/a', '1:http://x.test/b'],
      ['3:http://x.test/d'],
      ['2:http://x.test/c'],
      [],
    ]);
  });

  it('keeps blocks outside any container apart', () => {
    expect(contentBlocks(page('<p>a</p><p>b</p>')).map((block) => block.text)).toEqual(['a', 'b']);
  });
});

describe('pageBlocks', () => {
  it('counts link ordinals across blocks, as extractContexts numbers link contexts', () => {
    const blocks = pageBlocks(page('<p><a href=/1>x</a> text</p><p><a href=/2>y</a><a href=/3></a></p>'));
    expect(blocks.map((block) => block.links.map((link) => link.ordinal))).toEqual([[0], [1, 2]]);
    expect(blocks[0]).toMatchObject({ tag: 'p', runs: ['x', 'text'], ownRuns: ['text'], chars: 5, linkChars: 1 });
  });

  it('treats every block as its own, with no tag, on a page built without block shapes', () => {
    const blocks = pageBlocks({
      pageUrl: 'http://x.test/', baseUrl: 'http://x.test/', title: '', description: '', keywords: '',
      robots: { noindex: false, nofollow: false },
      segments: [{ kind: 'text', text: 'a' }, { kind: 'break' }, { kind: 'text', text: 'b' }],
    });
    expect(blocks.map((block) => [block.tag, block.container])).toEqual([['', 0], ['', 0]]);
  });
});
