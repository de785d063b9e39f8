/**
 * The page classifier's seed 002 and 004 methods: mutual information and ITFIDF worked by hand,
 * knowledge-base expansion, and each method separating held-out pages of the loopback site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureWeights, itfidfCounts, zoneWeightedTf } from '../../../companion/page-classifier/itfidf.ts';
import { mutualInformation } from '../../../companion/page-classifier/mutual-information.ts';
import { PAGE_METHODS, PageClassifier, pageTextOf, type LabeledPageText } from '../../../companion/page-classifier/page-classifier.ts';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import { parseKnowledgeBase } from '../../../shared/features/knowledge-base.ts';
import { segmentsFromHtml } from '../../../shared/segments/from-html.ts';
import type { PageSegments } from '../../../shared/segments/types.ts';
import type { Tokenizer } from '../../../shared/tokens/types.ts';
import { startTopicSite, type TopicSite } from '../support/topic-site.ts';

const words: Tokenizer = { tokenize: (text) => text.split(/\s+/u).filter((word) => word !== '') };

describe('mutualInformation (seed 002 §3.1)', () => {
  it('is max over classes of log(P(t ∧ c) / (P(t)·P(c)))', () => {
    // 4 documents, 2 per class. a: in both positives → log((2/4) / ((2/4)·(2/4))) = ln 2.
    // b: in one positive and one negative → log((1/4) / ((2/4)·(2/4))) = ln 1 = 0 for each class.
    // c: in the one positive → log((1/4) / ((1/4)·(2/4))) = ln 2.
    const mi = mutualInformation([
      { features: ['a', 'b', 'c'], label: 1 },
      { features: ['a'], label: 1 },
      { features: ['b'], label: 0 },
      { features: [], label: 0 },
    ]);
    expect(mi.get('a')).toBeCloseTo(Math.LN2, 12);
    expect(mi.get('b')).toBeCloseTo(0, 12);
    expect(mi.get('c')).toBeCloseTo(Math.LN2, 12);
  });
});

describe('ITFIDF (seed 002 §3.2)', () => {
  it('weighs title 4, keywords and description 3, anchors 2, body 1', () => {
    const tf = zoneWeightedTf({ title: 'x', keywords: 'x y', description: 'y', anchors: 'z', text: 'x z' }, words);
    expect(Object.fromEntries(tf)).toEqual({ 'w:x': 4 + 3 + 1, 'w:y': 3 + 3, 'w:z': 2 + 1 });
  });

  it('counts tf·idf·IG in tenths', () => {
    // 2 documents: w:x in one (idf ln 2), w:y in both (idf 0). IG(x) = 1 bit (given).
    const docs = [new Map([['w:x', 3], ['w:y', 1]]), new Map([['w:y', 2]])];
    const weights = featureWeights(['w:x', 'w:y'], docs, new Map([['w:x', 1], ['w:y', 1]]));
    expect(weights.get('w:x')).toBeCloseTo(Math.LN2, 12);
    expect(weights.get('w:y')).toBe(0);
    // w(x, d1) = 3 · 0.6931 · 1 = 2.079 → 21 tenths; y weighs 0 and is left out.
    expect(Object.fromEntries(itfidfCounts(docs[0]!, weights))).toEqual({ 'w:x': 21 });
  });
});

describe('pageTextOf by method', () => {
  const page = segmentsFromHtml('<title>T</title><nav><a href=/a>首页</a></nav><p>正文一句。</p><div>没有标点的 div</div>', 'http://x.test/');
  it('zones and itfidf: body runs without anchors, anchors apart; extracted: the main content', () => {
    expect(pageTextOf(page)).toMatchObject({ title: 'T', anchors: '首页', text: '正文一句。\n没有标点的 div' });
    expect(pageTextOf(page, 'extracted')).toMatchObject({ title: 'T', anchors: '首页', text: '正文一句。' });
  });
});

describe('the extracted method (seed 004 §4.3)', () => {
  const base = parseKnowledgeBase('missile: rocket\nradar\n', 'kb');
  const text = (body: string) => ({ title: '', text: body });
  const pages: LabeledPageText[] = [
    { text: text('missile launch'), label: 1 },
    { text: text('missile test'), label: 1 },
    { text: text('football match'), label: 0 },
    { text: text('football score'), label: 0 },
  ];

  it('keeps every knowledge-base term in every zone whatever its IG, and expands pages that mention a term', () => {
    const classifier = PageClassifier.train(pages, words, { topK: 1, method: 'extracted', knowledgeBase: base });
    // K = 1 by IG (b:football, b:missile tie at 1 bit; by name: football), then the knowledge base's tokens.
    expect(classifier.features).toEqual(['b:football', 't:missile', 'k:missile', 'b:missile', 't:rocket', 'k:rocket', 'b:rocket', 't:radar', 'k:radar', 'b:radar']);
    // "rocket" was never seen in training, but it is what a missile page is expanded with: a page
    // saying "missile" scores higher than the same page saying "rocket" only by the expansion.
    expect(classifier.relevance(text('missile'))).toBeGreaterThan(0.5);
    expect(classifier.relevance(text('football'))).toBeLessThan(0.5);
  });

  it('round-trips its knowledge base and itfidf its weights through the file', () => {
    for (const method of PAGE_METHODS) {
      const classifier = PageClassifier.train(pages, words, { topK: 10, method, knowledgeBase: base });
      const loaded = PageClassifier.fromFile(JSON.parse(JSON.stringify(classifier.toFile())), words);
      expect(loaded.method).toBe(method);
      for (const body of ['missile rocket', 'football', 'radar test']) expect(loaded.relevance(text(body))).toBeCloseTo(classifier.relevance(text(body)), 12);
    }
    expect(() => PageClassifier.fromFile({ ...PageClassifier.train(pages, words, { method: 'itfidf' }).toFile(), weights: [['w:x', 'no']] }, words)).toThrow(/"weights" must be/);
    expect(() => PageClassifier.fromFile({ ...PageClassifier.train(pages, words).toFile(), method: 'other' }, words)).toThrow(/"method" must be one of zones, extracted, itfidf/);
  });
});

describe('each method on the loopback site (finance against sports)', () => {
  const tokenizer = loadNodeTokenizer();
  let site: TopicSite;
  let labeled: { page: PageSegments; label: 0 | 1 }[];
  beforeAll(async () => {
    site = await startTopicSite();
    labeled = site.pages
      .filter((page) => page.topic !== null)
      .map((page) => ({ page: segmentsFromHtml(site.html(page.path), `${site.origin}${page.path}`), label: page.topic === 'finance' ? (1 as const) : (0 as const) }));
  });
  afterAll(() => site?.close());

  it.each(PAGE_METHODS)('%s: trained on two thirds, right on at least 90 %% of the held-out pages', (method) => {
    const train = labeled.filter((_, i) => i % 3 !== 0);
    const test = labeled.filter((_, i) => i % 3 === 0);
    const classifier = PageClassifier.train(train.map(({ page, label }) => ({ text: pageTextOf(page, method), label })), tokenizer, { topK: 200, method });
    const correct = test.filter(({ page, label }) => (classifier.judge(page) >= 0.5 ? 1 : 0) === label).length;
    expect(correct / test.length).toBeGreaterThanOrEqual(0.9);
  });
});
