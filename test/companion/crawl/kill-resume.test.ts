/**
 * Nothing lost, nothing repeated: a crawl killed with SIGKILL (no handler runs, no buffer is
 * flushed) at two arbitrary moments, then resumed, ends with every page exactly once in both
 * pages.jsonl and SQLite, every page reported before a kill still there, and the total equal to
 * maxPages.
 *
 * The child is spawned as `node --import tsx` rather than `npx tsx`: npx and tsx's own CLI each
 * add a parent process, and SIGKILL to a parent would leave the crawling grandchild running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { CrawlStore } from '../../../companion/store/crawl-store.ts';
import { startSiteServer, type SiteServer } from '../support/site-server.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

const CHILD = resolve(import.meta.dirname, '../support/crawl-child.ts');
const MAX_PAGES = 60;

let site: SiteServer;
beforeAll(async () => {
  site = await startSiteServer({ perTopic: 40, delayMs: 25 });
});
afterAll(() => site.close());

function spawnCrawl(outDir: string, resume: boolean): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CHILD, `${site.origin}/`, outDir, String(MAX_PAGES), resume ? '1' : '0'], {
    cwd: resolve(import.meta.dirname, '../../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Complete lines of pages.jsonl so far (a line being written when killed is not counted). */
function reportedUrls(outDir: string): string[] {
  const file = join(outDir, 'pages.jsonl');
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return text.split('\n').slice(0, -1).map((line) => (JSON.parse(line) as { url: string }).url);
}

/** Waits until pages.jsonl has at least `lines` lines, then kills the child with SIGKILL. */
async function killAfter(child: ChildProcess, outDir: string, lines: number): Promise<string[]> {
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((done) => child.on('exit', (code, signal) => done(signal ?? code)));
  const deadline = Date.now() + 30_000;
  while (reportedUrls(outDir).length < lines) {
    if (child.exitCode !== null) throw new Error(`child exited early (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) throw new Error(`child reported fewer than ${lines} pages in 30 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return reportedUrls(outDir);
}

describe('kill -9, then resume', () => {
  it('ends with every page exactly once and exactly maxPages pages', { timeout: 90_000 }, async () => {
    const { dir, cleanup } = tempDir();
    const outDir = join(dir, 'out');
    try {
      const firstReported = await killAfter(spawnCrawl(outDir, false), outDir, 12);
      const secondReported = await killAfter(spawnCrawl(outDir, true), outDir, 30);
      expect(secondReported.slice(0, firstReported.length)).toEqual(firstReported);

      const summary = await runCrawl({
        seeds: [],
        outDir,
        maxPages: MAX_PAGES,
        strategy: createStrategy('bfs'),
        concurrency: 3,
        delayMs: 0,
        resume: true,
        log: () => {},
      });
      expect(summary).toMatchObject({ fetched: MAX_PAGES, stoppedBy: 'max-pages', resumed: true });
      expect(summary.fetchedThisRun).toBeLessThan(MAX_PAGES - 12);

      const pages = readPages(outDir);
      const urls = pages.map((p) => p.url);
      expect(new Set(urls).size).toBe(urls.length); // no repeat
      expect(pages.filter((p) => p.outcome !== 'robots-denied')).toHaveLength(MAX_PAGES);
      expect(urls.slice(0, secondReported.length)).toEqual(secondReported); // no loss, same order
      expect(pages.every((p) => p.outcome === 'ok' || p.outcome === 'robots-denied')).toBe(true);

      const store = CrawlStore.open(outDir, { create: false });
      try {
        expect([...store.pages()].map((p) => p.url)).toEqual(urls);
        expect(store.counts().inFlight).toBe(0);
      } finally {
        store.close();
      }
      // Only pages in flight at a kill, or recorded in the batch of writes not yet committed
      // (`store/write-batch.ts`), may have been requested twice: at most 3 of each per kill (a
      // worker about to wait on 3 reports commits the batch, so it never holds more than 3 pages).
      const counts = new Map<string, number>();
      for (const path of site.requests.filter((p) => p !== '/robots.txt')) counts.set(path, (counts.get(path) ?? 0) + 1);
      const repeated = [...counts.values()].filter((n) => n > 1);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(3);
      expect(repeated.length).toBeLessThanOrEqual(12);
    } finally {
      cleanup();
    }
  });
});
