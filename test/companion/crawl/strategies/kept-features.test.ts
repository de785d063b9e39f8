import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_KEPT_ROWS, KeptFeatures } from '../../../../companion/crawl/strategies/kept-features.ts';
import { createNbStrategy } from '../../../../companion/crawl/strategies/nb-strategy.ts';
import { loadNodeTokenizer } from '../../../../companion/platform/jieba-node.ts';
import type { FrontierRow, LinkText } from '../../../../companion/store/records.ts';
import type { LinkContext } from '../../../../shared/contexts/types.ts';
import { FeatureList } from '../../../../shared/features/feature-list.ts';
import { futureReward, LevelClassifier } from '../../../../shared/model/level-classifier.ts';
import { NaiveBayes } from '../../../../shared/model/naive-bayes.ts';
import type { NbForm } from '../../../../shared/model/types.ts';
import { LinkScorer } from '../../../../shared/pipeline/link-scorer.ts';

const tokenizer = loadNodeTokenizer();
const GAMMA = 0.5;

const text = (anchor: string, before = '', after = ''): LinkText => ({ anchor, before, after });
const rowOf = (url: string, context: LinkText): FrontierRow & { context: LinkText } => ({
  seq: 1, url, score: 0, depth: 1, parent: 'http://a.test/index.html', host: new URL(url).host, discoveredAt: 0, state: 'queued', reason: null, context,
});
const contextOf = (row: FrontierRow & { context: LinkText }): LinkContext => ({ url: row.url, pageUrl: row.parent!, ...row.context });

/** A link model and a level classifier trained on `examples` (url, anchor, label, level), the scorer over them, and `learn` for more. */
function trainedModels(form: NbForm, version: 1 | 2, examples: readonly (readonly [string, string, 0 | 1, number])[]) {
  const links = new NaiveBayes({ form });
  const levels = new LevelClassifier();
  const scorer = new LinkScorer({ tokenizer, model: links, features: { group: 2, lexicon: ['股票'], urlTokens: true, version }, window: 20 });
  const learn = (url: string, anchor: string, label: 0 | 1, level: number) => {
    const x = scorer.featuresOf({ url, pageUrl: 'http://a.test/', anchor, before: '今日 财经', after: '' });
    links.add(x, label);
    levels.add(x, level);
    return x;
  };
  for (const [url, anchor, label, level] of examples) learn(url, anchor, label, level);
  return { links, levels, scorer, learn };
}

/** A link's value scored from scratch: its features built into a vector, both classifiers asked. */
function valueFromScratch(scorer: LinkScorer, levels: LevelClassifier, context: LinkContext, onTopicUrl: (url: string) => boolean): number {
  if (onTopicUrl(context.url)) return 1;
  const x = scorer.featuresOf(context);
  const p = scorer.model.score(x, 0).p;
  return p + (1 - p) * futureReward(levels.posterior(x), GAMMA);
}

