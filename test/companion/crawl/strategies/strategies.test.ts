import { describe, expect, it } from 'vitest';
import type { LinkContext } from '../../../../shared/contexts/types.ts';
import { extractContexts } from '../../../../shared/contexts/extract-contexts.ts';
import type { PageSegments } from '../../../../shared/segments/types.ts';
import { loadNodeTokenizer } from '../../../../companion/platform/jieba-node.ts';
import { createStrategy, STRATEGY_NAMES, StrategyConfigError } from '../../../../companion/crawl/strategies/index.ts';
import { structureFactor } from '../../../../companion/crawl/strategies/best-first-strategy.ts';
import { cosine, termVector } from '../../../../companion/crawl/strategies/term-vector.ts';
import { LinkScorer } from '../../../../shared/pipeline/link-scorer.ts';
import type { NaiveBayes } from '../../../../shared/model/naive-bayes.ts';
import type { FeatureSequence } from '../../../../shared/features/feature-list.ts';
import { NaiveBayes as NaiveBayesModel } from '../../../../shared/model/naive-bayes.ts';
import { futureReward, LevelClassifier } from '../../../../shared/model/level-classifier.ts';
import { BACK, createNbStrategy } from '../../../../companion/crawl/strategies/nb-strategy.ts';

const tokenizer = loadNodeTokenizer();

function pageOf(url: string, text: string): PageSegments {
  return {
    pageUrl: url,
    baseUrl: url,
    title: '',
    description: '',
    keywords: '',
    robots: { noindex: false, nofollow: false },
    segments: [{ kind: 'text', text }],
  };
}

const link = (url: string, anchor: string, pageUrl = 'http://a.test/finance/index.html'): LinkContext => ({ url, pageUrl, anchor, before: '', after: '' });

describe('createStrategy', () => {
  it('lists the valid names for an unknown one', () => {
    expect(() => createStrategy('dfs')).toThrow('unknown crawl strategy "dfs"; valid strategies: nb, bfs, best-first, lpe, best-first-extracted, rw, ipagerank, pagerank');
    expect(() => createStrategy('toString')).toThrow(StrategyConfigError);
    expect(STRATEGY_NAMES).toEqual(['nb', 'bfs', 'best-first', 'lpe', 'best-first-extracted', 'rw', 'ipagerank', 'pagerank']);
  });

  it('says what nb and best-first are missing', () => {
    expect(() => createStrategy('nb')).toThrow('strategy nb needs a model (--model FILE)');
    expect(() => createStrategy('best-first', { tokenizer })).toThrow(/needs a topic/);
    expect(() => createStrategy('best-first', { tokenizer, topicText: '股票', alpha: 1.5 })).toThrow(/alpha must lie in \[0, 1\]/);
  });

  it('says what lpe and best-first-extracted are missing, in one line each', () => {
    expect(() => createStrategy('lpe', { tokenizer })).toThrow('strategy lpe needs a topic (--topic "keywords…", --topic-file FILE or --topic-dir DIR --topic-name NAME)');
    expect(() => createStrategy('lpe', { topicText: '股票' })).toThrow('strategy lpe needs a tokenizer');
    expect(() => createStrategy('lpe', { tokenizer, topicText: '股票', lambda: 2 })).toThrow(StrategyConfigError);
    expect(() => createStrategy('best-first-extracted', {})).toThrow('strategy best-first-extracted needs a topic (--topic "keywords…", --topic-file FILE or --topic-dir DIR --topic-name NAME)');
    expect(() => createStrategy('best-first-extracted', { tokenizer, topicText: '股票', alpha: -1 })).toThrow(/best-first-extracted: alpha must lie in \[0, 1\]/);
    expect(createStrategy('lpe', { tokenizer, topicText: '股票' }).name).toBe('lpe');
    expect(createStrategy('best-first-extracted', { tokenizer, topicText: '股票' }).name).toBe('best-first-extracted');
  });
});

