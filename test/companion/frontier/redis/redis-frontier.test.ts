/**
 * The shared frontier's scripts against a real redis-server (one per file, no persistence):
 * the priority convention and max-score dedupe, the claim across hosts with per-host limits,
 * leases that a dead worker loses, the idempotent commit, the shared budget, and the one-line
 * failures of a bad URL and an unreachable Redis.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CrawlStore } from '../../../../companion/store/crawl-store.ts';
import type { FrontierEntry, PageRecord } from '../../../../companion/store/records.ts';
import { RedisFrontier, type SharedLimits } from '../../../../companion/frontier/redis/redis-frontier.ts';
import { parseRedisFrontierUrl } from '../../../../companion/frontier/redis/redis-url.ts';
import { tempDir } from '../../crawl/crawl-test-helpers.ts';
import { redisSkipReason, startRedis, type RunningRedis } from '../../../../bench/support/redis-server.ts';

let redis: RunningRedis;
let crawlNo = 0;
const open: { frontier: RedisFrontier; store: CrawlStore; cleanup: () => void }[] = [];

beforeAll(async () => {
  if (!redisSkipReason) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const { frontier, store, cleanup } of open.splice(0)) {
    await frontier.close();
    store.close();
    cleanup();
  }
});

const LIMITS: SharedLimits = { maxPages: 100, perHostConcurrency: 1, maxPagesPerHost: null };

/** A worker on crawl `name` (a fresh name per test unless shared). */
async function worker(name: string, limits: Partial<SharedLimits> = {}, leaseMs = 60_000): Promise<RedisFrontier> {
  const frontier = await RedisFrontier.connect(parseRedisFrontierUrl(`${redis.url}?crawl=${name}&lease=${leaseMs}`), { ...LIMITS, ...limits });
  const { dir, cleanup } = tempDir();
  const store = CrawlStore.open(dir, { create: true });
  frontier.useStore(store);
  open.push({ frontier, store, cleanup });
  return frontier;
}

const entry = (url: string, score: number, extra: Partial<FrontierEntry> = {}): FrontierEntry => ({ url, score, depth: 1, parent: 'http://seed.test/', host: new URL(url).hostname, ...extra });

function page(url: string, extra: Partial<PageRecord> = {}): PageRecord {
  return { url, finalUrl: url, status: 200, depth: 1, parent: null, score: 1, fetchedAt: new Date().toISOString(), bytes: 10, contentType: 'text/html', outcome: 'ok', ...extra };
}