describe('nb re-scoring with kept features', () => {
  /** Words, context, URL tokens and directories: words and attributes, both event models of `mixed`. */
  const setup = (form: NbForm) => trainedModels(form, 2, [
    ['http://a.test/stock/1.html', '股票 行情', 1, 0],
    ['http://a.test/finance/', '财经 频道', 0, 1],
    ['http://a.test/sports/2.html', '体育 频道', 0, 3],
    ['http://a.test/ent/3.html', '娱乐 新闻', 0, 3],
  ]);

  it.each(['mixed', 'multinomial', 'bernoulli'] as const)(
    '%s: equals scoring from scratch bit for bit, as the models learn features kept rows have and have not, a row changes text, and rows are evicted',
    (form) => {
      const { levels, scorer, learn } = setup(form);
      const onTopicUrl = (url: string) => url.includes('/stock/');
      const strategies = [2, DEFAULT_KEPT_ROWS].map((keptRows) => createNbStrategy({ scorer, levels, gamma: GAMMA, r2: null, onTopicUrl, keptRows }));
      const rows = [
        rowOf('http://a.test/finance/7.html', text('基金 净值', '财经', '频道')),
        rowOf('http://a.test/sports/8.html', text('足球 比分')),
        rowOf('http://a.test/stock/9.html', text('体育 频道')), // the patterns' link: 1, whatever its words
        rowOf('http://b.test/news/10.html', text('今日 要闻', '新闻')),
      ];
      const pass = () => {
        for (const nb of strategies) for (const row of rows) expect(nb.rescore!(row)).toBe(valueFromScratch(scorer, levels, contextOf(row), onTopicUrl));
      };
      pass();
      // Words the kept rows hold but the models had never seen (基金, 足球, b.test) become known…
      learn('http://b.test/fund/1.html', '基金 足球', 1, 0);
      pass();
      // …and words no row holds move every row's score through the denominators and priors.
      const x = learn('http://c.test/x.html', '天气 预报', 0, 2);
      pass();
      // A level moved (remove + add), as online learning moves a link closer to the topic.
      levels.remove(x, 2);
      levels.add(x, 1);
      pass();
      // An upsert from a better parent gives a queued row a new context: its features are listed again.
      rows[1] = { ...rows[1]!, context: { ...rows[1]!.context, after: '今日 财经' } };
      pass();
    },
  );

  it('asks the level classifier again only after its counts changed: what the link classifier learns alone leaves every future value as it was', () => {
    const { links, levels, scorer, learn } = setup('mixed');
    const posterior = vi.spyOn(levels, 'posteriorSequence');
    const onTopicUrl = (url: string) => url.includes('/stock/');
    const nb = createNbStrategy({ scorer, levels, gamma: GAMMA, r2: null, onTopicUrl });
    const rows = [
      rowOf('http://a.test/finance/7.html', text('基金 净值', '财经', '频道')),
      rowOf('http://a.test/sports/8.html', text('足球 比分')),
      rowOf('http://b.test/news/10.html', text('今日 要闻', '新闻')),
    ];
    /** How often re-scoring `row` asked the level classifier; its value checked against scoring from scratch. */
    const asked = (value: () => number, context: LinkContext) => {
      const before = posterior.mock.calls.length;
      const v = value();
      const calls = posterior.mock.calls.length - before;
      expect(v).toBe(valueFromScratch(scorer, levels, context, onTopicUrl));
      return calls;
    };
    const rescored = () => rows.map((row) => asked(() => nb.rescore!(row), contextOf(row)));
    const valuesBefore = rows.map((row) => valueFromScratch(scorer, levels, contextOf(row), onTopicUrl));
    expect(rescored()).toEqual([1, 1, 1]);
    expect(rescored()).toEqual([0, 0, 0]);
    // An online update's examples for the link classifier alone: every value moves (through P(+)), no future does.
    links.add(scorer.featuresOf({ url: 'http://b.test/fund/1.html', pageUrl: 'http://a.test/', anchor: '基金 足球', before: '', after: '' }), 1);
    expect(rows.map((row) => valueFromScratch(scorer, levels, contextOf(row), onTopicUrl))).not.toEqual(valuesBefore);
    expect(rescored()).toEqual([0, 0, 0]);
    // A level learned: every future is worked out again, once.
    learn('http://c.test/x.html', '天气 预报', 0, 2);
    expect(rescored()).toEqual([1, 1, 1]);
    expect(rescored()).toEqual([0, 0, 0]);
    // A new link's future, worked out when it is listed, serves it met again and its row's first re-scoring.
    const fresh = { url: 'http://a.test/finance/11.html', pageUrl: 'http://a.test/index.html', anchor: '基金 行情', before: '财经', after: '' };
    const parent = { url: fresh.pageUrl, page: undefined as never, depth: 0, score: 1 };
    expect(asked(() => nb.scoreLinks(parent, [fresh])[0]!, fresh)).toBe(1);
    links.add(scorer.featuresOf(fresh), 0);
    expect(asked(() => nb.scoreLinks(parent, [fresh])[0]!, fresh)).toBe(0);
    expect(asked(() => nb.rescore!({ ...rowOf(fresh.url, fresh), parent: fresh.pageUrl }), fresh)).toBe(0);
    levels.add(scorer.featuresOf(fresh), 1);
    expect(asked(() => nb.rescore!({ ...rowOf(fresh.url, fresh), parent: fresh.pageUrl }), fresh)).toBe(1);
  });

  it('lists a kept row\'s features again only when its text changed or it was evicted', () => {
    const { levels, scorer } = setup('mixed');
    const listed = vi.spyOn(scorer, 'listFeatures');
    const nb = createNbStrategy({ scorer, levels, r2: null, keptRows: 2 });
    const a = rowOf('http://a.test/a.html', text('基金 净值'));
    const b = rowOf('http://a.test/b.html', text('足球 比分'));
    const c = rowOf('http://a.test/c.html', text('今日 要闻'));
    nb.rescore!(a);
    nb.rescore!(b);
    expect(listed).toHaveBeenCalledTimes(2);
    nb.rescore!(a);
    nb.rescore!(b);
    expect(listed).toHaveBeenCalledTimes(2);
    nb.rescore!({ ...a, context: text('基金 净值', '', '更新') });
    expect(listed).toHaveBeenCalledTimes(3);
    // Two kept at most: c pushes out the least recently used, b; a stays.
    nb.rescore!(c);
    nb.rescore!({ ...a, context: text('基金 净值', '', '更新') });
    expect(listed).toHaveBeenCalledTimes(4);
    nb.rescore!(b);
    expect(listed).toHaveBeenCalledTimes(5);
  });
});

