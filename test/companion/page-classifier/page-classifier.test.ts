import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageClassifier, PAGE_MODEL_KIND, pageTextOf, type LabeledPageText } from '../../../companion/page-classifier/page-classifier.ts';
import { createPageJudge, loadPageClassifier } from '../../../companion/page-classifier/page-judge.ts';
import { parseLabeledPages } from '../../../companion/page-classifier/labeled-pages.ts';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import { segmentsFromHtml } from '../../../shared/segments/from-html.ts';
import { startTopicSite, type TopicSite } from '../support/topic-site.ts';

const tokenizer = loadNodeTokenizer();
let site: TopicSite;
let labeled: (LabeledPageText & { path: string })[];

beforeAll(async () => {
  site = await startTopicSite();
  labeled = site.pages
    .filter((page) => page.topic !== null)
    .map((page) => ({
      path: page.path,
      text: pageTextOf(segmentsFromHtml(site.html(page.path), `${site.origin}${page.path}`)),
      label: page.topic === 'finance' ? (1 as const) : (0 as const),
    }));
});
afterAll(() => site?.close());

describe('pageTextOf', () => {
  it('takes title and meta from the page and body text without link anchors', () => {
    const page = segmentsFromHtml(site.html('/finance/1.html'), `${site.origin}/finance/1.html`);
    const text = pageTextOf(page);
    expect(text.title).toBe('央行下调存款准备金率 - 新闻网');
    expect(text.keywords).toBe('财经,股票,基金,银行,利率');
    expect(text.text).toContain('货币政策保持稳健');
    expect(text.text).not.toContain('首页'); // a nav-bar anchor
  });
});

describe('PageClassifier (seed 004: IG selection + Laplace multinomial NB)', () => {
  it('keeps at most K features, chosen by information gain', () => {
    const classifier = PageClassifier.train(labeled, tokenizer, { topK: 20 });
    expect(classifier.features).toHaveLength(20);
    expect(classifier.trainedOn).toMatchObject({ pages: 26, positives: 13, negatives: 13 });
    expect(classifier.trainedOn.candidates).toBeGreaterThan(20);
    // Words every page has (the site name in every title) carry no information.
    expect(classifier.features).not.toContain('t:新闻网');
  });

  it('separates held-out pages: trained on two thirds, right on every held-out page', () => {
    const train = labeled.filter((_, i) => i % 3 !== 0);
    const test = labeled.filter((_, i) => i % 3 === 0);
    const classifier = PageClassifier.train(train, tokenizer, { topK: 200 });
    const correct = test.filter((page) => (classifier.relevance(page.text) >= 0.5 ? 1 : 0) === page.label).length;
    expect(correct / test.length).toBeGreaterThanOrEqual(0.9);
  });

  it('round-trips through its file: the same relevance for every page', () => {
    const classifier = PageClassifier.train(labeled, tokenizer, { topK: 100 });
    const json = JSON.parse(JSON.stringify(classifier.toFile()));
    expect(json.kind).toBe(PAGE_MODEL_KIND);
    const loaded = PageClassifier.fromFile(json, tokenizer);
    for (const page of labeled) expect(loaded.relevance(page.text)).toBeCloseTo(classifier.relevance(page.text), 12);
  });

  it('as a page judge, scores the crawler\'s parsed pages the way training saw them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkscent-page-model-'));
    const path = join(dir, 'page-model.json');
    writeFileSync(path, JSON.stringify(PageClassifier.train(labeled, tokenizer).toFile()));
    const judge = createPageJudge(loadPageClassifier(path, tokenizer));
    const page = segmentsFromHtml(site.html('/sports/3.html'), `${site.origin}/sports/3.html`);
    expect(await judge(page)).toBeLessThan(0.5);
  });

  it('refuses files that are not page models, in one line naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkscent-page-model-'));
    const notJson = join(dir, 'a.json');
    writeFileSync(notJson, '{');
    expect(() => loadPageClassifier(notJson, tokenizer)).toThrow(/a\.json is not JSON/);
    const other = join(dir, 'b.json');
    writeFileSync(other, JSON.stringify({ formatName: 'dexie' }));
    expect(() => loadPageClassifier(other, tokenizer)).toThrow(/b\.json: not a page model/);
    expect(() => loadPageClassifier(join(dir, 'none.json'), tokenizer)).toThrow(/cannot read .*none\.json: no such file/);
  });
});

describe('parseLabeledPages', () => {
  it('accepts {url, label} and {url, html, label}, and names each bad line', () => {
    const text = [
      JSON.stringify({ url: 'http://a.cn/1', label: 1 }),
      JSON.stringify({ url: 'http://a.cn/2', html: '<p>x</p>', label: 0 }),
      '',
      'nope',
      JSON.stringify({ url: 'ftp://a.cn/3', label: 1 }),
      JSON.stringify({ url: 'http://a.cn/4', label: true }),
    ].join('\n');
    const { pages, problems } = parseLabeledPages(text, 'p.jsonl');
    expect(pages).toEqual([
      { url: 'http://a.cn/1', label: 1 },
      { url: 'http://a.cn/2', html: '<p>x</p>', label: 0 },
    ]);
    expect(problems).toEqual([
      'p.jsonl:4: not JSON',
      'p.jsonl:5: field "url" must be an http(s) URL when there is no "html", got "ftp://a.cn/3"',
      'p.jsonl:6: field "label" must be 0 or 1, got true',
    ]);
  });
});
