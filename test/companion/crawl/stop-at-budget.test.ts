/**
 * Stop at the budget (issue 13, item 5): when maxPages pages are recorded, the fetches still in
 * flight are abandoned (the server sees the client go away), stay queued for a resume, and the
 * crawl ends. One stalled page (30 s response deadline, retried twice) used to hold a crawl about
 * 90 s after its last page: idle workers waited for it instead of fetching the pages left.
 *
 * The stalled page is one the site never answers. Nothing here is timed: the response deadline
 * stays at its 30 s default, so a crawl that waited for the page would outlive the test's guard.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { runCli } from '../support/run-cli.ts';
import { pathOf, readPages, tempDir } from './crawl-test-helpers.ts';

/** The stalled page first, so it is claimed at once and in flight all along. */
const LINKS = ['/stall', ...Array.from({ length: 10 }, (_, i) => `/p${i}`)];
const MAX_PAGES = 11; // the home page and the ten that answer

let site: ScriptedSite;
const cleanups: (() => void)[] = [];
beforeAll(async () => {
  site = await startScriptedSite({
    page: (path) => (path === '/' ? `<html><body>${LINKS.map((p) => `<p><a href="${p}">${p}</a></p>`).join('')}</body></html>` : '<p>a page</p>'),
    hold: (path) => (path === '/stall' ? new Promise<void>(() => {}) : undefined),
  });
});
afterAll(async () => {
  for (const cleanup of cleanups) cleanup();
  await site.close();
});

function outDir(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'out');
}

/** Resolves once every request for `path` so far was abandoned by the client. */
async function abandoned(path: string): Promise<void> {
  const asked = () => site.requests.filter((r) => r.path === path);
  while (asked().length === 0 || asked().some((r) => !r.abandoned)) await new Promise((r) => setTimeout(r, 5));
}

function frontierState(out: string, url: string): string | undefined {
  const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT state FROM frontier WHERE url = ?').get(url) as { state: string } | undefined)?.state;
  } finally {
    db.close();
  }
}

describe('a crawl at its page budget', () => {
  it('abandons the stalled fetch, keeps its URL queued, and ends', async () => {
    const out = outDir();
    const summary = await runCrawl({ seeds: [`${site.origin}/`], outDir: out, maxPages: MAX_PAGES, strategy: createStrategy('bfs'), concurrency: 2, delayMs: 0, log: () => {} });
    expect(summary).toMatchObject({ fetched: MAX_PAGES, stoppedBy: 'max-pages' });
    const paths = readPages(out).map((p) => pathOf(p.url));
    expect(paths).toHaveLength(MAX_PAGES);
    expect(paths).not.toContain('/stall');
    expect(frontierState(out, `${site.origin}/stall`)).toBe('queued');
    await abandoned('/stall');
  });

  it('linkscent crawl exits once its last page is recorded, the stalled one queued for --resume', async () => {
    const out = outDir();
    const result = await runCli(['crawl', `${site.origin}/`, '--max-pages', String(MAX_PAGES), '--out', out, '--delay-ms', '0', '--concurrency', '2'], { timeoutMs: 25_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^crawl: ${MAX_PAGES} pages this run .* stopped by max-pages → `));
    expect(readPages(out).map((p) => pathOf(p.url))).not.toContain('/stall');
    expect(frontierState(out, `${site.origin}/stall`)).toBe('queued');
  });

  it('never records more than maxPages, however many workers finish at once', async () => {
    const out = outDir();
    const summary = await runCrawl({ seeds: [`${site.origin}/`], outDir: out, maxPages: 4, strategy: createStrategy('bfs'), concurrency: 6, perHostConcurrency: 6, delayMs: 0, log: () => {} });
    expect(summary).toMatchObject({ fetched: 4, stoppedBy: 'max-pages' });
    expect(readPages(out)).toHaveLength(4);
    const resumed = await runCrawl({ seeds: [], outDir: out, maxPages: 6, strategy: createStrategy('bfs'), concurrency: 6, perHostConcurrency: 6, delayMs: 0, resume: true, log: () => {} });
    expect(resumed).toMatchObject({ fetched: 6, fetchedThisRun: 2, stoppedBy: 'max-pages' });
    const urls = readPages(out).map((p) => p.url);
    expect(new Set(urls).size).toBe(6);
  });
});