describe('nb', () => {
  it('scores P(+|context) from the LinkScorer and extracts contexts with the model\'s window', () => {
    // The model is the only stand-in here: a fixed rule over the real pipeline's features.
    // The crawl asks it of the link's listed features (`NaiveBayes.scoreSequence`).
    const model = { scoreSequence: (x: FeatureSequence) => ({ p: x.names.slice(0, x.length).includes('a:股票') ? 0.9 : 0.2, logOdds: 0, top: [] }) } as unknown as NaiveBayes;
    const scorer = new LinkScorer({ tokenizer, model, features: { group: 1, lexicon: [], urlTokens: false }, window: 5 });
    const nb = createStrategy('nb', { scorer, modelFingerprint: 'abc' });
    const page = pageOf('http://a.test/', '');
    page.segments = [
      { kind: 'text', text: '一二三四五六七八九十' },
      { kind: 'link', url: 'http://a.test/s', anchor: '股票', nofollow: false },
      { kind: 'link', url: 'http://a.test/f', anchor: '足球', nofollow: false },
    ];
    expect(nb.contextWindow).toBe(5);
    const contexts = extractContexts(page, { window: nb.contextWindow });
    expect(contexts.map((c) => c.before)).toEqual(['六七八九十', '股票']);
    expect(nb.scoreLinks({ url: page.pageUrl, page, depth: 0, score: 1 }, contexts)).toEqual([0.9, 0.2]);
    expect(nb).toMatchObject({ name: 'nb', seedScore: 1, fingerprint: 'abc' });
  });
});

describe('nb with future value, exploit/explore and the topic\'s patterns', () => {
  // The models are real Naive Bayes counts over the real pipeline's features, trained by hand.
  const scorer = (model: NaiveBayesModel) => new LinkScorer({ tokenizer, model, features: { group: 1, lexicon: [], urlTokens: false }, window: 5 });
  const trained = () => {
    const links = new NaiveBayesModel({ form: 'multinomial' });
    const levels = new LevelClassifier();
    const s = scorer(links);
    const add = (anchor: string, label: 0 | 1, level: number) => {
      const x = s.featuresOf(link('http://a.test/x', anchor));
      links.add(x, label);
      levels.add(x, level);
    };
    for (let i = 0; i < 2; i++) add('股票 行情', 1, 0);
    for (let i = 0; i < 3; i++) add('财经 频道', 0, 1);
    for (let i = 0; i < 6; i++) add('体育 频道', 0, 3);
    for (let i = 0; i < 6; i++) add('娱乐 新闻', 0, 3);
    return { s, levels };
  };

  it('values a link by P(+) + (1 − P(+))·E[γ^d | d ≥ 1]', () => {
    const { s, levels } = trained();
    const nb = createNbStrategy({ scorer: s, levels, gamma: 0.5, r2: null });
    const hub = link('http://a.test/finance/', '财经 频道');
    const x = s.featuresOf(hub);
    const p = s.model.score(x, 0).p;
    const [value] = nb.scoreLinks({ url: hub.pageUrl, page: pageOf(hub.pageUrl, ''), depth: 0, score: 1 }, [hub]);
    // To the last bit: the strategy lists the link's features once for both classifiers, the
    // vector path builds them into a Map; the sums are the same, in the same order.
    expect(value).toBe(p + (1 - p) * futureReward(levels.posterior(x), 0.5));
    // The hub one hop from the topic outranks the sports channel, whose P(+) is about as low.
    const [sports] = nb.scoreLinks({ url: hub.pageUrl, page: pageOf(hub.pageUrl, ''), depth: 0, score: 1 }, [link('http://a.test/sports/', '体育 频道')]);
    expect(value).toBeGreaterThan(sports! + 0.2);
  });

  it('sends links below r2 on an off-topic page to the back, keeps them on an on-topic one', () => {
    const { s, levels } = trained();
    const nb = createNbStrategy({ scorer: s, levels, r2: 0.1 });
    // Words only ever seen three hops or more from the topic.
    const sports = link('http://a.test/ent/', '娱乐 新闻');
    const parent = (onTopic: boolean) => ({ url: sports.pageUrl, page: pageOf(sports.pageUrl, ''), depth: 0, score: 1, onTopic });
    const [kept] = nb.scoreLinks(parent(true), [sports]);
    const [back] = nb.scoreLinks(parent(false), [sports]);
    expect(kept).toBeLessThan(0.1);
    expect(back).toBeCloseTo(kept! - BACK, 12);
    expect(nb.rescore!({ url: sports.url, parent: sports.pageUrl, viaOnTopic: false, context: sports, score: 0, depth: 1, host: 'a.test', seq: 1, discoveredAt: 0, state: 'queued', reason: null })).toBeCloseTo(back!, 12);
  });

  it('gives a link the topic\'s patterns match P(+) = 1, whatever its words', () => {
    const { s, levels } = trained();
    const nb = createNbStrategy({ scorer: s, levels, onTopicUrl: (url) => url.includes('/stock/') });
    const [value] = nb.scoreLinks({ url: 'http://a.test/', page: pageOf('http://a.test/', ''), depth: 0, score: 1 }, [link('http://a.test/stock/1', '体育 频道')]);
    expect(value).toBe(1);
  });
});

