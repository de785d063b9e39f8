/**
 * Online learning shared through Redis (issue 15), against a real redis-server: two workers,
 * each with its own store and models, learn from the pages each recorded; after a refresh both
 * score with the very counts one model taught and trained on every example would have; a
 * restarted worker rebuilds them from Redis; a push is applied once, whether retried or made
 * again by a worker restarted between its push and its own save; re-scoring may lower a score.
 */
import { describe, expect, it } from 'vitest';
import { OnlineLearner, type OnlineModels } from '../../../../companion/crawl/online-learning.ts';
import { CountDelta } from '../../../../companion/crawl/learning-delta.ts';
import { createNbStrategy } from '../../../../companion/crawl/strategies/nb-strategy.ts';
import type { CrawlStrategy } from '../../../../companion/crawl/strategies/crawl-strategy.ts';
import { RedisFrontier } from '../../../../companion/frontier/redis/redis-frontier.ts';
import { RedisSharedLearning } from '../../../../companion/frontier/redis/shared-learning.ts';
import { parseRedisFrontierUrl } from '../../../../companion/frontier/redis/redis-url.ts';
import { KEY } from '../../../../companion/frontier/redis/redis-keys.ts';
import { loadNodeTokenizer } from '../../../../companion/platform/jieba-node.ts';
import { CrawlStore } from '../../../../companion/store/crawl-store.ts';
import type { FrontierEntry, LearnedLink, PageRecord } from '../../../../companion/store/records.ts';
import type { LinkContext } from '../../../../shared/contexts/types.ts';
import { LevelClassifier } from '../../../../shared/model/level-classifier.ts';
import { NaiveBayes } from '../../../../shared/model/naive-bayes.ts';
import type { Label } from '../../../../shared/model/types.ts';
import { LinkScorer } from '../../../../shared/pipeline/link-scorer.ts';
import { tempDir } from '../../crawl/crawl-test-helpers.ts';
import { redisSkipReason } from '../../../../bench/support/redis-server.ts';
import { redisPerFile } from './redis-per-file.ts';

const tokenizer = loadNodeTokenizer();
const featureOptions = { group: 2, lexicon: [], urlTokens: false } as const;
const FINGERPRINT = 'model-sha';
const LEARNING = { every: 1000, rescoreTop: 100, topic: 'calc', relevanceThreshold: 0.5 };

const taught: { context: LinkContext; label: Label; level: number }[] = [
  { context: ctx('http://t.test/calc/a', '单元格 函数'), label: 1, level: 0 },
  { context: ctx('http://t.test/writer/b', '文字 段落'), label: 0, level: 3 },
  { context: ctx('http://t.test/', '帮助 首页'), label: 0, level: 2 },
];

function ctx(url: string, anchor: string, pageUrl = 'http://t.test/index'): LinkContext {
  return { url, pageUrl, anchor, before: '', after: '' };
}

/** The models as a model file gives them: taught, nothing learned. */
function taughtModels(): { models: OnlineModels; scorer: LinkScorer; strategy: CrawlStrategy } {
  const links = new NaiveBayes({ form: 'mixed' });
  const levels = new LevelClassifier();
  const scorer = new LinkScorer({ tokenizer, model: links, features: featureOptions, window: 80 });
  for (const { context, label, level } of taught) {
    links.add(scorer.featuresOf(context), label);
    levels.add(scorer.featuresOf(context), level);
  }
  const models: OnlineModels = { links, levels, features: (c) => scorer.featuresOf(c) };
  return { models, scorer, strategy: createNbStrategy({ scorer, levels, fingerprint: FINGERPRINT }) };
}

/** The models one process would have: taught, plus every learned link of every worker, refitted. */
function oneModel(learned: readonly LearnedLink[]): { links: NaiveBayes; levels: LevelClassifier } {
  const { scorer } = taughtModels();
  const links = new NaiveBayes({ form: 'mixed' }).fit([
    ...taught.map(({ context, label }) => ({ features: scorer.featuresOf(context), label })),
    ...learned.map((l) => ({ features: scorer.featuresOf(l), label: l.label })),
  ]);
  const levels = new LevelClassifier().fit([
    ...taught.map(({ context, level }) => ({ features: scorer.featuresOf(context), level })),
    ...learned.filter((l) => l.level !== undefined).map((l) => ({ features: scorer.featuresOf(l), level: l.level! })),
  ]);
  return { links, levels };
}

const rowsOf = (links: NaiveBayes) => ({ ...links.toRows('t'), header: { ...links.toRows('t').header, savedAt: 0 } });

interface Worker {
  frontier: RedisFrontier;
  store: CrawlStore;
  dir: string;
  models: OnlineModels;
  strategy: CrawlStrategy;
  learner: OnlineLearner;
}

