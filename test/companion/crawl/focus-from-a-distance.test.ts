/**
 * Focus from a distance, end to end through the real command line (issue 11): on a loopback web
 * of three sites behind a directory page, with the topic (摄影) two hops behind it and an endless
 * calendar beside it, a user teaches a topic with `collect` (from the topic's entry page and the
 * directory) and `train`, then crawls from the directory alone. nb, with its future value, must
 * fetch the topic's pages before breadth-first does. Counted from the server's side: the order
 * in which the sites served the pages.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileUrlPattern } from '../../../shared/urls/url-pattern.ts';
import { runCli } from '../support/run-cli.ts';
import { PAGES, startThreeSiteWeb, type ThreeSiteWeb } from '../support/three-site-web.ts';

let web: ThreeSiteWeb;
let dir: string;
let model: string;
const onTopic = (url: string) => compileUrlPattern('*/photo/*.html')(url);

beforeAll(async () => {
  web = await startThreeSiteWeb();
  dir = mkdtempSync(join(tmpdir(), 'linkscent-focus-'));
  const labeled = join(dir, 'labeled.jsonl');
  model = join(dir, 'model.json');
  const collected = await runCli(['collect', web.entry, web.directory, '--positive', web.topicPattern, '--max-pages', '40', '--concurrency', '1', '--delay-ms', '0', '--out', labeled]);
  expect(collected.code, collected.stderr).toBe(0);
  const trained = await runCli(['train', labeled, '--out', model, '--positive', web.topicPattern]);
  expect(trained.code, trained.stderr).toBe(0);
  expect(trained.stdout).toMatch(/levels/);
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

let crawls = 0;

/**
 * A 60-page crawl from the directory: what the web served, in order (robots.txt not counted),
 * where its first on-topic page came (Infinity: none did) and how many on-topic pages it served.
 */
async function crawlFromDirectory(args: string[]): Promise<{ served: string[]; firstTopicAt: number; topicIn60: number }> {
  web.requests.length = 0;
  const out = join(dir, `crawl-${++crawls}`);
  const crawled = await runCli(['crawl', web.directory, ...args, '--max-pages', '60', '--delay-ms', '0', '--concurrency', '1', '--out', out]);
  expect(crawled.code, crawled.stderr).toBe(0);
  const served = web.requests.filter((url) => !url.endsWith('/robots.txt'));
  const first = served.findIndex(onTopic);
  return { served, firstTopicAt: first === -1 ? Number.POSITIVE_INFINITY : first, topicIn60: served.slice(0, 60).filter(onTopic).length };
}

describe('a crawl started two hops from its topic', () => {
  it('nb with future value reaches the topic, and harvests it, before breadth-first does', async () => {
    const bfs = await crawlFromDirectory(['--strategy', 'bfs']);
    const nb = await crawlFromDirectory(['--strategy', 'nb', '--model', model]);
    // Breadth-first meets every article of the other sites and the calendar first.
    expect(bfs.firstTopicAt).toBeGreaterThan(2 * PAGES);
    // The ceiling is index 3 (directory, 数码社区, 摄影 section); nb may look at the directory's other links first.
    expect(nb.firstTopicAt).toBeLessThan(8);
    expect(nb.topicIn60).toBeGreaterThan(bfs.topicIn60);
    expect(nb.topicIn60).toBeGreaterThanOrEqual(PAGES - 2);
  });

  it('from the words alone, immediate value finds no way from the directory; future value does', async () => {
    // With URL features the link classifier itself knows the section's directory (/photo/), so
    // the words-only model is the one that shows what future value adds.
    const wordsOnly = join(dir, 'model-words.json');
    const trained = await runCli(['train', join(dir, 'labeled.jsonl'), '--out', wordsOnly, '--positive', web.topicPattern, '--no-url-tokens']);
    expect(trained.code, trained.stderr).toBe(0);
    const immediate = await crawlFromDirectory(['--strategy', 'nb', '--model', wordsOnly, '--no-future', '--no-explore', '--no-online', '--no-host-budget']);
    const nb = await crawlFromDirectory(['--strategy', 'nb', '--model', wordsOnly]);
    expect(nb.firstTopicAt).toBeLessThan(immediate.firstTopicAt);
  });
});
