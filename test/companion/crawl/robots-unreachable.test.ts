/**
 * A passing robots.txt outage loses nothing: the host is set aside (its URLs stay queued) and,
 * while other work remains, robots.txt is asked again after `retry.robotsRetryMs`, up to
 * `retry.retries` times; only a host whose robots.txt never answers has its URLs recorded
 * robots-denied. Meanwhile the other hosts are crawled. When nothing is left but set-aside
 * hosts, the run ends at once (`hosts-unreachable`) instead of waiting minutes for them: their
 * URLs stay queued, one line says so, and a resume asks again.
 *
 * Waits that would otherwise be timing are made certain with pages the site holds back: the
 * steady host's last page is answered only once the flaky host's robots.txt has been asked as
 * often as the test expects, so there is other work for exactly as long as it takes.
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
async function site(address: string, failures: number, links: string[] = [], hold?: (path: string) => Promise<void> | undefined) {
  const scripted = await startScriptedSite({
    address,
    robots: (n) => (n <= failures ? 503 : 404),
    page: (path) => `<html><body>${path === '/' ? links.map((href, i) => `<p><a href="${href}">page ${i}</a></p>`).join('') : '<p>a page</p>'}</body></html>`,
    ...(hold ? { hold } : {}),
  });
  cleanups.push(scripted.close);
  const robots = () => scripted.requests.filter((r) => r.path === '/robots.txt');
  const pages = () => scripted.requests.filter((r) => r.path !== '/robots.txt');
  return {
    origin: scripted.origin,
    host: new URL(scripted.origin).hostname,
    robotsAsked: () => robots().length,
    robotsAt: () => robots().map((r) => r.at),
    fetched: () => pages().map((r) => r.path),
    fetchedAt: () => pages().map((r) => r.at),
  };
}

/** A promise that resolves once `condition()` holds (polled: the site's own request log). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

async function crawl(seeds: string[], retries: number, strategy: CrawlStrategy = createStrategy('bfs'), robotsRetryMs = 50, resume?: string) {
  let outDir = resume;
  if (outDir === undefined) {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    outDir = join(dir, 'out');
  }
  const logs: string[] = [];
  const summary = await runCrawl({
    seeds,
    outDir,
    maxPages: 20,
    strategy,
    concurrency: 2,
    delayMs: 0,
    resume: resume !== undefined,
    retry: { retries, robotsRetryMs, backoffMs: 10 },
    log: (line) => logs.push(line),
  });
  return { summary, pages: readPages(outDir), logs, outDir };
}

describe('robots.txt unreachable', () => {
  it('sets the host aside while other work remains, and fetches its pages once robots.txt answers', async () => {
    const flaky = await site('127.0.0.1', 2, ['/a', '/b']);
    const steady = await site('127.0.0.2', 0, ['/c', '/d'], (path) => (path === '/d' ? until(() => flaky.robotsAsked() >= 3) : undefined));
    const { summary, pages } = await crawl([`${flaky.origin}/`, `${steady.origin}/`], 2);
    expect(flaky.robotsAsked()).toBe(3);
    expect(flaky.fetched().sort()).toEqual(['/', '/a', '/b']);
    expect(pages.filter((p) => p.outcome === 'robots-denied')).toEqual([]);
    expect(summary).toMatchObject({ fetched: 6, robotsDenied: 0, stoppedBy: 'frontier-empty' });
    // The steady host did not wait for the flaky one.
    expect(pages[0]!.url.startsWith(steady.origin)).toBe(true);
  });

  it('records the host’s URLs robots-denied once robots.txt has failed retries + 1 times', async () => {
    const down = await site('127.0.0.1', Number.POSITIVE_INFINITY);
    const steady = await site('127.0.0.2', 0, ['/c'], (path) => (path === '/c' ? until(() => down.robotsAsked() >= 2) : undefined));
    const { summary, pages } = await crawl([`${down.origin}/`, `${steady.origin}/`], 1);
    expect(down.robotsAsked()).toBe(2);
    expect(down.fetched()).toEqual([]);
    expect(pages.find((p) => p.url.startsWith(down.origin))).toMatchObject({ outcome: 'robots-denied', error: 'robots.txt answered HTTP 503 (asked 2 times)' });
    expect(summary).toMatchObject({ fetched: 2, robotsDenied: 1, stoppedBy: 'frontier-empty' });
  });

  // Regression: the seed check's question was not counted once its answer had expired before the
  // crawl reached the host (a busy start), so the host was asked once more than `retries` allows,
  // or, with nothing else to do by then, left queued as unreachable instead of recorded.
  it('counts the seed check\'s question as the first, however late the crawl reaches the host', async () => {
    const down = await site('127.0.0.1', Number.POSITIVE_INFINITY);
    // One worker, the steady seed first, its page held until the seed check's answer (20 ms) is stale.
    const steady = await site('127.0.0.2', 0, [], (path) => (path === '/' ? new Promise((r) => setTimeout(r, 200)) : undefined));
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const outDir = join(dir, 'out');
    const summary = await runCrawl({
      seeds: [`${steady.origin}/`, `${down.origin}/`],
      outDir,
      maxPages: 20,
      strategy: createStrategy('bfs'),
      concurrency: 1,
      delayMs: 0,
      retry: { retries: 1, robotsRetryMs: 20, backoffMs: 10 },
      log: () => {},
    });
    expect(down.robotsAsked()).toBe(2);
    expect(readPages(outDir).find((p) => p.url.startsWith(down.origin))).toMatchObject({ outcome: 'robots-denied', error: 'robots.txt answered HTTP 503 (asked 2 times)' });
    expect(summary).toMatchObject({ fetched: 1, robotsDenied: 1, stoppedBy: 'frontier-empty' });
  });

  it('passes over the set-aside host\'s URLs, even those a focused crawl ranks first', async () => {
    const flaky = await site('127.0.0.1', 1, ['/a', '/b']);
    const steady = await site('127.0.0.2', 0, ['/c', '/d', '/e']);
    // A claim window of 1 with the flaky host ranked first: without passing over its URLs, no
    // worker could claim anything until its robots.txt is asked again (not in this run).
    const focused: CrawlStrategy = {
      name: 'flaky-first',
      claimWindow: 1,
      seedScore: 1,
      scoreLinks: (_parent, links) => links.map((link) => (link.url.startsWith(flaky.origin) ? 0.9 : 0.1)),
    };
    const { summary } = await crawl([`${flaky.origin}/`, `${steady.origin}/`], 1, focused, 600_000);
    expect(steady.fetched().sort()).toEqual(['/', '/c', '/d', '/e']);
    expect(flaky.robotsAsked()).toBe(1);
    expect(summary).toMatchObject({ fetched: 4, robotsDenied: 0, stoppedBy: 'hosts-unreachable' });
  });

  // Regression: with nothing else to do, the crawl slept out robotsRetryMs (5 minutes by
  // default), twice, before it ended.
  it('ends at once when only set-aside hosts are left, says so in one line, and a resume asks again', { timeout: 30_000 }, async () => {
    const flaky = await site('127.0.0.1', 1, ['/a']);
    const { summary, logs, outDir, pages } = await crawl([`${flaky.origin}/`], 2, createStrategy('bfs'), 300_000);
    expect(summary).toMatchObject({
      fetched: 0,
      queued: 1,
      stoppedBy: 'hosts-unreachable',
      setAside: [{ host: flaky.host, reason: 'robots.txt answered HTTP 503', queued: 1 }],
    });
    expect(pages).toEqual([]);
    expect(logs).toEqual([`crawl: 1 URL(s) left queued on 1 host(s) whose robots.txt could not be fetched: ${flaky.host} (robots.txt answered HTTP 503); --resume asks again`]);
    const resumed = await crawl([], 2, createStrategy('bfs'), 300_000, outDir);
    expect(flaky.robotsAsked()).toBe(2);
    expect(resumed.summary).toMatchObject({ fetched: 2, stoppedBy: 'frontier-empty' });
    expect(flaky.fetched().sort()).toEqual(['/', '/a']);
  });
});
