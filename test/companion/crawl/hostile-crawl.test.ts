/**
 * The crawl loop against the hostile loopback server: endless URL spaces end at the caps, a
 * redirect loop and HTTP errors are recorded and the crawl goes on, robots.txt's Disallow and
 * Crawl-delay are honoured.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { startHostileServer, type HostileServer } from '../support/hostile-server.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function server(robots: 'normal' | 'not-found'): Promise<HostileServer> {
  const s = await startHostileServer({ robots });
  cleanups.push(() => s.close());
  return s;
}

function outDir(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'out');
}

describe('crawling a hostile site', () => {
  it('bounds the endless spaces by depth and query caps; a redirect loop and a 404 do not stop it', async () => {
    const s = await server('not-found');
    const dir = outDir();
    const summary = await runCrawl({
      seeds: [`${s.origin}/`],
      outDir: dir,
      maxPages: 1000,
      maxDepth: 100,
      strategy: createStrategy('bfs'),
      concurrency: 2,
      delayMs: 0,
      log: () => {},
    });
    const pages = readPages(dir);
    const paths = pages.map((p) => new URL(p.url).pathname + new URL(p.url).search);
    expect(summary.stoppedBy).toBe('frontier-empty');

    const trap = pages.filter((p) => new URL(p.url).pathname.startsWith('/trap/'));
    expect(trap).toHaveLength(100); // /trap/1 … /trap/100: the depth limit
    expect(Math.max(...trap.map((p) => p.depth))).toBe(100);

    const cal = pages.filter((p) => new URL(p.url).pathname === '/cal');
    expect(cal.length).toBeGreaterThan(20);
    expect(cal.every((p) => new URL(p.url).search.length - 1 <= 256)).toBe(true);
    expect(Math.max(...cal.map((p) => p.depth))).toBeLessThan(100); // stopped by the query cap first

    expect(pages.find((p) => p.url === `${s.origin}/loop/a`)).toMatchObject({ outcome: 'redirect-loop' });
    expect(pages.find((p) => p.url === `${s.origin}/status/404`)).toMatchObject({ outcome: 'http-error', status: 404 });
    expect(paths).toContain('/site/c');
    expect(new Set(pages.map((p) => p.url)).size).toBe(pages.length);
    expect(summary.errors).toBe(pages.filter((p) => p.outcome !== 'ok').length);
  });

  it('skips what robots.txt disallows and spaces requests by its Crawl-delay', { timeout: 20_000 }, async () => {
    const s = await server('normal'); // *: Disallow /private, Crawl-delay 1
    const dir = outDir();
    const summary = await runCrawl({
      seeds: [`${s.origin}/private/secret`, `${s.origin}/site/a`, `${s.origin}/site/b`],
      outDir: dir,
      maxPages: 10,
      maxDepth: 0,
      strategy: createStrategy('bfs'),
      concurrency: 3,
      perHostConcurrency: 3,
      delayMs: 0,
      log: () => {},
    });
    const pages = readPages(dir);
    expect(pages.find((p) => p.url.endsWith('/private/secret'))).toMatchObject({ outcome: 'robots-denied', status: 0 });
    expect(s.hits('/private/secret')).toBe(0);
    expect(summary).toMatchObject({ fetched: 2, robotsDenied: 1 });
    const starts = s.requests.filter((r) => r.path.startsWith('/site/')).map((r) => r.at);
    expect(starts).toHaveLength(2);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(950);
  });
});
