/**
 * Retries in the crawl loop against the hostile server's /flaky/… routes: a transient failure is
 * fetched again after a backoff or the server's Retry-After, through the host's politeness slot,
 * and recorded once with its final outcome and its number of attempts.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import type { CrawlOptionsInput } from '../../../companion/crawl/crawl-options.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { startHostileServer, type HostileServer } from '../support/hostile-server.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function crawl(seeds: string[], extra: Partial<CrawlOptionsInput> = {}) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const outDir = join(dir, 'out');
  const summary = await runCrawl({
    seeds, outDir, maxPages: 10, maxDepth: 0, strategy: createStrategy('bfs'),
    concurrency: 2, delayMs: 0, retry: { backoffMs: 100 }, log: () => {}, ...extra,
  });
  return { summary, pages: readPages(outDir) };
}

async function server(): Promise<HostileServer> {
  const s = await startHostileServer({ robots: 'not-found' });
  cleanups.push(() => s.close());
  return s;
}

/** Arrival times of the requests for one path (query included). */
const arrivals = (s: HostileServer, path: string) => s.requests.filter((r) => r.path === path).map((r) => r.at);

describe('retries in the crawl', () => {
  it('fetches again a host that resets twice, then serves: one record, ok, 3 attempts', async () => {
    const s = await server();
    const { summary, pages } = await crawl([`${s.origin}/flaky/reset/2/a`]);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ url: `${s.origin}/flaky/reset/2/a`, outcome: 'ok', status: 200, attempts: 3 });
    expect(pages[0]!.error).toBeUndefined();
    expect(summary).toMatchObject({ fetched: 1, errors: 0 });
    const at = arrivals(s, '/flaky/reset/2/a');
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(90); // backoff 100 ms, then 200 ms
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(190);
  });

  it("honours a 503's Retry-After before the next attempt, for the whole host", async () => {
    const s = await server();
    const { pages } = await crawl([`${s.origin}/flaky/503/1/b?retry-after=1`], { maxDepth: 1 });
    expect(pages[0]).toMatchObject({ outcome: 'ok', status: 200, attempts: 2 });
    const at = arrivals(s, '/flaky/503/1/b?retry-after=1');
    expect(at).toHaveLength(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(950); // Retry-After: 1 (s), not the 100 ms backoff
  });

  it('holds other requests to the host back during a Retry-After', async () => {
    const s = await server();
    const flaky = '/flaky/429/1/c?retry-after=1';
    const answered = async () => {
      // /site/b goes to the host only once the 429 has been answered (with 200 ms to spare).
      while (s.hits('/flaky/429/1/c') === 0) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 200));
    };
    const { pages } = await crawl([`${s.origin}${flaky}`, `${s.origin}/site/b`], {
      hooks: [{ beforeFetch: (task) => (task.url.endsWith('/site/b') ? answered() : undefined) }],
    });
    expect(pages.map((p) => [new URL(p.url).pathname, p.outcome, p.attempts]).sort()).toEqual([
      ['/flaky/429/1/c', 'ok', 2],
      ['/site/b', 'ok', undefined],
    ]);
    const first = arrivals(s, flaky)[0]!;
    expect(s.requests.find((r) => r.path === '/site/b')!.at - first).toBeGreaterThanOrEqual(950);
  });

  it('records the last failure when the retries run out', async () => {
    const s = await server();
    const { summary, pages } = await crawl([`${s.origin}/flaky/502/5/d`], { retry: { retries: 1, backoffMs: 10 } });
    expect(pages[0]).toMatchObject({ outcome: 'http-error', status: 502, error: 'HTTP 502', attempts: 2 });
    expect(s.hits('/flaky/502/5/d')).toBe(2);
    expect(summary).toMatchObject({ fetched: 1, errors: 1 });
  });

  it('does not retry a permanent failure, nor a Retry-After beyond the cap', async () => {
    const s = await server();
    const { pages } = await crawl([`${s.origin}/status/404`, `${s.origin}/status/500`, `${s.origin}/flaky/503/1/e?retry-after=3600`]);
    for (const page of pages) expect(page.attempts).toBeUndefined();
    expect(pages.map((p) => p.status).sort()).toEqual([404, 500, 503]);
    expect(s.hits('/status/404') + s.hits('/status/500') + s.hits('/flaky/503/1/e')).toBe(3);
  });

  it('retries 0 turns retries off', async () => {
    const s = await server();
    const { pages } = await crawl([`${s.origin}/flaky/reset/1/f`], { retry: { retries: 0 } });
    expect(pages[0]).toMatchObject({ outcome: 'network-error', status: 0 });
    expect(pages[0]!.attempts).toBeUndefined();
    expect(s.hits('/flaky/reset/1/f')).toBe(1);
  });

  it('spaces a retry from the previous request by the per-host delay, even with no backoff', async () => {
    const s = await server();
    await crawl([`${s.origin}/flaky/504/1/g`], { delayMs: 300, retry: { backoffMs: 0 } });
    const at = arrivals(s, '/flaky/504/1/g');
    expect(at).toHaveLength(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(250);
  });

  it('rejects a retry count out of bounds in one line', async () => {
    await expect(crawl(['http://127.0.0.1:1/'], { retry: { retries: 11 } })).rejects.toThrow('retry.retries must be a whole number from 0 to 10, got 11');
    await expect(crawl(['http://127.0.0.1:1/'], { retry: { retry: 1 } as never })).rejects.toThrow(/unknown retry option 'retry.retry'/);
  });
});
