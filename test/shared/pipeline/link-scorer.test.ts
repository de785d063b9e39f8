/**
 * The one scorer both halves use: a topic's scorer featurises as the topic says (group, lexicon,
 * URL tokens, window), trains and scores through the same `featuresOf`, and its explanation depth
 * is the scorer's unless a call asks for another.
 */
import { describe, expect, it } from 'vitest';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import type { LinkContext } from '../../../shared/contexts/types.ts';
import { linkFeatures } from '../../../shared/features/link-features.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { Topic } from '../../../shared/model/types.ts';
import { LinkScorer } from '../../../shared/pipeline/link-scorer.ts';
import { segmentsFromHtml } from '../../../shared/segments/from-html.ts';

const tokenizer = loadNodeTokenizer();

const topic: Topic = {
  id: 'finance',
  name: '财经',
  lexicon: ['股票'],
  positive: [],
  negative: [],
  threshold: 0.5,
  featureGroup: 2,
  form: 'multinomial',
  window: 6,
  urlTokens: true,
};

const link = (anchor: string, url: string, before = '', after = ''): LinkContext => ({
  url,
  pageUrl: 'https://portal.example.net/',
  anchor,
  before,
  after,
});

const examples = [
  { ...link('股票 行情 上涨', 'https://finance.example.org/a'), label: 1 as const },
  { ...link('基金 投资 收益', 'https://finance.example.org/b'), label: 1 as const },
  { ...link('足球 比赛 进球', 'https://sport.example.org/c'), label: 0 as const },
  { ...link('篮球 联赛 冠军', 'https://sport.example.org/d'), label: 0 as const },
];

function trained(): LinkScorer {
  const scorer = LinkScorer.forTopic(topic, new NaiveBayes({ form: topic.form }), tokenizer, 3);
  for (const example of examples) scorer.model.add(scorer.featuresOf(example), example.label);
  return scorer;
}

describe('LinkScorer', () => {
  it('featurises a topic’s links with the topic’s group, lexicon and URL tokens', () => {
    const context = link('今日股票', 'https://finance.example.org/stock', '新闻', '基金');
    const features = LinkScorer.forTopic(topic, new NaiveBayes({ form: topic.form }), tokenizer).featuresOf(context);
    expect(features).toEqual(linkFeatures(context, tokenizer, { group: 2, lexicon: ['股票'], urlTokens: true }));
    expect(features.get('lex:anchor')).toBe(1);
    expect([...features.keys()].some((name) => name.startsWith('u:'))).toBe(true);
  });

  it('scores with the model it trained through featuresOf, explaining as deep as asked', () => {
    const scorer = trained();
    const finance = scorer.score(link('股票 基金', 'https://finance.example.org/x'));
    const sport = scorer.score(link('足球 篮球', 'https://sport.example.org/y'));
    expect(finance.p).toBeGreaterThan(0.8);
    expect(sport.p).toBeLessThan(0.2);
    expect(finance.top).toHaveLength(3);
    expect(scorer.score(link('股票 基金', 'https://finance.example.org/x'), 0)).toMatchObject({ p: finance.p, top: [] });
    expect(finance).toEqual(scorer.model.score(scorer.featuresOf(link('股票 基金', 'https://finance.example.org/x')), 3));
  });

  it('explains a link as its score with that depth would, right after scoring it or not', () => {
    const scorer = trained();
    const finance = link('股票 基金 行情', 'https://finance.example.org/x', '足球', '基金');
    const sport = link('足球 篮球', 'https://sport.example.org/y');
    scorer.score(finance, 0);
    expect(scorer.explain(finance, 2)).toEqual(scorer.model.score(scorer.featuresOf(finance), 2).top);
    scorer.score(sport, 0);
    // Another link was scored since: its features must not stand in for this one's.
    expect(scorer.explain(finance, 5)).toEqual(scorer.model.score(scorer.featuresOf(finance), 5).top);
    expect(scorer.explain(sport, 5)).toEqual(scorer.model.score(scorer.featuresOf(sport), 5).top);
  });

  it('scores a whole page with the topic’s window, in page order', () => {
    const scorer = trained();
    const page = segmentsFromHtml(
      '<p>一二三四五六七八九十<a href="https://finance.example.org/s">股票</a></p><p><a href="/f">足球</a> 赛后 发言</p>',
      'https://portal.example.net/',
    );
    const scored = scorer.scorePage(page);
    expect(scored.map(({ url, before }) => ({ url, before }))).toEqual([
      { url: 'https://finance.example.org/s', before: '五六七八九十' },
      { url: 'https://portal.example.net/f', before: '股票' },
    ]);
    expect(scored.map((s) => s.score)).toEqual(scorer.contexts(page).map((context) => scorer.score(context)));
  });
});
