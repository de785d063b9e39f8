/**
 * Online learning survives `kill -9`: what a crawl learned (its learned links, its re-scored
 * frontier) is in the store when the process dies without a chance to flush anything, and a
 * `--resume` goes on from there with the same models, learning more.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostBudget } from '../../../companion/crawl/host-budget.ts';
import { OnlineLearner } from '../../../companion/crawl/online-learning.ts';
import { createNbStrategy } from '../../../companion/crawl/strategies/nb-strategy.ts';
import { loadLinkScorer } from '../../../companion/model/link-model-file.ts';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import { CrawlStore } from '../../../companion/store/crawl-store.ts';
import { runCli, startCli } from '../support/run-cli.ts';
import { startThreeSiteWeb, type ThreeSiteWeb } from '../support/three-site-web.ts';

let web: ThreeSiteWeb;
let dir: string;
let model: string;

beforeAll(async () => {
  web = await startThreeSiteWeb();
  dir = mkdtempSync(join(tmpdir(), 'linkscent-online-resume-'));
  const labeled = join(dir, 'labeled.jsonl');
  model = join(dir, 'model.json');
  expect((await runCli(['collect', web.entry, web.directory, '--positive', web.topicPattern, '--max-pages', '40', '--concurrency', '1', '--delay-ms', '0', '--out', labeled])).code).toBe(0);
  expect((await runCli(['train', labeled, '--out', model, '--positive', web.topicPattern])).code).toBe(0);
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const lines = (out: string) => (existsSync(join(out, 'pages.jsonl')) ? readFileSync(join(out, 'pages.jsonl'), 'utf8').split('\n').slice(0, -1).length : 0);

describe('online learning and kill -9', () => {
  it('keeps the learned links and the re-scored frontier, and a resume learns on from them', { timeout: 90_000 }, async () => {
    const out = join(dir, 'crawl');
    // A delay per host so the crawl is still running when it is killed.
    const args = ['crawl', web.directory, '--model', model, '--max-pages', '70', '--online-every', '5', '--delay-ms', '40', '--concurrency', '1', '--out', out];
    const running = startCli(args);
    const deadline = Date.now() + 40_000;
    while (lines(out) < 30) {
      if (Date.now() > deadline) throw new Error('the crawl reported fewer than 30 pages in 40 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    running.child.kill('SIGKILL');
    expect((await running.done).code).toBeNull();

    // What the store holds now is what the dead crawl had learned and re-scored.
    const tokenizer = loadNodeTokenizer();
    const loaded = await loadLinkScorer(model, tokenizer);
    const store = CrawlStore.open(out, { create: false });
    let learnedBefore;
    try {
      learnedBefore = store.learnedLinks();
      expect(learnedBefore.length).toBeGreaterThanOrEqual(20);
      expect(learnedBefore.some((link) => link.label === 1 && link.level === 0)).toBe(true);
      // The models it had: the file's, plus the learned links replayed.
      const strategy = createNbStrategy({ scorer: loaded.scorer, levels: loaded.levels });
      new OnlineLearner(store, strategy, { links: loaded.scorer.model, levels: loaded.levels, features: (c) => loaded.scorer.featuresOf(c) }, { every: 1000, rescoreTop: 0, topic: loaded.topic.id, relevanceThreshold: 0.5 });
      const budget = new HostBudget(store, 25, 0.5);
      const queued = store.bestQueued(10_000).filter((row) => row.context);
      expect(queued.length).toBeGreaterThan(10);
      for (const row of queued) expect(row.score).toBeCloseTo(strategy.rescore!({ ...row, context: row.context! }) - budget.penalty(row.host), 9);
    } finally {
      store.close();
    }

    const resumed = await runCli(['crawl', '--resume', '--model', model, '--max-pages', '70', '--online-every', '5', '--delay-ms', '0', '--concurrency', '1', '--out', out]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = CrawlStore.open(out, { create: false });
    try {
      const learnedAfter = after.learnedLinks();
      expect(learnedAfter.slice(0, learnedBefore.length).map((l) => [l.url, l.pageUrl, l.label])).toEqual(learnedBefore.map((l) => [l.url, l.pageUrl, l.label]));
      expect(learnedAfter.length).toBeGreaterThan(learnedBefore.length);
      expect(after.counts().pages).toBe(70);
    } finally {
      after.close();
    }
  });
});