describe.skipIf(redisSkipReason)('RedisFrontier', () => {
  it('claims the best URL first; a URL met again keeps its highest score and the link that gave it', async () => {
    const a = await worker(`t${++crawlNo}`);
    await a.enqueue([entry('http://a.test/1', 0.2), entry('http://b.test/1', 0.5)]);
    expect(await a.enqueue([entry('http://a.test/1', 0.9, { context: { anchor: 'better', before: '', after: '' } })])).toBe(1);
    expect(await a.enqueue([entry('http://a.test/1', 0.1)])).toBe(0); // lower: unchanged
    const first = await a.claim(() => 'take', 16, []);
    expect(first).toMatchObject({ url: 'http://a.test/1', score: 0.9, context: { anchor: 'better' }, claimRank: 1 });
    expect(a.queued()).toBe(1);
  });

  it('gives equal scores in discovery order, as the SQLite frontier does (score DESC, seq)', async () => {
    const a = await worker(`t${++crawlNo}`, { perHostConcurrency: 10 });
    const urls = ['http://z.test/1', 'http://a.test/9', 'http://m.test/5', 'http://a.test/1'];
    await a.enqueue(urls.map((url) => entry(url, 0.5)));
    await a.enqueue([entry('http://b.test/0', 0.7)]);
    const claimed: string[] = [];
    for (let row = await a.claim(() => 'take', 16, []); row; row = await a.claim(() => 'take', 16, [])) claimed.push(row.url);
    expect(claimed).toEqual(['http://b.test/0', ...urls]);
  });

  it('holds per-host concurrency across workers and passes over busy and set-aside hosts', async () => {
    const name = `t${++crawlNo}`;
    const a = await worker(name);
    const b = await worker(name);
    await a.enqueue([entry('http://a.test/1', 0.9), entry('http://a.test/2', 0.8), entry('http://b.test/1', 0.1), entry('http://c.test/1', 0.05)]);
    expect((await a.claim(() => 'take', 16, []))?.url).toBe('http://a.test/1');
    // a.test has its one URL in flight (worker a): worker b gets b.test's, ranked after a.test/2.
    expect(await b.claim(() => 'take', 16, [])).toMatchObject({ url: 'http://b.test/1', claimRank: 2 });
    expect((await b.claim(() => 'take', 16, ['c.test']))).toBeUndefined();
    await a.record(page('http://a.test/1'), [], {});
    expect((await b.claim(() => 'take', 16, []))?.url).toBe('http://a.test/2');
  });

  it('gives a dead worker’s URL to another once its lease runs out; the page is recorded once', async () => {
    const name = `t${++crawlNo}`;
    const dead = await worker(name, {}, 1000);
    const alive = await worker(name, {}, 1000);
    await dead.enqueue([entry('http://a.test/1', 1)]);
    expect((await dead.claim(() => 'take', 16, []))?.url).toBe('http://a.test/1');
    await dead.close(); // stops renewing, as a killed process would; its lease stands until it runs out
    open.splice(open.findIndex((o) => o.frontier === dead), 1);
    expect(await alive.claim(() => 'take', 16, [])).toBeUndefined();
    expect(await alive.activeElsewhere([])).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await alive.claim(() => 'take', 16, []))?.url).toBe('http://a.test/1');
    expect(await alive.record(page('http://a.test/1'), [], {})).toBeDefined();
    expect(await alive.activeElsewhere([])).toBe(false);
  });

  it('records a URL two workers raced for once: the second commit is a duplicate', async () => {
    const name = `t${++crawlNo}`;
    const slow = await worker(name, {}, 1000);
    const fast = await worker(name, {}, 1000);
    await slow.enqueue([entry('http://a.test/1', 1)]);
    await slow.claim(() => 'take', 16, []);
    // The slow worker's lease runs out (renewal stopped by a long event-loop stall, here faked by
    // a renewal that finds nothing: the lease is taken from it by the reaper).
    const connection = slow.connection.client;
    await connection.zAdd(`${slow.prefix}leases`, { score: 0, value: 'http://a.test/1' });
    expect((await fast.claim(() => 'take', 16, []))?.url).toBe('http://a.test/1');
    expect(await fast.record(page('http://a.test/1'), [entry('http://a.test/2', 0.5)], {})).toBeDefined();
    expect(await slow.record(page('http://a.test/1'), [], {})).toBeUndefined();
    const counts = await connection.hGetAll(`${slow.prefix}counts`);
    expect(counts).toMatchObject({ pages: '1', recorded: '1', duplicates: '1', reaped: '1', queued: '1' });
  });

  it('stops every worker at maxPages counted over all of them', async () => {
    const name = `t${++crawlNo}`;
    const a = await worker(name, { maxPages: 1, perHostConcurrency: 2 });
    const b = await worker(name, { maxPages: 1, perHostConcurrency: 2 });
    await a.enqueue([entry('http://a.test/1', 1), entry('http://b.test/1', 1)]);
    const rowA = await a.claim(() => 'take', 16, []);
    const rowB = await b.claim(() => 'take', 16, []);
    expect(await a.record(page(rowA!.url), [], {})).toBeDefined();
    expect(a.budgetSpent()).toBe(true);
    expect(await b.record(page(rowB!.url), [], {})).toBeUndefined(); // queued again, not recorded
    expect(b.budgetSpent()).toBe(true);
    expect(await b.claim(() => 'take', 16, [])).toBeUndefined();
  });

  it('says a bad --frontier URL and an unreachable Redis in one line', async () => {
    expect(() => parseRedisFrontierUrl('http://127.0.0.1:6379')).toThrow(/--frontier "http:\/\/127.0.0.1:6379": unknown scheme http/);
    expect(() => parseRedisFrontierUrl('redis://h:6379/99')).toThrow(/database must be a number from 0 to 15/);
    expect(() => parseRedisFrontierUrl('redis://h:6379/0?lease=5')).toThrow(/lease must be whole ms/);
    expect(() => parseRedisFrontierUrl('redis://u:secret@h:6379/0?x=1')).toThrow(/"redis:\/\/u:\*\*\*@h:6379\/0\?x=1": unknown parameter "x"/);
    const started = Date.now();
    await expect(RedisFrontier.connect(parseRedisFrontierUrl('redis://127.0.0.1:1/0'), LIMITS)).rejects.toThrow(/^cannot reach Redis at redis:\/\/127.0.0.1:1\/0: .*ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
