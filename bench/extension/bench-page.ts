/**
 * The benchmark page: N links (5,000 by default) with Chinese anchors and the text around them,
 * laid out as a documentation portal: sections of a heading, a list of links with a line of
 * text after each (navigation-like, so a link's context is its neighbours' anchors) and
 * paragraphs with links inline in their original sentences (so a link's context is prose).
 *
 * Each run gets its own page: the same pool of contexts in another seeded order, with links to
 * `/r/<run>/<i>.html`, a path no topic pattern matches, so the links are scored, not labeled.
 */
import { extractContexts } from '../../shared/contexts/extract-contexts.ts';
import type { LinkContext } from '../../shared/contexts/types.ts';
import { seededRandom, seededShuffle } from '../../shared/random/seeded-random.ts';
import { segmentsFromHtml } from '../../shared/segments/from-html.ts';
import type { BenchContext } from './doc-pages.ts';

/** Links per section: the first `LIST_LINKS` in a list, the rest inline in paragraphs. */
const SECTION_LINKS = 100;
const LIST_LINKS = 60;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** Distinct contexts (anchor, before, after), in the pool's order. */
export function distinctContexts(pool: readonly BenchContext[]): BenchContext[] {
  const seen = new Set<string>();
  return pool.filter((c) => {
    const key = `${c.anchor}\u0000${c.before}\u0000${c.after}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface BenchPage {
  html: string;
  /** How many of the page's links come from on-topic packages. */
  onTopicSource: number;
}

/** The page for one run: `links` links drawn (cycling when the pool is smaller) in a seeded order. */
export function benchPage(pool: readonly BenchContext[], links: number, run: number): BenchPage {
  const order = seededShuffle(pool, 0x5eed + run);
  const picked = Array.from({ length: links }, (_, i) => order[i % order.length]!);
  const sections: string[] = [];
  let onTopicSource = 0;
  for (let start = 0, section = 0; start < picked.length; start += SECTION_LINKS, section++) {
    const chunk = picked.slice(start, start + SECTION_LINKS);
    const heading = escapeHtml(chunk[0]!.title || `第 ${section + 1} 节`);
    const intro = escapeHtml(chunk.find((c) => c.before.length > 20)?.before ?? chunk[0]!.before);
    const href = (i: number) => `/r/${run}/${start + i}.html`;
    const items = chunk
      .slice(0, LIST_LINKS)
      .map((c, i) => `<li><a href="${href(i)}">${escapeHtml(c.anchor)}</a> <span>${escapeHtml(c.after.slice(0, 30))}</span></li>`)
      .join('\n');
    const prose = chunk
      .slice(LIST_LINKS)
      .map((c, i) => `<p>${escapeHtml(c.before)}<a href="${href(LIST_LINKS + i)}">${escapeHtml(c.anchor)}</a>${escapeHtml(c.after)}</p>`)
      .join('\n');
    onTopicSource += chunk.filter((c) => c.onTopic).length;
    sections.push(`<section><h2>${heading}</h2>\n<p>${intro}</p>\n<ul>\n${items}\n</ul>\n${prose}\n</section>`);
  }
  const html =
    `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>文档门户 ${run}</title>` +
    `<style>body{font:15px/1.6 sans-serif;max-width:60em;margin:auto}section{margin:2em 0}</style></head>` +
    `<body><h1>文档门户</h1>\n${sections.join('\n')}\n</body></html>`;
  return { html, onTopicSource };
}

/** The page's link contexts as the content script computes them (the same shared stages). */
export function pageContexts(html: string, pageUrl: string, window = 80): LinkContext[] {
  return extractContexts(segmentsFromHtml(html, pageUrl), { window });
}

/**
 * Generated stand-in for the Debian documentation (when bench/data/sites is absent): anchors
 * and sentences from two small vocabularies, packaging (on topic) and image editing (off).
 */
export function generatedPool(size: number): BenchContext[] {
  const on = ['软件包', '安装', '内核', '仓库', '依赖', '维护者', '打包', '源代码', '系统', '升级', '配置文件', '命令行'];
  const off = ['图像', '滤镜', '图层', '画笔', '颜色', '选区', '表格', '公式', '幻灯片', '字体', '打印', '图表'];
  const glue = ['的', '和', '如何', '使用', '设置', '说明', '关于', '常见问题'];
  const random = seededRandom(7);
  const pick = (words: readonly string[]) => words[Math.floor(random() * words.length)]!;
  const phrase = (words: readonly string[], n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? pick(glue) : pick(words))).join('');
  return Array.from({ length: size }, (_, i) => {
    const words = i % 3 === 0 ? on : off;
    return {
      site: i % 3 === 0 ? 'generated-on' : 'generated-off',
      onTopic: i % 3 === 0,
      title: phrase(words, 3),
      anchor: phrase(words, 3),
      before: `${phrase(words, 9)}。`,
      after: `${phrase(words, 9)}。`,
    };
  });
}
