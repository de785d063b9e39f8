/**
 * CrawlState's set-aside hosts, read at one instant: a worker that found nothing to claim waits
 * until the end of a deferral it was passed over for, even when that end is past by the time it
 * asks. Read with two clocks, a deferral that ended in between was neither claimable nor waited
 * for, and the worker slept until another woke it: robots-unreachable.test.ts hung in CI so, the
 * other worker holding a page that waited on the set-aside host.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateCrawlOptions } from '../../../companion/crawl/crawl-options.ts';
import { SqliteFrontier } from '../../../companion/crawl/sqlite-frontier.ts';
import { CrawlState } from '../../../companion/crawl/crawl-state.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { CrawlStore } from '../../../companion/store/crawl-store.ts';
import { tempDir } from './crawl-test-helpers.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function state(): CrawlState {
  const { dir, cleanup } = tempDir();
  const out = join(dir, 'out');
  const store = CrawlStore.open(out, { create: true });
  cleanups.push(() => store.close(), cleanup);
  return new CrawlState(store, validateCrawlOptions({ seeds: ['http://a.test/'], outDir: out, maxPages: 10, strategy: createStrategy('bfs') }), new SqliteFrontier(store));
}

describe('CrawlState set-aside hosts', () => {
  it('reports the end of a deferral a claim passed over, however late the waiter reads it', async () => {
    const s = state();
    const now = Date.now();
    expect(s.deferHost('a.test', now + 1, 2, 'robots.txt answered HTTP 503')).toBe(true);
    expect(s.deferredHosts(now)).toEqual(['a.test']);
    await new Promise((resolve) => setTimeout(resolve, 10)); // the deferral ends meanwhile
    expect(s.nextDeferralEnd(now)).toBe(now + 1);
    // The wait on it returns at once rather than never.
    await s.changed(s.nextDeferralEnd(now));
    expect(s.deferredHosts(Date.now())).toEqual([]);
    expect(s.nextDeferralEnd(Date.now())).toBeUndefined();
  });
});
