import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_WINDOW, extractContexts, MAX_LINKS_PER_PAGE } from '../../../shared/contexts/index.ts';
import { type PageSegments, type Segment, segmentsFromHtml } from '../../../shared/segments/index.ts';

const pageUrl = 'http://finance.example.com.cn/';

/** A stream from short strings: `'|'` a break, `'@name'` a link to /name anchored "name", else text. */
function stream(...items: string[]): Segment[] {
  return items.map((item): Segment => {
    if (item === '|') return { kind: 'break' };
    if (item.startsWith('@')) return { kind: 'link', url: `${pageUrl}${item.slice(1)}`, anchor: item.slice(1), nofollow: false };
    return { kind: 'text', text: item };
  });
}

function page(segments: Segment[]): PageSegments {
  return { pageUrl, baseUrl: pageUrl, title: '', description: '', keywords: '', robots: { noindex: false, nofollow: false }, segments };
}

/** `[before, anchor, after]` per link. */
function sides(segments: Segment[], window?: number): [string, string, string][] {
  return extractContexts(page(segments), window === undefined ? {} : { window }).map((c) => [c.before, c.anchor, c.after]);
}

describe('extractContexts (Han et al. 2010 §3.3)', () => {
  it('gives a link in a nav list its neighbours’ anchors, separators notwithstanding', () => {
    expect(sides(stream('@首页', '|', '@新闻', '|', '@财经', '|', '@体育'))).toEqual([
      ['', '首页', '新闻'],
      ['首页', '新闻', '财经'],
      ['新闻', '财经', '体育'],
      ['财经', '体育', ''],
    ]);
    expect(sides(stream('热门：', '@股票', ' | ', '@基金', ' | ', '@黄金'))[1]).toEqual(['股票', '基金', '黄金']);
  });

  it('gives a link inside a paragraph the text around it', () => {
    expect(sides(stream('央行今日宣布', '@下调存款准备金率', '，释放流动性。'))).toEqual([['央行今日宣布', '下调存款准备金率', '，释放流动性。']]);
  });

  it('crosses one block boundary but not two', () => {
    const segments = stream('第一段。', '|', '第二段。', '|', '第三段开头', '@链接', '第三段结尾', '|', '第四段。', '|', '第五段。');
    expect(sides(segments)).toEqual([['第二段。 第三段开头', '链接', '第三段结尾 第四段。']]);
  });

  it('takes a link one boundary away but not one two boundaries away', () => {
    expect(sides(stream('@上一条', '|', '@本条'))[1]![0]).toBe('上一条');
    expect(sides(stream('@上一条', '说明', '|', '@本条'))[1]![0]).toBe('上一条');
    expect(sides(stream('@上一条', '|', '说明', '|', '@本条'))).toEqual([
      ['', '上一条', '说明'],
      ['说明', '本条', ''],
    ]);
  });

  it('gives the first and last links of a page empty outer sides when nothing lies there', () => {
    expect(sides(stream('@only'))).toEqual([['', 'only', '']]);
    expect(sides(stream('页首文字', '|', '@first', '|', '@last'))).toEqual([
      ['页首文字', 'first', 'last'],
      ['first', 'last', ''],
    ]);
  });

  it('keeps the W characters nearest the link', () => {
    const before = '一二三四五六七八九十甲乙丙丁';
    const after = '子丑寅卯辰巳午未申酉戌亥';
    expect(sides(stream(before, '@链', after), 5)).toEqual([['十甲乙丙丁', '链', '子丑寅卯辰']]);
  });

  it('takes the text, not a link beyond it, when W characters of text come first', () => {
    expect(sides(stream('@远处', '一二三四五六', '@本条'), 5)[1]![0]).toBe('二三四五六');
    expect(sides(stream('@远处', '一二三四', '@本条'), 5)[1]![0]).toBe('远处');
  });

  it('cuts English text at a word boundary, not inside a word', () => {
    // The raw 22-character cuts are "he reserve requirement" and "today, freeing liquidi".
    expect(sides(stream('the central bank cut the reserve requirement', '@ratio', 'today, freeing liquidity for banks'), 22)).toEqual([
      ['reserve requirement', 'ratio', 'today, freeing'],
    ]);
  });

  it('gives one context per link, same URL twice included, in page order, with pageUrl', () => {
    const contexts = extractContexts(page(stream('@a', '|', '@b', '|', '@a')));
    expect(contexts.map((c) => [c.url, c.pageUrl])).toEqual([
      [`${pageUrl}a`, pageUrl],
      [`${pageUrl}b`, pageUrl],
      [`${pageUrl}a`, pageUrl],
    ]);
  });

  it('carries nofollow only on nofollow links', () => {
    const segments: Segment[] = [
      { kind: 'link', url: `${pageUrl}x`, anchor: 'x', nofollow: true },
      { kind: 'link', url: `${pageUrl}y`, anchor: 'y', nofollow: false },
    ];
    const [x, y] = extractContexts(page(segments));
    expect(x).toEqual({ url: `${pageUrl}x`, pageUrl, anchor: 'x', before: '', after: 'y', nofollow: true });
    expect(y).not.toHaveProperty('nofollow');
  });

  it('defaults W to 80 and rejects a window that is not a positive integer', () => {
    expect(DEFAULT_CONTEXT_WINDOW).toBe(80);
    const long = '字'.repeat(200);
    expect(extractContexts(page(stream(long, '@x')))[0]!.before).toHaveLength(80);
    for (const window of [0, -1, 2.5, Number.NaN]) expect(() => extractContexts(page(stream('@x')), { window })).toThrow(RangeError);
  });

  it('reads each segment a bounded number of times on a 5,000-link page (linear, not quadratic)', () => {
    const items: string[] = [];
    for (let i = 0; i < 5000; i++) items.push(i % 7 === 0 ? '|' : '正文'.repeat(i % 5), `@l${i}`);
    const segments = stream(...items.filter((item) => item !== ''));
    let reads = 0;
    const counted = new Proxy(segments, {
      get(target, property, receiver) {
        if (typeof property === 'string' && /^\d+$/.test(property)) reads++;
        return Reflect.get(target, property, receiver);
      },
    });
    expect(extractContexts(page(counted))).toHaveLength(5000);
    expect(reads).toBeLessThan(segments.length * 10);
  });

  it('on a realistic portal page: nav anchors, tag anchors, paragraph text, table cells', () => {
    const html = readFileSync(resolve(import.meta.dirname, '../../fixtures/html/news-portal-zh.html'), 'utf8');
    const contexts = extractContexts(segmentsFromHtml(html, 'http://finance.example.com.cn/channel/index.html'));
    const byAnchor = new Map(contexts.map((c) => [c.anchor, c]));
    expect(byAnchor.get('财经')).toMatchObject({ before: '新闻', after: '体育' });
    expect(byAnchor.get('基金')).toMatchObject({ before: '股票', after: '黄金' });
    // The headline link is one boundary and under 80 characters back, so it beats the paragraph's text.
    expect(byAnchor.get('下调存款准备金率')).toMatchObject({ before: '央行宣布下调存款准备金率 0.5个百分点', after: '全文' });
    expect(byAnchor.get('招聘信息')).toMatchObject({ before: '联系我们', after: 'Copyright © 2010 示例门户网 版权所有 中文' });
    expect(byAnchor.get('上证指数')).toMatchObject({ before: '涨跌', after: '2,870.61' });
    expect(byAnchor.get('深证成指')).toMatchObject({ before: '+1.23%', after: '10,903.22' });
    expect(byAnchor.get('娱乐')).toMatchObject({ nofollow: true });
    expect([...byAnchor.keys()]).not.toContain('推广链接');
  });
});

// Issue 13, item 11: a 200,000-link page held the service for 6.5 s.
describe('links per page', () => {
  const page = (links: number): PageSegments =>
    segmentsFromHtml(`<ul>${Array.from({ length: links }, (_, i) => `<li><a href="/p${i}">p${i}</a></li>`).join('')}</ul>`, 'http://a.cn/');

  it('takes the first MAX_LINKS_PER_PAGE links in page order, and no more', () => {
    const contexts = extractContexts(page(MAX_LINKS_PER_PAGE + 50));
    expect(contexts).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(contexts.at(-1)!.url).toBe(`http://a.cn/p${MAX_LINKS_PER_PAGE - 1}`);
    // The last link taken still sees its neighbour after it, which was not taken.
    expect(contexts.at(-1)!.after).toBe(`p${MAX_LINKS_PER_PAGE}`);
  });

  it('takes fewer when asked, never more than the cap', () => {
    expect(extractContexts(page(30), { maxLinks: 10 })).toHaveLength(10);
    expect(extractContexts(page(MAX_LINKS_PER_PAGE + 1), { maxLinks: MAX_LINKS_PER_PAGE * 2 })).toHaveLength(MAX_LINKS_PER_PAGE);
  });
});
