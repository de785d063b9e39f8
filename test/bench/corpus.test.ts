/**
 * The benchmarks' corpus loader (bench/support/corpus.ts) on a small tree shaped like
 * bench/data/sites: which files it takes, in what order, at what URL, and how it decodes them.
 * No timing here: the benches measure, the tests only check that they read the right pages.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptedRange,
  CHINESE_PACKAGE,
  CHINESE_PACKAGES,
  corpusProblem,
  countPages,
  EXPECTED_PAGES,
  listCorpusFiles,
  listSites,
  loadCorpus,
  pageUrlOf,
  siteHost,
} from '../../bench/support/corpus.ts';
import { segmentsFromHtml } from '../../shared/segments/from-html.ts';

let sites: string;

function write(path: string, content: string | Buffer): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

beforeAll(() => {
  sites = mkdtempSync(join(tmpdir(), 'linkscent-corpus-'));
  const help = join(sites, 'libreoffice-help-zh-cn/usr/share/help/zh-CN/text');
  write(join(help, 'scalc/main.html'), '<meta charset="utf-8"><title>计算</title><p>见 <a href="../swriter/b.html">文字处理</a></p>');
  write(join(help, 'swriter/b.html'), '<html><body><a href="../scalc/main.html">电子表格</a></body></html>');
  write(join(help, 'swriter/b.html.gz'), 'not html');
  write(join(help, 'swriter/notes.txt'), 'not html');
  // A GBK page labelled in its meta tag, as legacy Chinese sites are.
  write(join(sites, 'maint-guide-zh-cn/index.htm'), iconv.encode('<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><p>维护者指南</p>', 'gbk'));
  write(join(sites, 'python3.11-doc/index.html'), '<p>English</p>');
  mkdirSync(join(sites, 'gimp-help-zh-cn.tmp'), { recursive: true }); // a half-unpacked package
  write(join(sites, 'gimp-help-zh-cn.tmp/a.html'), '<p>half</p>');
  symlinkSync('does-not-exist', join(help, 'dangling.html'));
  symlinkSync(join(help, 'scalc'), join(help, 'linked-folder')); // not followed: no duplicates
});

afterAll(() => rmSync(sites, { recursive: true, force: true }));

describe('bench corpus loader', () => {
  it('takes the Chinese packages only, by package name', () => {
    expect(['libreoffice-help-zh-cn', 'lilypond-doc-html-zh', 'maint-guide-zh-tw'].every((name) => CHINESE_PACKAGE.test(name))).toBe(true);
    expect(['python3.11-doc', 'zhuyin-doc', 'debian-reference-es'].some((name) => CHINESE_PACKAGE.test(name))).toBe(false);
    expect(listSites(sites)).toEqual(['libreoffice-help-zh-cn', 'maint-guide-zh-cn', 'python3.11-doc']);
  });

  it('lists HTML files in a fixed order at stable synthetic URLs, skipping dangling links and linked folders', () => {
    const files = listCorpusFiles({ sitesDir: sites });
    expect(files.map((file) => file.url)).toEqual([
      'https://libreoffice-help-zh-cn.docs.test/usr/share/help/zh-CN/text/scalc/main.html',
      'https://libreoffice-help-zh-cn.docs.test/usr/share/help/zh-CN/text/swriter/b.html',
      'https://maint-guide-zh-cn.docs.test/index.htm',
    ]);
    expect(listCorpusFiles({ sitesDir: sites, site: () => true }).map((file) => file.site)).toContain('python3.11-doc');
    expect(listCorpusFiles({ sitesDir: sites, limit: 1 })).toHaveLength(1);
  });

  it('makes host names from package names and percent-encodes paths', () => {
    expect(siteHost('python3.11-doc')).toBe('python3-11-doc.docs.test');
    expect(pageUrlOf('gimp-help-zh-cn', 'a b/文件.html')).toBe('https://gimp-help-zh-cn.docs.test/a%20b/%E6%96%87%E4%BB%B6.html');
  });

  it('decodes by meta charset, counts pages and bytes, and the pages link to each other', () => {
    const corpus = loadCorpus({ sitesDir: sites });
    expect(corpus.pages).toHaveLength(3);
    expect(corpus.totalBytes).toBe(corpus.pages.reduce((sum, page) => sum + page.bytes, 0));
    expect(corpus.sites.get('libreoffice-help-zh-cn')?.pages).toBe(2);
    const gbk = corpus.pages.find((page) => page.site === 'maint-guide-zh-cn')!;
    expect(gbk).toMatchObject({ charset: 'gb18030', charsetSource: 'meta' });
    expect(gbk.html).toContain('维护者指南');
    expect(corpus.charsets.get('gb18030 (meta)')).toBe(1);

    const calc = corpus.pages[0]!;
    const links = segmentsFromHtml(calc.html, calc.url).segments.filter((segment) => segment.kind === 'link');
    expect(links).toEqual([expect.objectContaining({ url: corpus.pages[1]!.url, anchor: '文字处理' })]);
  });

  it('gives an empty corpus, not an error, when the sites folder is missing', () => {
    expect(loadCorpus({ sitesDir: join(sites, 'missing') }).pages).toEqual([]);
  });
});

describe('the corpus counts the benches expect', () => {
  const expected = () => new Map(Object.entries(EXPECTED_PAGES));

  it('accepts the expected counts and any within ±10%, rounded outwards', () => {
    expect(corpusProblem('bench', Object.keys(EXPECTED_PAGES), expected())).toBeUndefined();
    expect(acceptedRange(2561)).toEqual([2304, 2818]);
    expect(acceptedRange(1)).toEqual([0, 2]);
    const near = expected().set('libreoffice-help-zh-cn', 2304);
    expect(corpusProblem('bench', CHINESE_PACKAGES, near)).toBeUndefined();
  });

  it('names a missing package, a count out of range and a package it has no count for, in one line', () => {
    const missing = expected();
    missing.delete('gimp-help-zh-cn');
    expect(corpusProblem('pipeline-bench', CHINESE_PACKAGES, missing, '/sites')).toBe(
      'pipeline-bench: package gimp-help-zh-cn is missing from /sites; run bench/fetch-debian-docs.sh (remove a damaged package folder first)',
    );
    const half = expected().set('libreoffice-help-zh-cn', 1200);
    expect(corpusProblem('pipeline-bench', CHINESE_PACKAGES, half)).toMatch(/^pipeline-bench: package libreoffice-help-zh-cn has 1200 HTML pages, expected 2304–2818 \(2561 ± 10%\); [^\n]+$/);
    expect(corpusProblem('bench', ['libreoffice-help-zh-tw'], new Map([['libreoffice-help-zh-tw', 9]]))).toMatch(/no expected page count for package libreoffice-help-zh-tw/);
  });

  it('counts pages per package the way the loader reads them', () => {
    expect(countPages({ sitesDir: sites })).toEqual(new Map([['libreoffice-help-zh-cn', 2], ['maint-guide-zh-cn', 1]]));
    expect(CHINESE_PACKAGES).not.toContain('python3.11-doc');
    expect(CHINESE_PACKAGES.every((name) => CHINESE_PACKAGE.test(name))).toBe(true);
  });
});
