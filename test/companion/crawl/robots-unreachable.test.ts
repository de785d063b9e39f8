/**
 * A passing robots.txt outage loses nothing: the host is set aside (its URLs stay queued) and
 * robots.txt is asked again after `retry.robotsRetryMs`, up to `retry.retries` times; only a host
 * whose robots.txt never answers has its URLs recorded robots-denied. Meanwhile the other hosts
 * are crawled.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import type { CrawlStrategy } from '../../../companion/crawl/strategies/crawl-strategy.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { startScriptedSite } from '../support/hostile-server.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A site on `address` whose robots.txt answers 503 `failures` times, then 404 (no rules). */
async function site(address: string, failures: number, links: string[] = []) {
  const scripted = await startScriptedSite({
    address,
    robots: (n) => (n <= failures ? 503 : 404),
    page: (path) => `<html><body>${path === '/' ? links.map((href, i) => `<p><a href="${href}">page ${i}</a></p>`).join('') : '<p>a page</p>'}</body></html>`,
  });
  cleanups.push(scripted.close);
  const robots = () => scripted.requests.filter((r) => r.path === '/robots.txt');
  const pages = () => scripted.requests.filter((r) => r.path !== '/robots.txt');
  return {
    origin: scripted.origin,
    robotsAsked: () => robots().length,
    robotsAt: () => robots().map((r) => r.at),
    fetched: () => pages().map((r) => r.path),
    fetchedAt: () => pages().map((r) => r.at),
  };
}

async function crawl(seeds: string[], retries: number, strategy: CrawlStrategy = createStrategy('bfs'), robotsRetryMs = 150) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const outDir = join(dir, 'out');
  const summary = await runCrawl({
    seeds,
    outDir,
    maxPages: 20,
    strategy,
    concurrency: 2,
    delayMs: 0,
    retry: { retries, robotsRetryMs, backoffMs: 10 },
    log: () => {},
  });
  return { summary, pages: readPages(outDir) };
}

describe('robots.txt unreachable', () => {
  it('sets the host aside and fetches its pages once robots.txt answers, the other host meanwhile', async () => {
    const flaky = await site('127.0.0.1', 2, ['/a', '/b']);
    const steady = await site('127.0.0.2', 0, ['/c']);
    const { summary, pages } = await crawl([`${flaky.origin}/`, `${steady.origin}/`], 2);
    expect(flaky.robotsAsked()).toBe(3);
    expect(flaky.fetched().sort()).toEqual(['/', '/a', '/b']);
    expect(pages.filter((p) => p.outcome === 'robots-denied')).toEqual([]);
    expect(summary).toMatchObject({ fetched: 5, robotsDenied: 0, stoppedBy: 'frontier-empty' });
    // The steady host did not wait for the flaky one.
    expect(pages[0]!.url.startsWith(steady.origin)).toBe(true);
  });

  it('records the host’s URLs robots-denied once robots.txt has failed retries + 1 times', async () => {
    const down = await site('127.0.0.1', Number.POSITIVE_INFINITY);
    const { summary, pages } = await crawl([`${down.origin}/`], 1);
    expect(down.robotsAsked()).toBe(2);
    expect(down.fetched()).toEqual([]);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ outcome: 'robots-denied', error: 'robots.txt answered HTTP 503 (asked 2 times)' });
    expect(summary).toMatchObject({ fetched: 0, robotsDenied: 1 });
  });

  it('does not stall a focused crawl whose best URLs are on the set-aside host', async () => {
    const flaky = await site('127.0.0.1', 1, ['/a', '/b']);
    const steady = await site('127.0.0.2', 0, ['/c', '/d', '/e']);
    // A claim window of 1 with the flaky host ranked first: without passing over its URLs, no
    // worker could claim anything until its robots.txt is asked again.
    const focused: CrawlStrategy = {
      name: 'flaky-first',
      claimWindow: 1,
      seedScore: 1,
      scoreLinks: (_parent, links) => links.map((link) => (link.url.startsWith(flaky.origin) ? 0.9 : 0.1)),
    };
    const { summary } = await crawl([`${flaky.origin}/`, `${steady.origin}/`], 1, focused, 400);
    expect(summary).toMatchObject({ fetched: 7, robotsDenied: 0 });
    expect(steady.fetched().sort()).toEqual(['/', '/c', '/d', '/e']);
    expect(flaky.robotsAt()).toHaveLength(2);
    // Every steady page was fetched while the flaky host was set aside.
    expect(Math.max(...steady.fetchedAt())).toBeLessThan(flaky.robotsAt()[1]!);
  });
});
