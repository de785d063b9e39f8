import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OnlineLearner, RESCORE_SLICE, type OnlineModels } from '../../../companion/crawl/online-learning.ts';
import { createNbStrategy } from '../../../companion/crawl/strategies/nb-strategy.ts';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import { CrawlStore } from '../../../companion/store/crawl-store.ts';
import type { FrontierEntry, LinkText, PageRecord } from '../../../companion/store/records.ts';
import type { LinkContext } from '../../../shared/contexts/types.ts';
import { LevelClassifier } from '../../../shared/model/level-classifier.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { Label } from '../../../shared/model/types.ts';
import { LinkScorer } from '../../../shared/pipeline/link-scorer.ts';

const tokenizer = loadNodeTokenizer();
const featureOptions = { group: 2, lexicon: [], urlTokens: false } as const;

/** What the crawl was taught before it started: a few labeled links, a few levels. */
const taught: { context: LinkContext; label: Label; level: number }[] = [
  { context: ctx('http://t.test/calc/a', '单元格 函数'), label: 1, level: 0 },
  { context: ctx('http://t.test/writer/b', '文字 段落'), label: 0, level: 3 },
  { context: ctx('http://t.test/', '帮助 首页'), label: 0, level: 2 },
];

function ctx(url: string, anchor: string, pageUrl = 'http://t.test/index', words: Partial<LinkText> = {}): LinkContext {
  return { url, pageUrl, anchor, before: words.before ?? '', after: words.after ?? '' };
}

function taughtModels(): { models: OnlineModels; scorer: LinkScorer } {
  const links = new NaiveBayes({ form: 'multinomial' });
  const levels = new LevelClassifier();
  const scorer = new LinkScorer({ tokenizer, model: links, features: featureOptions, window: 80 });
  for (const { context, label, level } of taught) {
    links.add(scorer.featuresOf(context), label);
    levels.add(scorer.featuresOf(context), level);
  }
  return { models: { links, levels, features: (c) => scorer.featuresOf(c) }, scorer };
}

let dir: string;
let store: CrawlStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkscent-online-'));
  store = CrawlStore.open(dir, { create: true });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Queues a URL as found on `parent` with a context, then records its page judged `relevance`. */
function crawled(url: string, parent: string | null, anchor: string, relevance: number): void {
  const entry: FrontierEntry = { url, score: 0.5, depth: 1, parent, host: new URL(url).host };
  if (parent !== null) entry.context = { anchor, before: '', after: '' };
  store.enqueue([entry]);
  const record: PageRecord = { url, finalUrl: url, status: 200, depth: 1, parent, score: 0.5, fetchedAt: '', bytes: 1, contentType: 'text/html', outcome: 'ok', relevance };
  store.recordPage(record);
}

/** A small crawl: portal → hub → entry → calc page (on topic); portal → writer page (off). */
function crawlPages(): void {
  crawled('http://p.test/', null, '', 0);
  crawled('http://t.test/', 'http://p.test/', '办公 帮助', 0);
  crawled('http://t.test/calc/', 'http://t.test/', '电子表格', 0);
  crawled('http://t.test/calc/sum', 'http://t.test/calc/', '求和 函数', 1);
  crawled('http://t.test/writer/x', 'http://p.test/', '文字 处理', 0);
}