describe('nb: a link\'s features listed once, from its discovery to the update that learns from it', () => {
  const setup = (form: NbForm) => trainedModels(form, 1, [
    ['http://a.test/stock/1.html', '股票 行情', 1, 0],
    ['http://a.test/finance/', '财经 频道 财经', 0, 1],
    ['http://a.test/sports/2.html', '体育 频道', 0, 3],
  ]);
  const onTopicUrl = (url: string) => url.includes('/stock/');
  const page = 'http://a.test/index.html';
  const link = (url: string, anchor: string, before = '', after = ''): LinkContext => ({ url, pageUrl: page, anchor, before, after });
  const parent = { url: page, page: undefined as never, depth: 0, score: 1 };
  /** Each answer from scratch: the link's features built into a vector, the models asked through it. */
  const valueOf = (scorer: LinkScorer, levels: LevelClassifier, context: LinkContext) => valueFromScratch(scorer, levels, context, onTopicUrl);
  const logOddsOf = (scorer: LinkScorer, context: LinkContext) => scorer.model.score(scorer.featuresOf(context), 0).logOdds;

  it.each(['mixed', 'multinomial', 'bernoulli'] as const)(
    '%s: scores, re-scores, log-odds and features equal those from scratch, bit for bit, as the models learn and texts change',
    (form) => {
      const { levels, scorer, learn } = setup(form);
      const nb = createNbStrategy({ scorer, levels, gamma: GAMMA, r2: null, onTopicUrl });
      const contexts = [
        link('http://a.test/finance/7.html', '基金 净值 基金', '财经', '频道'),
        link('http://a.test/sports/8.html', '足球 比分'),
        link('http://a.test/stock/9.html', '体育 频道'), // the patterns' link: 1, whatever its words
      ];
      const check = () => {
        expect(nb.scoreLinks(parent, contexts)).toEqual(contexts.map((context) => valueOf(scorer, levels, context)));
        for (const context of contexts) {
          expect(nb.rescore!({ ...rowOf(context.url, context), parent: page })).toBe(valueOf(scorer, levels, context));
          expect(nb.linkLogOdds!(context)).toBe(logOddsOf(scorer, context));
          expect([...nb.linkFeatures!(context)!]).toEqual([...scorer.featuresOf(context)]);
        }
      };
      check();
      learn('http://b.test/fund/1.html', '基金 足球', 1, 0);
      check();
      // Met again on another page with other words around it: listed again, for that text.
      contexts[0] = { ...contexts[0]!, after: '今日 要闻' };
      check();
      learn('http://c.test/x.html', '天气 预报', 0, 2);
      check();
    },
  );

  it('lists a new link once for its value, its row\'s re-score, its log-odds and its features; a pattern link once, when claimed', () => {
    const { levels, scorer } = setup('mixed');
    const listed = vi.spyOn(scorer, 'listFeatures');
    const nb = createNbStrategy({ scorer, levels, r2: null, onTopicUrl });
    const plain = link('http://a.test/finance/7.html', '基金 净值');
    const pattern = link('http://a.test/stock/9.html', '股票 行情');
    nb.scoreLinks(parent, [plain, pattern]);
    expect(listed).toHaveBeenCalledTimes(1);
    nb.rescore!({ ...rowOf(plain.url, plain), parent: page });
    nb.rescore!({ ...rowOf(pattern.url, pattern), parent: page });
    nb.linkLogOdds!(plain);
    expect(nb.linkFeatures!(plain)).toBeDefined();
    expect(listed).toHaveBeenCalledTimes(1);
    // The patterns valued it without features; the log-odds need them, and the update then finds them.
    expect(nb.linkFeatures!(pattern)).toBeUndefined();
    nb.linkLogOdds!(pattern);
    expect(listed).toHaveBeenCalledTimes(2);
    expect(nb.linkFeatures!(pattern)).toBeDefined();
    // A link never met, or met with another text: nothing kept of it.
    expect(nb.linkFeatures!(link('http://a.test/other.html', '基金 净值'))).toBeUndefined();
    expect(nb.linkFeatures!({ ...plain, before: '今日' })).toBeUndefined();
    // Explanations list their own, as `linkscent why` always did.
    nb.explain!(plain, true, 3);
    expect(listed).toHaveBeenCalledTimes(3);
  });

  it('keeps a claimed link\'s features for the update that learns from it, after new links pushed it out of the listed ones', () => {
    const { levels, scorer } = setup('mixed');
    const listed = vi.spyOn(scorer, 'listFeatures');
    const nb = createNbStrategy({ scorer, levels, r2: null, onTopicUrl, keptRows: 0, listedRows: 1 });
    const plain = link('http://a.test/finance/7.html', '基金 净值 基金');
    const pattern = link('http://a.test/stock/9.html', '股票 行情');
    nb.scoreLinks(parent, [plain]);
    nb.linkLogOdds!(plain);
    nb.linkLogOdds!(pattern);
    expect(listed).toHaveBeenCalledTimes(2);
    nb.scoreLinks(parent, [link('http://a.test/a.html', '体育'), link('http://a.test/b.html', '足球')]);
    expect(listed).toHaveBeenCalledTimes(4);
    expect([...nb.linkFeatures!(plain)!]).toEqual([...scorer.featuresOf(plain)]);
    expect([...nb.linkFeatures!(pattern)!]).toEqual([...scorer.featuresOf(pattern)]);
    expect(listed).toHaveBeenCalledTimes(4);
  });

  it('keeps at most listedRows links, the least recently listed or met out first', () => {
    const { levels, scorer } = setup('mixed');
    const listed = vi.spyOn(scorer, 'listFeatures');
    const nb = createNbStrategy({ scorer, levels, r2: null, listedRows: 2 });
    const [a, b, c] = ['a', 'b', 'c'].map((name) => link(`http://a.test/${name}.html`, '基金 净值'));
    nb.scoreLinks(parent, [a!, b!]);
    nb.scoreLinks(parent, [a!]); // met again: a is now the most recent
    nb.scoreLinks(parent, [c!]); // pushes out b
    expect(listed).toHaveBeenCalledTimes(3);
    nb.scoreLinks(parent, [a!, c!]);
    expect(listed).toHaveBeenCalledTimes(3);
    nb.scoreLinks(parent, [b!]);
    expect(listed).toHaveBeenCalledTimes(4);
  });
});

