/**
 * Redirects obey the crawl's scope as links do (issue 13, item 9): a seed that redirects to
 * another host is not followed under --scope seed-hosts, and that host is asked nothing, not
 * even robots.txt. Two real loopback sites, one per host.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import type { Scope } from '../../../companion/crawl/url-scope.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

let home: ScriptedSite;
let elsewhere: ScriptedSite;
const cleanups: (() => void)[] = [];
beforeAll(async () => {
  elsewhere = await startScriptedSite({ address: '127.0.0.2', page: () => '<p>another host</p>' });
  home = await startScriptedSite({ page: () => '<p>home</p>', redirect: (path) => (path === '/jump' ? `${elsewhere.origin}/landed` : undefined) });
});
afterAll(async () => {
  for (const cleanup of cleanups) cleanup();
  await home.close();
  await elsewhere.close();
});

async function crawl(scope: Scope) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  await runCrawl({ seeds: [`${home.origin}/jump`], outDir: join(dir, 'out'), maxPages: 5, strategy: createStrategy('bfs'), delayMs: 0, scope: { scope, allow: [], deny: [] }, log: () => {} });
  return readPages(join(dir, 'out'));
}

describe('a seed that redirects to another host', () => {
  it('is not followed with --scope seed-hosts, and the other host hears nothing', async () => {
    const [page] = await crawl('seed-hosts');
    expect(page).toMatchObject({
      url: `${home.origin}/jump`,
      status: 302,
      outcome: 'redirect-denied',
      error: `redirect to ${elsewhere.origin}/landed refused: out of the crawl's scope (--scope seed-hosts)`,
    });
    expect(elsewhere.requests).toEqual([]);
  });

  it('is followed with --scope any (the control)', async () => {
    const [page] = await crawl('any');
    expect(page).toMatchObject({ outcome: 'ok', finalUrl: `${elsewhere.origin}/landed` });
  });
});