describe('OnlineLearner', () => {
  it('adds the link into each judged page, levels along the discovery tree, and equals a refit (counts equal)', () => {
    const { models, scorer } = taughtModels();
    crawlPages();
    const strategy = createNbStrategy({ scorer, levels: models.levels });
    const learner = new OnlineLearner(store, strategy, models, { every: 100, rescoreTop: 10, topic: 'calc', relevanceThreshold: 0.5 });
    const summary = learner.update();
    expect(summary).toMatchObject({ added: 4, positives: 1 });

    const learned = store.learnedLinks();
    expect(learned.map((l) => [l.url, l.label, l.level])).toEqual([
      ['http://t.test/', 0, 2],
      ['http://t.test/calc/', 0, 1],
      ['http://t.test/calc/sum', 1, 0],
      ['http://t.test/writer/x', 0, undefined],
    ]);

    // A refit over the taught and learned examples gives the very same counts.
    const refitLinks = new NaiveBayes({ form: 'multinomial' }).fit([
      ...taught.map(({ context, label }) => ({ features: scorer.featuresOf(context), label })),
      ...learned.map((l) => ({ features: scorer.featuresOf(l), label: l.label })),
    ]);
    expect(models.links.toRows('t')).toEqual({ ...refitLinks.toRows('t'), header: { ...refitLinks.toRows('t').header, savedAt: expect.any(Number) } });
    const refitLevels = new LevelClassifier().fit([
      ...taught.map(({ context, level }) => ({ features: scorer.featuresOf(context), level })),
      ...learned.filter((l) => l.level !== undefined).map((l) => ({ features: scorer.featuresOf(l), level: l.level! })),
    ]);
    expect(models.levels!.toRows('t', 0)).toEqual(refitLevels.toRows('t', 0));
  });

  it('moves a learned link to a lower level when the crawl finds the topic closer, by remove + add', () => {
    const { models, scorer } = taughtModels();
    crawled('http://p.test/', null, '', 0);
    crawled('http://t.test/', 'http://p.test/', '办公 帮助', 0);
    crawled('http://t.test/calc/', 'http://t.test/', '电子表格', 0);
    crawled('http://t.test/calc/sum', 'http://t.test/calc/', '求和 函数', 1);
    const learner = new OnlineLearner(store, createNbStrategy({ scorer, levels: models.levels }), models, { every: 100, rescoreTop: 0, topic: 'calc', relevanceThreshold: 0.5 });
    learner.update();
    expect(store.learnedLinks().find((l) => l.url === 'http://t.test/')!.level).toBe(2);
    // Later the hub turns out to link an on-topic page itself: its inbound link moves to level 1.
    crawled('http://t.test/calc/avg', 'http://t.test/', '平均值 函数', 1);
    learner.update();
    const learned = store.learnedLinks();
    expect(learned.find((l) => l.url === 'http://t.test/')!.level).toBe(1);
    const refitLevels = new LevelClassifier().fit([
      ...taught.map(({ context, level }) => ({ features: scorer.featuresOf(context), level })),
      ...learned.filter((l) => l.level !== undefined).map((l) => ({ features: scorer.featuresOf(l), level: l.level! })),
    ]);
    expect(models.levels!.toRows('t', 0)).toEqual(refitLevels.toRows('t', 0));
  });

  it('replays what it learned into fresh models on resume, and learns only what came after', () => {
    const first = taughtModels();
    crawlPages();
    const strategy = createNbStrategy({ scorer: first.scorer, levels: first.models.levels });
    new OnlineLearner(store, strategy, first.models, { every: 100, rescoreTop: 0, topic: 'calc', relevanceThreshold: 0.5 }).update();
    store.close();
    store = CrawlStore.open(dir, { create: false });
    const second = taughtModels();
    const resumed = new OnlineLearner(store, createNbStrategy({ scorer: second.scorer, levels: second.models.levels }), second.models, { every: 100, rescoreTop: 0, topic: 'calc', relevanceThreshold: 0.5 });
    expect(second.models.links.toRows('t').features).toEqual(first.models.links.toRows('t').features);
    expect(second.models.levels!.toRows('t', 0)).toEqual(first.models.levels!.toRows('t', 0));
    expect(resumed.update().added).toBe(0);
  });

  it('re-scores the head of the frontier, which changes the claim order', () => {
    const { models, scorer } = taughtModels();
    const strategy = createNbStrategy({ scorer, r2: null });
    // Two queued links, scored by the taught model: the "统计" one (unknown words) below the other.
    const queued = [ctx('http://t.test/calc/stat', '统计 分析'), ctx('http://t.test/calc/cell', '单元格 函数')];
    store.enqueue(queued.map((c) => ({ url: c.url, score: strategy.scoreLinks({ url: c.pageUrl, page: undefined as never, depth: 0, score: 1 }, [c])[0]!, depth: 1, parent: c.pageUrl, host: 't.test', context: { anchor: c.anchor, before: '', after: '' } })));
    expect(store.bestQueued(1)[0]!.url).toBe('http://t.test/calc/cell');
    // The crawl then learns that links about 统计 lead to on-topic pages, and that 单元格 ones did not.
    crawled('http://p.test/', null, '', 0);
    for (let i = 0; i < 6; i++) crawled(`http://t.test/calc/s${i}`, 'http://p.test/', '统计 分析', 1);
    for (let i = 0; i < 6; i++) crawled(`http://t.test/calc/c${i}`, 'http://p.test/', '单元格', 0);
    const learner = new OnlineLearner(store, strategy, models, { every: 100, rescoreTop: 10, topic: 'calc', relevanceThreshold: 0.5 });
    expect(learner.update().rescored).toBe(2);
    expect(store.claimNext()!.url).toBe('http://t.test/calc/stat');
  });

  it('re-scores a row whose text an upsert changed since the last update from its new text, and the rest from kept features, as from scratch', () => {
    const { models, scorer } = taughtModels();
    const strategy = createNbStrategy({ scorer, levels: models.levels, r2: null });
    const row = (url: string, anchor: string, score: number, parent = 'http://t.test/'): FrontierEntry => ({ url, score, depth: 1, parent, host: 't.test', context: { anchor, before: '', after: '' } });
    store.enqueue([row('http://t.test/q/a', '单元格 函数', 0.3), row('http://t.test/q/b', '文字 段落', 0.3), row('http://t.test/q/c', '帮助 首页', 0.3)]);
    crawlPages();
    const learner = new OnlineLearner(store, strategy, models, { every: 100, rescoreTop: 10, topic: 'calc', relevanceThreshold: 0.5 });
    expect(learner.update().rescored).toBe(3);
    // A better parent gives b new words (scored as the best, so the upsert takes them); then more is learned.
    store.recordPage({ url: 'http://t.test/q/p', finalUrl: 'http://t.test/q/p', status: 200, depth: 1, parent: null, score: 0.5, fetchedAt: '', bytes: 1, contentType: 'text/html', outcome: 'ok' }, [row('http://t.test/q/b', '单元格 函数', 2, 'http://t.test/q/p')]);
    crawled('http://t.test/calc/more', 'http://t.test/calc/', '单元格 求和', 1);
    expect(learner.update().rescored).toBe(3);
    // Every row's score is what a strategy that kept nothing gives it from the row as it is now.
    const fresh = createNbStrategy({ scorer, levels: models.levels, r2: null });
    const rows = store.bestQueued(10).filter((r) => r.context !== undefined);
    expect(rows.map((r) => r.url).sort()).toEqual(['http://t.test/q/a', 'http://t.test/q/b', 'http://t.test/q/c']);
    for (const r of rows) expect(r.score).toBe(fresh.rescore!({ ...r, context: r.context! }));
  });

  it('with turns, learns in the background and re-scores in slices of RESCORE_SLICE rows, a turn between, to the same store as at once', async () => {
    const queue = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ url: `http://t.test/q/${i}`, score: 0.5, depth: 1, parent: 'http://t.test/', host: 't.test', context: { anchor: i % 2 ? '统计 分析' : '文字 段落', before: '', after: '' } }));
    const run = async (withTurns: boolean) => {
      const { models, scorer } = taughtModels();
      crawlPages();
      store.enqueue(queue(RESCORE_SLICE * 2 + 10));
      const strategy = createNbStrategy({ scorer, levels: models.levels });
      let turns = 0;
      const turn = async () => void turns++;
      const learner = new OnlineLearner(store, strategy, models, { every: 5, rescoreTop: RESCORE_SLICE * 3, topic: 'calc', relevanceThreshold: 0.5, ...(withTurns ? { turn } : {}) });
      const summaries = [1, 2, 3, 4, 5].map(() => learner.pageRecorded());
      if (withTurns) {
        expect(summaries).toEqual([undefined, undefined, undefined, undefined, undefined]); // nothing done within the page's turn
        expect(store.learnedLinks()).toEqual([]);
        await learner.idle();
        expect(learner.failure).toBeUndefined();
        // One turn after learning, then one per slice of the 522 queued rows (3 slices).
        expect(turns).toBe(1 + 3);
      } else {
        expect(summaries.at(-1)).toMatchObject({ added: 4, rescored: RESCORE_SLICE * 2 + 10 });
      }
      const result = { learned: store.learnedLinks(), best: store.bestQueued(20).map((row) => [row.url, row.score]) };
      store.close();
      rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(join(tmpdir(), 'linkscent-online-'));
      store = CrawlStore.open(dir, { create: true });
      return result;
    };
    const atOnce = await run(false);
    const inTurns = await run(true);
    expect(inTurns).toEqual(atOnce);
  });
});