describe('bfs', () => {
  it('scores −depth so shallower is sooner, seeds (depth 0) above every child', () => {
    const bfs = createStrategy('bfs');
    const parent = { url: 'http://a.test/', page: pageOf('http://a.test/', ''), depth: 2, score: -2 };
    expect(bfs.scoreLinks(parent, [link('http://a.test/x', 'x'), link('http://b.test/y', 'y')])).toEqual([-3, -3]);
    expect(bfs.seedScore).toBe(0);
  });
});

describe('best-first (seed 004 eq. 5-4)', () => {
  it('k is 1 under the parent directory, ½ elsewhere on the host, 0 off host', () => {
    const parent = 'http://a.test/finance/index.html';
    expect(structureFactor(parent, 'http://a.test/finance/2024/1.html')).toBe(1);
    expect(structureFactor(parent, 'http://a.test/sports/1.html')).toBe(0.5);
    expect(structureFactor(parent, 'http://b.test/finance/1.html')).toBe(0);
    expect(structureFactor('http://a.test/', 'http://a.test/anything')).toBe(1);
  });

  it('computes v = α(1+k)·sim(parent) + β·sim(anchor) with α = 0.6 by default', () => {
    const topic = '股票 基金';
    const s = createStrategy('best-first', { tokenizer, topicText: topic });
    const page = pageOf('http://a.test/finance/index.html', '股票 股票 足球');
    const parent = { url: page.pageUrl, page, depth: 0, score: 1.6 };
    const topicV = termVector(tokenizer, topic);
    const simParent = cosine(termVector(tokenizer, '股票 股票 足球'), topicV);
    const simAnchor = cosine(termVector(tokenizer, '基金'), topicV);
    expect(simParent).toBeCloseTo(2 / (Math.sqrt(5) * Math.sqrt(2)), 12);
    const [same, host, off] = s.scoreLinks(parent, [
      link('http://a.test/finance/1.html', '基金'),
      link('http://a.test/sports/1.html', '基金'),
      link('http://b.test/x', '基金'),
    ]);
    expect(same).toBeCloseTo(0.6 * 2 * simParent + 0.4 * simAnchor, 12);
    expect(host).toBeCloseTo(0.6 * 1.5 * simParent + 0.4 * simAnchor, 12);
    expect(off).toBeCloseTo(0.6 * simParent + 0.4 * simAnchor, 12);
    expect(s.seedScore).toBeCloseTo(1.6, 12);
  });

  it('ranks an on-topic anchor above an off-topic one on the same parent', () => {
    const s = createStrategy('best-first', { tokenizer, topicText: '股票 基金 银行 利率', alpha: 0.5 });
    const page = pageOf('http://a.test/', '新闻');
    const [on, offTopic] = s.scoreLinks({ url: page.pageUrl, page, depth: 0, score: 1 }, [
      link('http://a.test/1', '银行下调利率'),
      link('http://a.test/2', '国足主场取胜'),
    ]);
    expect(on).toBeGreaterThan(offTopic!);
    expect(offTopic).toBe(0);
  });
});
