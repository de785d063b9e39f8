import { describe, expect, it } from 'vitest';
import { segmentsFromHtml } from '../../../shared/segments/index.ts';
import { mainText } from '../../../shared/segments/page-text.ts';

const pageUrl = 'http://news.example.cn/a.html';
const main = (html: string) => mainText(segmentsFromHtml(html, pageUrl));

describe('mainText', () => {
  it('keeps the text blocks in order, one line each, and leaves out blocks that are mostly links', () => {
    const html = `<nav><a href="/">首页</a> <a href="/news">新闻</a> <a href="/sports">体育</a></nav>
      <h1>央行下调存款准备金率</h1>
      <p>分析人士认为，货币政策保持稳健，<a href="/more">详见</a>银行间市场利率平稳运行。</p>
      <ul><li><a href="/x">相关新闻一</a></li><li><a href="/y">相关新闻二</a></li></ul>
      <footer>版权所有 <a href="/about">关于我们</a> <a href="/contact">联系我们</a> <a href="/jobs">招聘</a></footer>`;
    expect(main(html)).toBe('央行下调存款准备金率\n分析人士认为，货币政策保持稳健，详见银行间市场利率平稳运行。');
  });

  it('joins runs with a space except between two CJK characters', () => {
    expect(main('<p>LinkScent 是<a href="/x">焦点</a>爬虫 for <a href="/y">web</a> pages and more words here</p>')).toBe('LinkScent 是焦点爬虫 for web pages and more words here');
  });

  it('gives every block of a page of links only, so a page with words never gives none', () => {
    expect(main('<ul><li><a href="/a">第一章</a></li><li><a href="/b">第二章</a></li></ul>')).toBe('第一章\n第二章');
    expect(main('<html><body></body></html>')).toBe('');
  });
});
