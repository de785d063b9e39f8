/**
 * A service crawl on a shared frontier (`startService({ frontier })`, `serve --frontier`): the
 * crawl runs on Redis as `?crawl=<its id>`, a `linkscent crawl --frontier …?crawl=<id>` process
 * started with no seeds joins it, and the service's progress (what the dashboard shows) counts
 * both processes' pages. A real redis-server, no mock.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../companion/service/server.ts';
import { crawlFrontier } from '../../../companion/service/crawl-run.ts';
import { redisSkipReason, startRedis, type RunningRedis } from '../../../bench/support/redis-server.ts';
import { startSiteServer, type SiteServer } from '../support/site-server.ts';
import { startCli } from '../support/run-cli.ts';
import { call, tempHome, waitForCrawl } from './service-helpers.ts';

describe.skipIf(redisSkipReason)('a service crawl on a shared Redis frontier', () => {
  let redis: RunningRedis;
  let site: SiteServer;
  let home: ReturnType<typeof tempHome>;
  let service: RunningService;
  let workDir: string;

  beforeAll(async () => {
    redis = await startRedis();
    site = await startSiteServer({ perTopic: 20, delayMs: 100 });
    home = tempHome();
    workDir = mkdtempSync(join(tmpdir(), 'linkscent-shared-worker-'));
    service = await startService({ port: 0, home: join(home.dir, 'home'), log: () => {}, frontier: redis.url });
  });
  afterAll(async () => {
    await service?.close();
    await site?.close();
    await redis?.stop();
    home?.cleanup();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('runs the crawl on Redis, a crawl process joins it, and the progress counts both', async () => {
    // One host (per-host concurrency 2, shared): the service takes one fetch at a time and leaves
    // the other slot to the worker; the site answers in 100 ms, so the worker starts in time.
    const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(service.port, path, { token: service.token, ...options });
    const created = (await api('/api/crawls', { body: { seeds: [`${site.origin}/`], maxPages: 40, delayMs: 0, concurrency: 1 } })).json();
    const worker = startCli(['crawl', '--frontier', crawlFrontier(redis.url, created.id), '--strategy', 'bfs', '--max-pages', '40', '--out', join(workDir, 'w'), '--delay-ms', '0']);
    const done = await waitForCrawl(service.port, service.token, created.id, (c) => c.state !== 'running');
    const joined = await worker.done;
    expect(joined.code, joined.stderr).toBe(0);
    expect(done.state).toBe('done');

    // Pages requested (maxPages counts those; robots.txt forbids the site's /private/ pages).
    const requested = (pages: { url: string; outcome: string }[]) => pages.filter((page) => page.outcome !== 'robots-denied').map((page) => page.url);
    const workerPages = requested(readFileSync(join(workDir, 'w', 'pages.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)));
    const servicePages = (await api(`/api/crawls/${created.id}/pages`)).json();
    const serviceUrls = requested(servicePages.pages ?? servicePages);
    expect(workerPages.length).toBeGreaterThan(0);
    expect(serviceUrls.filter((url) => workerPages.includes(url))).toEqual([]); // each page once, in one process
    expect(serviceUrls.length + workerPages.length).toBe(40);
    expect(done.progress.fetched).toBe(40); // the whole crawl's pages, not the service's alone
  });
});
