import { describe, expect, it } from 'vitest';
import { validateCrawlOptions } from '../../../companion/crawl/crawl-options.ts';
import { CrawlOptionsError } from '../../../companion/crawl/crawl-errors.ts';
import { CRAWL_LIMITS } from '../../../companion/crawl/crawl-limits.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { formatProgress, createProgressReporter, type CrawlProgress } from '../../../companion/crawl/progress.ts';

const base = { outDir: '/tmp/x', maxPages: 10, strategy: createStrategy('bfs'), seeds: ['http://a.test/'] };

describe('validateCrawlOptions', () => {
  it('fills the documented defaults', () => {
    const o = validateCrawlOptions(base);
    expect(o).toMatchObject({ concurrency: 4, perHostConcurrency: 2, delayMs: 500, maxDepth: 10, maxPagesPerHost: null, window: 80, resume: false });
    expect(o.traps).toEqual({ maxSegmentRepeats: 3, maxQueryLength: 256, maxUrlLength: 2048, maxPathSegments: 32 });
    expect(o.fetch.maxRedirects).toBe(5);
  });

  it('names the bad option in one line', () => {
    expect(() => validateCrawlOptions({ ...base, maxPages: 0 })).toThrow('maxPages must be a whole number from 1 to 10000000, got 0');
    expect(() => validateCrawlOptions({ ...base, concurrency: 1.5 })).toThrow(/concurrency/);
    expect(() => validateCrawlOptions({ ...base, maxPage: 3 } as never)).toThrow(/unknown crawl option 'maxPage'/);
    expect(() => validateCrawlOptions({ ...base, seeds: [] })).toThrow('a new crawl needs at least one seed URL');
    expect(() => validateCrawlOptions({ ...base, fetch: { maxBytes: -1 } })).toThrow(/fetch: maxBytes/);
    expect(() => validateCrawlOptions({ ...base, traps: { maxQueryLength: 0 } })).toThrow(/traps.maxQueryLength/);
    expect(() => validateCrawlOptions({ ...base, strategy: undefined as never })).toThrow(CrawlOptionsError);
    expect(() => validateCrawlOptions({ ...base, storeCacheKiB: 8 })).toThrow(/storeCacheKiB/);
  });

  // Issue 13, item 11: --delay-ms 1e12 parked every worker, --concurrency 100000 was taken.
  it('holds every crawl to CRAWL_LIMITS, the bounds the service also applies', () => {
    expect(() => validateCrawlOptions({ ...base, concurrency: CRAWL_LIMITS.concurrency + 1 })).toThrow(`concurrency must be a whole number from 1 to ${CRAWL_LIMITS.concurrency}, got ${CRAWL_LIMITS.concurrency + 1}`);
    expect(() => validateCrawlOptions({ ...base, delayMs: 1e12 })).toThrow(`delayMs must be a whole number from 0 to ${CRAWL_LIMITS.delayMs}, got 1000000000000`);
    expect(() => validateCrawlOptions({ ...base, perHostConcurrency: 100_000 })).toThrow(/perHostConcurrency/);
    expect(validateCrawlOptions({ ...base, concurrency: CRAWL_LIMITS.concurrency, delayMs: CRAWL_LIMITS.delayMs }).delayMs).toBe(CRAWL_LIMITS.delayMs);
  });

  it('lets a resume run without seeds', () => {
    expect(validateCrawlOptions({ ...base, seeds: [], resume: true }).seeds).toEqual([]);
  });
});

describe('progress', () => {
  const p: CrawlProgress = {
    fetched: 12, fetchedThisRun: 12, maxPages: 100, queued: 40, inFlight: 2, errors: 1,
    judged: 10, relevant: 8, harvest: 0.8, elapsedMs: 4000, pagesPerSecond: 3, done: false,
  };

  it('formats one line', () => {
    expect(formatProgress(p)).toBe('12/100 pages · 40 queued · harvest 80.0% (8/10) · 3.0 pages/s · 1 errors');
    expect(formatProgress({ ...p, harvest: null })).not.toContain('harvest');
  });

  it('rewrites one line on a TTY, prints throttled plain lines elsewhere', () => {
    let t = 0;
    const tty: string[] = [];
    const onTty = createProgressReporter({ stream: { isTTY: true, write: (s: string) => tty.push(s) }, now: () => t });
    onTty(p);
    t = 50;
    onTty(p); // throttled
    t = 200;
    onTty({ ...p, done: true });
    expect(tty).toHaveLength(2);
    expect(tty[0]).toMatch(/^\r\x1b\[2K12\/100 pages/);
    expect(tty[1]!.endsWith('\n')).toBe(true);

    const log: string[] = [];
    const onLog = createProgressReporter({ stream: { write: (s: string) => log.push(s) }, intervalMs: 1000, now: () => t });
    for (t = 0; t < 2500; t += 100) onLog(p);
    onLog({ ...p, done: true });
    expect(log).toHaveLength(4); // t = 0, 1000, 2000, and the final line
    expect(log.every((line) => line.startsWith('crawl: ') && line.endsWith('\n') && !line.includes('\r'))).toBe(true);
  });
});
