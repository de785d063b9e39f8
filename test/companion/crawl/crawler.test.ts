import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import type { CrawlOptionsInput } from '../../../companion/crawl/crawl-options.ts';
import { CrawlOptionsError, SkipUrlError, StopCrawlError } from '../../../companion/crawl/crawl-errors.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { CrawlStore } from '../../../companion/store/crawl-store.ts';
import { startSiteServer, type SiteServer } from '../support/site-server.ts';
import { pathOf, readPages, tempDir } from './crawl-test-helpers.ts';

let site: SiteServer;
let dirs: (() => void)[] = [];

beforeAll(async () => {
  site = await startSiteServer({ perTopic: 30 });
});
afterAll(() => site.close());
afterEach(() => {
  for (const cleanup of dirs.splice(0)) cleanup();
});

function options(overrides: Partial<CrawlOptionsInput> = {}): CrawlOptionsInput {
  const { dir, cleanup } = tempDir();
  dirs.push(cleanup);
  return {
    seeds: [`${site.origin}/`],
    outDir: join(dir, 'out'),
    maxPages: 20,
    strategy: createStrategy('bfs'),
    concurrency: 1,
    delayMs: 0,
    log: () => {},
    ...overrides,
  };
}

describe('runCrawl (bfs on a loopback site)', () => {
  it('fetches maxPages pages in breadth-first order, each once, and writes pages.jsonl', async () => {
    const o = options({ maxPages: 25 });
    const summary = await runCrawl(o);
    const all = readPages(o.outDir);
    const pages = all.filter((p) => p.outcome !== 'robots-denied'); // /private/0.html is linked early
    expect(summary).toMatchObject({ fetched: 25, fetchedThisRun: 25, stoppedBy: 'max-pages', resumed: false });
    expect(pages).toHaveLength(25);
    expect(new Set(all.map((p) => p.url)).size).toBe(all.length);
    expect(pages[0]).toMatchObject({ url: `${site.origin}/`, depth: 0, parent: null, status: 200, outcome: 'ok', contentType: 'text/html' });
    const depths = pages.map((p) => p.depth);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
    expect(pages.every((p) => p.score === -p.depth)).toBe(true);
    for (const p of pages.slice(1)) expect(pages.some((q) => q.url === p.parent || q.finalUrl === p.parent)).toBe(true);
    // Every page line carries the contract's fields.
    for (const key of ['url', 'finalUrl', 'status', 'depth', 'parent', 'score', 'fetchedAt', 'bytes', 'contentType', 'outcome']) {
      expect(pages[3]).toHaveProperty(key);
    }
  });

  it('honours robots.txt: disallowed URLs are recorded as robots-denied, never requested, not counted', async () => {
    const before = site.requests.length;
    const o = options({ maxPages: 1000, maxDepth: 20, concurrency: 3 });
    const summary = await runCrawl(o);
    const pages = readPages(o.outDir);
    const denied = pages.filter((p) => p.outcome === 'robots-denied');
    expect(summary.stoppedBy).toBe('frontier-empty');
    expect(denied.length).toBeGreaterThan(0);
    expect(denied.every((p) => pathOf(p.url).startsWith('/private/') && p.status === 0)).toBe(true);
    expect(site.requests.slice(before).filter((p) => p.startsWith('/private/'))).toEqual([]);
    // The whole public site, each page once: home + 3 sections + 3 × 30 articles.
    expect(summary.fetched).toBe(1 + 3 + 90);
    expect(summary.robotsDenied).toBe(denied.length);
    expect(pages.length).toBe(summary.fetched + denied.length);
    expect(new Set(pages.map((p) => p.url)).size).toBe(pages.length);
  });

  it('stops at the depth limit', async () => {
    const o = options({ maxPages: 1000, maxDepth: 1 });
    const summary = await runCrawl(o);
    const pages = readPages(o.outDir);
    expect(summary.stoppedBy).toBe('frontier-empty');
    expect(Math.max(...pages.map((p) => p.depth))).toBe(1);
    expect(pages).toHaveLength(1 + 3 + 6); // home, its 3 sections and its 6 headlines
  });

  it('caps pages per host', async () => {
    const o = options({ maxPages: 100, maxPagesPerHost: 7 });
    const summary = await runCrawl(o);
    expect(summary.fetched).toBe(7);
    expect(summary.stoppedBy).toBe('frontier-empty');
  });

  it('meta nofollow, rel=nofollow and noindex: not followed, not followed, recorded but marked', async () => {
    const s = (p: string) => `${site.origin}/special/${p}`;
    const o = options({ seeds: [s('nofollow.html'), s('rel.html'), s('noindex.html'), s('redirect.html')], maxDepth: 1, maxPages: 200 });
    await runCrawl(o);
    const byPath = new Map(readPages(o.outDir).map((p) => [pathOf(p.url), p]));
    expect(byPath.has('/special/a.html')).toBe(false); // meta nofollow page's link
    expect(byPath.has('/special/c.html')).toBe(false); // rel=nofollow link
    expect(byPath.has('/special/b.html')).toBe(true); // a noindex page's links are followed
    expect(byPath.get('/special/noindex.html')?.noindex).toBe(true);
    expect(byPath.get('/special/rel.html')?.noindex).toBeUndefined();
    expect(byPath.get('/special/redirect.html')).toMatchObject({ finalUrl: s('d.html'), status: 200, outcome: 'ok' });
    // d.html was reached through the redirect, so it is not fetched again under its own name,
    // although rel.html linked to it before.
    expect([...byPath.values()].filter((p) => p.finalUrl === s('d.html'))).toHaveLength(1);
    expect(byPath.has('/special/d.html')).toBe(false);
  });

  it('reports an invalid seed in one line and crawls the rest; all invalid is an error', async () => {
    const lines: string[] = [];
    const o = options({ seeds: ['not a url', 'ftp://x.test/', `${site.origin}/`], maxPages: 3, log: (l) => lines.push(l) });
    const summary = await runCrawl(o);
    expect(summary.fetched).toBe(3);
    expect(lines).toEqual([
      'crawl: skipping seed "not a url": not an absolute http(s) URL',
      'crawl: skipping seed "ftp://x.test/": not an absolute http(s) URL',
    ]);
    await expect(runCrawl(options({ seeds: ['nope', 'mailto:a@b.c'] }))).rejects.toThrow(CrawlOptionsError);
  });

  it('refuses to start over an existing crawl, and to resume with another strategy', async () => {
    const o = options({ maxPages: 2 });
    await runCrawl(o);
    await expect(runCrawl(o)).rejects.toThrow(/already holds a crawl/);
    await expect(runCrawl({ ...o, resume: true, strategy: createStrategy('best-first', { tokenizer: { tokenize: (t) => t.split(' ') }, topicText: 'x' }) })).rejects.toThrow(
      /was crawled with strategy bfs; resume it with --strategy bfs/,
    );
  });

  it('records a page error on the page and goes on (404, a throwing judge)', async () => {
    const o = options({
      seeds: [`${site.origin}/missing.html`, `${site.origin}/`, `${site.origin}/finance/`],
      maxPages: 6,
      pageJudge: (page) => {
        if (pathOf(page.pageUrl) === '/') throw new Error('judge broke\nsecond line');
        return pathOf(page.pageUrl).startsWith('/finance/') ? 1 : 0;
      },
    });
    const summary = await runCrawl(o);
    const pages = readPages(o.outDir);
    expect(summary.fetched).toBe(6);
    expect(pages.find((p) => pathOf(p.url) === '/missing.html')).toMatchObject({ status: 404, outcome: 'http-error' });
    expect(pages.find((p) => pathOf(p.url) === '/')).toMatchObject({ status: 200, outcome: 'error', error: 'Error: judge broke' });
    expect(summary.errors).toBe(2);
  });

  it('runs hooks at their points in order, lets beforeFetch skip, and exposes parsed links', async () => {
    const calls: string[] = [];
    const o = options({
      maxPages: 3,
      pageJudge: () => 0.9,
      hooks: [
        {
          beforeFetch: (t) => {
            calls.push(`A.before ${pathOf(t.url)}`);
            return pathOf(t.url) !== '/finance/'; // skip one URL
          },
          afterFetch: (f) => void calls.push(`A.after ${f.status}`),
          afterParse: (p) => void calls.push(`A.parse ${p.contexts.length > 0}`),
          linksScored: (s) => void calls.push(`A.scored ${s.scores.length === s.contexts.length && s.followed.length === s.contexts.length}`),
          pageStored: (r) => void calls.push(`A.stored ${r.relevance}`),
        },
        {
          beforeFetch: (t) => {
            calls.push(`B.before ${pathOf(t.url)}`);
            if (pathOf(t.url) === '/sports/') throw new SkipUrlError('not today');
          },
          pageStored: (r) => void calls.push(`B.stored ${r.seq !== undefined}`),
        },
      ],
    });
    await runCrawl(o);
    expect(calls.slice(0, 7)).toEqual(['A.before /', 'B.before /', 'A.after 200', 'A.parse true', 'A.scored true', 'A.stored 0.9', 'B.stored true']);
    expect(calls).toContain('A.before /finance/');
    expect(calls).not.toContain('B.before /finance/'); // A said skip: B is not asked
    const store = CrawlStore.open(o.outDir, { create: false });
    expect(store.frontierEntry(`${site.origin}/finance/`)).toMatchObject({ state: 'dropped', reason: 'skipped by a beforeFetch hook' });
    expect(store.frontierEntry(`${site.origin}/sports/`)).toMatchObject({ state: 'dropped', reason: 'not today' });
    store.close();
    expect(readPages(o.outDir).map((p) => pathOf(p.url))).not.toContain('/finance/');
  });

  it('an abort pauses: in-flight pages are not recorded, and a resume completes with each page once', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const o = options({
      maxPages: 30,
      concurrency: 3,
      signal: controller.signal,
      onProgress: (p) => progress.push(p.fetched),
      hooks: [{ pageStored: (r) => void (r.seq === 8 && controller.abort()) }],
    });
    const first = await runCrawl(o);
    expect(first.stoppedBy).toBe('aborted');
    expect(first.fetched).toBeGreaterThanOrEqual(8);
    expect(first.fetched).toBeLessThan(30);
    expect(progress.at(-1)).toBe(first.fetched);

    const second = await runCrawl({ ...o, seeds: [], resume: true, signal: undefined, hooks: [] });
    expect(second).toMatchObject({ fetched: 30, stoppedBy: 'max-pages', resumed: true, requeued: 0 });
    expect(second.fetchedThisRun).toBe(30 - first.fetched);
    const pages = readPages(o.outDir);
    expect(new Set(pages.map((p) => p.url)).size).toBe(pages.length);
    expect(pages.filter((p) => p.outcome !== 'robots-denied')).toHaveLength(30);
  });

  it('a hook error after the commit is one line; StopCrawlError stops the crawl and keeps what was recorded', async () => {
    const lines: string[] = [];
    const o = options({
      maxPages: 10,
      log: (l) => lines.push(l),
      hooks: [
        {
          pageStored: (r) => {
            if (r.seq === 2) throw new Error('export failed');
            if (r.seq === 4) throw new StopCrawlError('disk quota reached');
          },
        },
      ],
    });
    await expect(runCrawl(o)).rejects.toThrow('disk quota reached');
    expect(lines).toEqual([expect.stringMatching(/^crawl: a pageStored hook failed for http:\/\/127\.0\.0\.1:\d+\/\S+: Error: export failed$/)]);
    expect(readPages(o.outDir)).toHaveLength(4);
    const resumed = await runCrawl({ ...o, seeds: [], resume: true, hooks: [] });
    expect(resumed.fetched).toBe(10);
    const urls = readPages(o.outDir).filter((p) => p.outcome !== 'robots-denied').map((p) => p.url);
    expect(new Set(urls).size).toBe(10);
  });

  it('a run that fails ends with every page it recorded committed, reported and in its store', async () => {
    const o = options({
      maxPages: 30,
      concurrency: 4,
      hooks: [
        {
          pageStored: (r) => {
            if (r.seq === 6) throw new StopCrawlError('stop here');
          },
        },
      ],
    });
    await expect(runCrawl(o)).rejects.toThrow('stop here');
    // A recorded page's line waits for its batch of writes to commit: the run ends after every one.
    const reported = readPages(o.outDir).map((p) => p.url);
    const store = CrawlStore.open(o.outDir, { create: false });
    try {
      expect(reported.length).toBeGreaterThanOrEqual(6);
      expect([...store.pages()].map((p) => p.url)).toEqual(reported);
      expect(store.counts()).toMatchObject({ inFlight: 0, done: reported.length });
    } finally {
      store.close();
    }
  });

  it('reports a page only once its commit is on disk; a store that cannot be synced stops the crawl in one line', async () => {
    const realFdatasync = fs.fdatasync;
    const o = options({
      maxPages: 10,
      hooks: [
        {
          // From the third page's report on, the disk refuses every fdatasync (node:fs's own
          // function replaced, as a failing disk would answer): no later page may be reported,
          // and the crawl must stop.
          pageStored: (r) => {
            if (r.seq !== 3) return;
            fs.fdatasync = ((_fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
              setImmediate(() => callback(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', syscall: 'fdatasync' })));
            }) as typeof fs.fdatasync;
            syncBuiltinESMExports();
          },
        },
      ],
    });
    try {
      const failure = runCrawl(o);
      await expect(failure).rejects.toThrow(StopCrawlError);
      await expect(failure).rejects.toThrow(/^the crawl store could not be synced to disk: Error: EIO: i\/o error, fdatasync$/);
    } finally {
      fs.fdatasync = realFdatasync;
      syncBuiltinESMExports();
    }
    expect(readPages(o.outDir)).toHaveLength(3); // the pages before: reported, each synced
  });
});