describe('KeptFeatures', () => {
  const listOf = (names: readonly string[], counted = false) => {
    // No admission: every feature has its slot at its first sighting, so the list's memos are all there to share.
    const list = new FeatureList(undefined, 0);
    list.begin(counted);
    for (const name of names) list.add(name.slice(0, 2), name.slice(2));
    return list;
  };

  it('gives back the names, counts and attributes it kept, in order, and the list\'s memos', () => {
    const kept = new KeptFeatures(4);
    const list = listOf(['a:基金', 'u:calc', 'a:基金', 'd:a.test/x/', 'c:净值'], true);
    kept.keep('http://a.test/1', text('基金'), false, list);
    const again = kept.get('http://a.test/1', text('基金'))!;
    const sequence = kept.sequence(again);
    expect(sequence.length).toBe(4);
    expect([...sequence.names].slice(0, 4)).toEqual(['a:基金', 'u:calc', 'd:a.test/x/', 'c:净值']);
    expect(Array.from(sequence.counts).slice(0, 4)).toEqual([2, 1, 1, 1]);
    expect(Array.from(sequence.attributes).slice(0, 4)).toEqual([false, true, true, false]);
    expect(sequence.memos!.slice(0, 4)).toEqual(list.memos.slice(0, 4));
    expect([...kept.vector(again)]).toEqual([['a:基金', 2], ['u:calc', 1], ['d:a.test/x/', 1], ['c:净值', 1]]);
    kept.keep('http://a.test/2', text('x'), true);
    expect(kept.get('http://a.test/2', text('x'))).toMatchObject({ byPattern: true, features: [] });
  });

  it('forgets a link whose text changed, and holds at most maxRows, the least recently used out first', () => {
    const kept = new KeptFeatures(2);
    kept.keep('u1', text('a'), true);
    expect(kept.get('u1', text('a', 'b'))).toBeUndefined();
    expect(kept.get('u1', text('a'))).toBeUndefined();
    kept.keep('u1', text('a'), true);
    kept.keep('u2', text('a'), true);
    kept.get('u1', text('a'));
    kept.keep('u3', text('a'), true);
    expect(kept.size).toBe(2);
    expect(kept.get('u2', text('a'))).toBeUndefined();
    expect(kept.get('u1', text('a'))).toBeDefined();
    expect(kept.get('u3', text('a'))).toBeDefined();
    // trusted: for a caller told of every change to the row, no text to check; forget drops it.
    expect(kept.trusted('u1')).toBe(kept.get('u1', text('a')));
    kept.forget('u1');
    expect(kept.trusted('u1')).toBeUndefined();
    expect(kept.get('u3', text('a'))).toBeDefined();
    // peek: the text checked, nothing moved or dropped.
    expect(kept.peek('u3', text('a', 'b'))).toBeUndefined();
    expect(kept.peek('u3', text('a'))).toBe(kept.trusted('u3'));
    // adopt: another's kept link, in the order as a keep.
    const other = new KeptFeatures(2);
    other.adopt('u2', kept.get('u3', text('a'))!);
    expect(other.get('u2', text('a'))).toBe(kept.get('u3', text('a')));
    const none = new KeptFeatures(0);
    none.keep('u1', text('a'), true);
    expect(none.size).toBe(0);
  });
});
