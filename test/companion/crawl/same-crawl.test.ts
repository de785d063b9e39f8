/**
 * What the crawl does to go faster changes nothing it records: the same pages in the same order,
 * with the same scores, contexts and judgements, and the same frontier. One worker, so the
 * order is the strategy's alone.
 *
 *   - Parse threads (`parse/parse-pool.ts`, the default on a machine with two cores or more)
 *     against parsing on the event loop.
 *   - Scoring only the links that can change the frontier (`process-url.ts`, `scoreLinks`)
 *     against scoring every link, which a linksScored hook asks for.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlHooks } from '../../../companion/crawl/crawl-hooks.ts';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { acquireParsePool } from '../../../companion/parse/parse-pool.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import Database from 'better-sqlite3';
import { extractContexts } from '../../../shared/contexts/extract-contexts.ts';
import { linkFeatures } from '../../../shared/features/link-features.ts';
import type { FeatureOptions } from '../../../shared/features/types.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import { LinkScorer } from '../../../shared/pipeline/link-scorer.ts';
import { segmentsFromHtml } from '../../../shared/segments/from-html.ts';
import { SITE_TOPICS, startSiteServer, type SiteServer } from '../support/site-server.ts';
import { tempDir } from './crawl-test-helpers.ts';

const tokenizer = loadNodeTokenizer();
const features: FeatureOptions = { group: 2, lexicon: [], urlTokens: true };
let site: SiteServer;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  site = await startSiteServer({ perTopic: 30 });
});
afterAll(async () => {
  for (const cleanup of cleanups) cleanup();
  await site.close();
});

/** Links under /finance/ positive, from the section pages (seed 000 §3.2.2's automatic labels). */
function trainModel(): NaiveBayes {
  const model = new NaiveBayes({ form: 'bernoulli' });
  for (const topic of SITE_TOPICS) {
    const page = segmentsFromHtml(site.html(`/${topic}/`)!, `${site.origin}/${topic}/`);
    for (const context of extractContexts(page, { window: 60 })) {
      model.add(linkFeatures(context, tokenizer, features), new URL(context.url).pathname.startsWith('/finance/') ? 1 : 0);
    }
  }
  return model;
}

/** pages.jsonl without the fetch times, and every link the store queued with its context. */
async function crawl(parseThreads: number, hooks: CrawlHooks[] = []) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const outDir = join(dir, 'out');
  const scorer = new LinkScorer({ tokenizer, model: trainModel(), features, window: 60 });
  const nb = createStrategy('nb', { scorer });
  let asked = 0; // links the strategy was asked to score
  const summary = await runCrawl({
    seeds: [`${site.origin}/`],
    outDir,
    maxPages: 40,
    strategy: { ...nb, scoreLinks: (parent, links) => ((asked += links.length), nb.scoreLinks(parent, links)) },
    concurrency: 1,
    delayMs: 0,
    parseThreads,
    hooks,
    log: () => {},
    pageJudge: (page) => (new URL(page.pageUrl).pathname.startsWith('/finance/') ? 1 : 0),
  });
  const lines = readFileSync(join(outDir, 'pages.jsonl'), 'utf8').trim().split('\n');
  const pages = lines.map((line) => {
    const { fetchedAt: _at, ...rest } = JSON.parse(line) as Record<string, unknown>;
    return rest;
  });
  const db = new Database(join(outDir, 'crawl.sqlite'), { readonly: true });
  try {
    const queued = db.prepare('SELECT url, score, depth, parent, anchor, before_text, after_text, via_on_topic FROM frontier ORDER BY url').all();
    return { summary, pages, queued, asked };
  } finally {
    db.close();
  }
}

describe('the same crawl', () => {
  it('with parse threads as parsed on the event loop', async () => {
    const here = await crawl(0);
    // The crawl shares this pool (one per process and thread count), loaded already: every page
    // goes to a thread, none is parsed here while the threads start.
    const warm = acquireParsePool(2, () => {});
    await warm.pool.loaded();
    const threads = await crawl(2);
    await warm.release();
    expect(here.summary.fetched).toBe(40);
    expect(threads.pages).toEqual(here.pages);
    expect(threads.queued).toEqual(here.queued);
    expect(here.queued.length).toBeGreaterThan(40);
  });

  it('scoring the links that can change the frontier as scoring every link', async () => {
    let pagesScored = 0;
    const everyLink = await crawl(0, [{ linksScored: () => void pagesScored++ }]);
    const fewer = await crawl(0);
    expect(pagesScored).toBeGreaterThan(30);
    expect(fewer.pages).toEqual(everyLink.pages);
    expect(fewer.queued).toEqual(everyLink.queued);
    console.info(`links scored: ${everyLink.asked} with the hook, ${fewer.asked} without`);
    expect(fewer.asked).toBeLessThan(everyLink.asked * 0.8);
  });
});
