/**
 * A passing robots.txt outage loses nothing: the host is set aside (its URLs stay queued) and
 * robots.txt is asked again after `retry.robotsRetryMs`, up to `retry.retries` times; only a host
 * whose robots.txt never answers has its URLs recorded robots-denied. Meanwhile the other hosts
 * are crawled.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A site on `address` whose robots.txt answers 503 `failures` times, then 404 (no rules). */
async function site(address: string, failures: number, links: string[] = []) {
  let robotsAsked = 0;
  const fetched: string[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      robotsAsked++;
      return void res.writeHead(robotsAsked <= failures ? 503 : 404).end();
    }
    fetched.push(req.url ?? '');
    const body = req.url === '/' ? links.map((href, i) => `<p><a href="${href}">page ${i}</a></p>`).join('') : '<p>a page</p>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { origin: `http://${address}:${(server.address() as AddressInfo).port}`, robotsAsked: () => robotsAsked, fetched };
}

async function crawl(seeds: string[], retries: number) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const outDir = join(dir, 'out');
  const summary = await runCrawl({
    seeds,
    outDir,
    maxPages: 20,
    strategy: createStrategy('bfs'),
    concurrency: 2,
    delayMs: 0,
    retry: { retries, robotsRetryMs: 150, backoffMs: 10 },
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
    expect(flaky.fetched.sort()).toEqual(['/', '/a', '/b']);
    expect(pages.filter((p) => p.outcome === 'robots-denied')).toEqual([]);
    expect(summary).toMatchObject({ fetched: 5, robotsDenied: 0, stoppedBy: 'frontier-empty' });
    // The steady host did not wait for the flaky one.
    expect(pages[0]!.url.startsWith(steady.origin)).toBe(true);
  });

  it('records the host’s URLs robots-denied once robots.txt has failed retries + 1 times', async () => {
    const down = await site('127.0.0.1', Number.POSITIVE_INFINITY);
    const { summary, pages } = await crawl([`${down.origin}/`], 1);
    expect(down.robotsAsked()).toBe(2);
    expect(down.fetched).toEqual([]);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ outcome: 'robots-denied', error: 'robots.txt unreachable (asked 2 times)' });
    expect(summary).toMatchObject({ fetched: 0, robotsDenied: 1 });
  });
});