const redis = redisPerFile();
const { cleanups } = redis;
let crawlNo = 0;

/** A worker of crawl `name`: its frontier, its store (in `dir`, or a new one), fresh taught models, a started learner. */
async function worker(name: string, dir?: string): Promise<Worker> {
  const frontier = await RedisFrontier.connect(parseRedisFrontierUrl(`${redis.url}?crawl=${name}`), { maxPages: 1000, perHostConcurrency: 10, maxPagesPerHost: null });
  cleanups.push(() => frontier.close());
  const resumed = dir !== undefined;
  if (dir === undefined) {
    const made = tempDir('linkscent-shared-learning-');
    cleanups.push(made.cleanup);
    dir = made.dir;
  }
  const store = CrawlStore.open(dir, { create: !resumed });
  cleanups.push(() => store.close());
  await frontier.attach(store);
  await frontier.join('nb', FINGERPRINT, [entry('http://p.test/', null, '', 10)]);
  const { models, strategy } = taughtModels();
  const shared = await frontier.shareLearning(models, store, FINGERPRINT);
  const learner = new OnlineLearner(store, strategy, models, { ...LEARNING, shared });
  await learner.start();
  return { frontier, store, dir, models, strategy, learner };
}

function entry(url: string, parent: string | null, anchor: string, score: number): FrontierEntry {
  return { url, score, depth: parent === null ? 0 : 1, parent, host: new URL(url).hostname, ...(parent === null ? {} : { context: { anchor, before: '', after: '' } }) };
}

/** The worker claims the best URL (it must be `url`) and records its page judged `relevance`, with `children`. */
async function fetch(w: Worker, url: string, relevance: number, children: FrontierEntry[] = []): Promise<void> {
  const row = await w.frontier.claim(() => 'take', 64, []);
  expect(row?.url).toBe(url);
  const page: PageRecord = { url, finalUrl: url, status: 200, depth: row!.depth, parent: row!.parent, score: row!.score, fetchedAt: '', bytes: 1, contentType: 'text/html', outcome: 'ok', relevance };
  expect(await w.frontier.record(page, children, {})).toBeDefined();
}

/**
 * A crawl two workers share: a fetches the portal, the hub and the calc directory; b the calc
 * page (on topic) and the writer page (off); a then the average page (on topic, found on the hub).
 */
async function crawlTogether(a: Worker, b: Worker): Promise<void> {
  await fetch(a, 'http://p.test/', 0, [entry('http://t.test/', 'http://p.test/', '办公 帮助', 9), entry('http://t.test/writer/x', 'http://p.test/', '文字 处理', 2)]);
  await fetch(a, 'http://t.test/', 0, [entry('http://t.test/calc/', 'http://t.test/', '电子表格', 8), entry('http://t.test/calc/avg', 'http://t.test/', '平均值 函数', 1)]);
  await fetch(a, 'http://t.test/calc/', 0, [entry('http://t.test/calc/sum', 'http://t.test/calc/', '求和 函数', 7)]);
  await fetch(b, 'http://t.test/calc/sum', 1);
  await fetch(b, 'http://t.test/writer/x', 0);
  await fetch(a, 'http://t.test/calc/avg', 1);
}

