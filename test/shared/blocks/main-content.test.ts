import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractMainContent, mainContentTexts } from '../../../shared/blocks/main-content.ts';
import { segmentsFromHtml } from '../../../shared/segments/from-html.ts';

const FIXTURE = join(import.meta.dirname, '../../fixtures/html/debian-faq-kernel-zh-cn.html');
const pageUrl = 'https://debian-faq-zh-cn.docs.test/usr/share/doc/debian/FAQ/zh-cn/kernel.zh-cn.html';

describe('extractMainContent (seed 004 §3.4) on a real page: Debian FAQ ch. 10, 内核', () => {
  const content = extractMainContent(segmentsFromHtml(readFileSync(FIXTURE, 'utf8'), pageUrl));

  it('keeps the title and the answers’ paragraphs, in page order, with links removed', () => {
    expect(content.title).toBe('第 10 章 Debian 和内核');
    expect(content.blocks).toHaveLength(10);
    expect(content.blocks[0]).toBe('可以。');
    expect(content.blocks[1]).toMatch(/^只有一个常见的坑：Debian C 运行库是用最新稳定版的内核头文件编译的。/);
    expect(content.blocks[5]).toBe('/etc/modules 配置文件包含了在引导时需要手动加载的模块列表。然而，很少需要编辑该文件。');
    // The last answer's paragraph ends in a link to the Kernel Handbook: its text goes (Step 2).
    expect(content.blocks[9]).toBe('更多信息，请参见。');
  });

  it('drops the navigation header and footer (td of links and chapter names), the table of contents (dt links), headings h2 and code (pre)', () => {
    expect(content.blocks).not.toContain('目录'); // the table of contents' heading, a p without punctuation
    const all = content.blocks.join('\n');
    for (const gone of ['上一页', '下一页', '起始页', '第 9 章 使您的 Debian 系统保持最新状态', '10.1. 我可以安装', 'make deb-pkg', 'dpkg --purge']) {
      expect(all).not.toContain(gone);
    }
  });

  it('drops an h1 without sentence punctuation (the chapter heading); the title carries it', () => {
    expect(content.blocks).not.toContain('第 10 章 Debian 和内核');
    expect(mainContentTexts(content)[0]).toBe('第 10 章 Debian 和内核');
  });
});

describe('extractMainContent rules', () => {
  const extract = (html: string) => extractMainContent(segmentsFromHtml(html, 'http://x.test/'));

  it('keeps p, li, td and h1 blocks with sentence punctuation, full-width or ASCII', () => {
    const html = '<h1>标题，有逗号</h1><p>一句话。</p><ul><li>列表项；</li></ul><table><tr><td>Cell, with comma</td></tr></table>' +
      '<h2>二级标题，也有逗号</h2><div>div 里的句子。</div><p>没有标点的段落</p>';
    expect(extract(html).blocks).toEqual(['标题，有逗号', '一句话。', '列表项；', 'Cell, with comma']);
  });

  it('keeps title, description and keywords from head', () => {
    const content = extract('<title>T</title><meta name=description content="D"><meta name=keywords content="K1,K2"><p>x</p>');
    expect(mainContentTexts(content)).toEqual(['T', 'D', 'K1,K2']);
  });
});