describe.skipIf(redisSkipReason)('shared online learning (Redis)', () => {
  it('gives two workers that learned different examples the counts of one model trained on all of them', async () => {
    const name = `l${++crawlNo}`;
    const a = await worker(name);
    const b = await worker(name);
    await crawlTogether(a, b);
    expect((await a.learner.updateShared()).added).toBe(3);
    expect((await b.learner.updateShared()).added).toBe(2);
    await a.learner.updateShared(); // nothing new to learn: a refreshes, and sees b's push

    const learned = [...a.store.learnedLinks(), ...b.store.learnedLinks()];
    expect(learned.map((l) => l.url).sort()).toEqual(['http://t.test/', 'http://t.test/calc/', 'http://t.test/calc/avg', 'http://t.test/calc/sum', 'http://t.test/writer/x']);
    // Levels follow each worker's own discovery tree: a's chain hub → avg (levels 1 and 0);
    // b's on-topic page was found on a page a fetched, so b levels only its own link.
    expect(a.store.learnedLinks().map((l) => [l.url, l.level])).toEqual([
      ['http://t.test/', 1],
      ['http://t.test/calc/', undefined],
      ['http://t.test/calc/avg', 0],
    ]);
    expect(b.store.learnedLinks().map((l) => [l.url, l.level])).toEqual([
      ['http://t.test/calc/sum', 0],
      ['http://t.test/writer/x', undefined],
    ]);
    const one = oneModel(learned);
    expect(rowsOf(a.models.links)).toEqual(rowsOf(one.links));
    expect(rowsOf(b.models.links)).toEqual(rowsOf(one.links));
    expect(a.models.levels!.toRows('t', 0)).toEqual(one.levels.toRows('t', 0));
    expect(b.models.levels!.toRows('t', 0)).toEqual(one.levels.toRows('t', 0));
    expect(Number(await a.frontier.connection.client.get(a.frontier.prefix + KEY.learnVersion))).toBe(2);
  });

  it('rebuilds the shared model for a restarted worker, from Redis, not from its own examples alone', async () => {
    const name = `l${++crawlNo}`;
    const a = await worker(name);
    const b = await worker(name);
    await crawlTogether(a, b);
    await a.learner.updateShared();
    await b.learner.updateShared();
    const bDir = b.dir;
    b.store.close();
    const restarted = await worker(name, bDir); // b's directory, a new process's models and learner
    const one = oneModel([...a.store.learnedLinks(), ...restarted.store.learnedLinks()]);
    expect(rowsOf(restarted.models.links)).toEqual(rowsOf(one.links));
    expect(restarted.models.levels!.toRows('t', 0)).toEqual(one.levels.toRows('t', 0));
  });

  it('applies a push once: a retry, and a worker restarted between its push and its save, change nothing', async () => {
    const name = `l${++crawlNo}`;
    const a = await worker(name);
    const b = await worker(name);
    await crawlTogether(a, b);
    await b.learner.updateShared();
    // a pushes, then dies before its own store saves what it learned.
    const save = a.store.saveLearning.bind(a.store);
    a.store.saveLearning = () => {
      throw new Error('killed between the push and the save');
    };
    await expect(a.learner.updateShared()).rejects.toThrow('killed');
    a.store.saveLearning = save;
    expect(a.store.learnedLinks()).toEqual([]);
    const client = a.frontier.connection.client;
    const pushed = await client.hGetAll(a.frontier.prefix + KEY.learnCounts);
    const version = await client.get(a.frontier.prefix + KEY.learnVersion);

    const aDir = a.dir;
    a.store.close();
    const restarted = await worker(name, aDir);
    // The pages whose increments were pushed are learned here again, and not pushed again.
    expect(restarted.store.learnedLinks()).toHaveLength(3);
    expect(await client.hGetAll(a.frontier.prefix + KEY.learnCounts)).toEqual(pushed);
    expect(await client.get(a.frontier.prefix + KEY.learnVersion)).toBe(version);
    expect((await restarted.learner.updateShared()).added).toBe(0);
    const one = oneModel([...restarted.store.learnedLinks(), ...b.store.learnedLinks()]);
    expect(rowsOf(restarted.models.links)).toEqual(rowsOf(one.links));
    expect(restarted.models.levels!.toRows('t', 0)).toEqual(one.levels.toRows('t', 0));

    // A retried push (same store, same last page) is applied once.
    const shared = new RedisSharedLearning(a.frontier.connection, a.frontier.prefix, 'retrying-store', taughtModels().models);
    const delta = new CountDelta();
    delta.linkAdded(new Map([['a:求和', 1]]), 1);
    await shared.push(7, delta);
    const once = await client.hGetAll(a.frontier.prefix + KEY.learnCounts);
    await shared.push(7, delta);
    expect(await client.hGetAll(a.frontier.prefix + KEY.learnCounts)).toEqual(once);
    expect(once['c|1|a:求和']).toBe(String(Number(pushed['c|1|a:求和'] ?? 0) + 1));
  });

  it('re-scores the head of the shared queue with the shared model, lowering a score as well', async () => {
    const name = `l${++crawlNo}`;
    const a = await worker(name);
    const b = await worker(name);
    await a.frontier.enqueue([entry('http://t.test/writer/y', 'http://t.test/', '文字 处理', 0.99)]);
    await crawlTogether(a, b);
    await a.learner.updateShared();
    const summary = await b.learner.updateShared();
    expect(summary.rescored).toBe(1);
    const [row] = await b.frontier.connection.client.zRangeWithScores(b.frontier.prefix + KEY.queue, 0, -1);
    const expected = b.strategy.rescore!({ url: 'http://t.test/writer/y', score: 0.99, depth: 1, parent: 'http://t.test/', host: 't.test', seq: 0, discoveredAt: 0, state: 'queued', reason: null, context: { anchor: '文字 处理', before: '', after: '' } });
    expect(row!.score).toBeCloseTo(expected, 12);
    expect(row!.score).toBeLessThan(0.99);
  });

  it('refuses to share learning with a worker that loaded another model', async () => {
    const name = `l${++crawlNo}`;
    const a = await worker(name);
    await expect(a.frontier.shareLearning(taughtModels().models, a.store, 'another-model')).rejects.toThrow(/needs every worker to load the model it started with/);
  });
});
