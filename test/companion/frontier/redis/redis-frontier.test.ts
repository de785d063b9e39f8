/**
 * The shared frontier's scripts against a real redis-server (one per file, no persistence):
 * the priority convention and max-score dedupe, the claim across hosts with per-host limits,
 * leases that a dead worker loses, the idempotent commit, the shared budget, a page written to
 * the worker's store before Redis counts it and settled by a resume whatever the moment of a
 * kill (`shared-recorder.ts`), and the one-line failures of a bad URL and an unreachable Redis.
 *
 * A kill is played with real parts: a worker whose frontier and store are closed leaves its
 * leases and its store's file as a killed process does; a commit is held in Redis by `CLIENT
 * PAUSE WRITE`, and lost by `CLIENT KILL` of the worker's connection while it is held.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { StopCrawlError } from '../../../../companion/crawl/crawl-errors.ts';
import { CrawlStore } from '../../../../companion/store/crawl-store.ts';
import type { FrontierEntry, PageRecord } from '../../../../companion/store/records.ts';
import { RENEW } from '../../../../companion/frontier/redis/lua-scripts.ts';
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
  return (await workerIn(name, undefined, limits, leaseMs)).frontier;
}

/** A worker on crawl `name` with its store in `dir`: a new one when absent, else a resume of it. */
async function workerIn(name: string, dir?: string, limits: Partial<SharedLimits> = {}, leaseMs = 60_000) {
  const frontier = await RedisFrontier.connect(parseRedisFrontierUrl(`${redis.url}?crawl=${name}&lease=${leaseMs}`), { ...LIMITS, ...limits });
  const made = dir === undefined ? tempDir() : { dir, cleanup: () => {} };
  const store = CrawlStore.open(made.dir, { create: dir === undefined });
  const settled = await frontier.attach(store);
  open.push({ frontier, store, cleanup: made.cleanup });
  return { frontier, store, dir: made.dir, settled };
}

/** Ends a worker as a kill does: no renewal, no answer read, its leases and its store's file left as they are. */
async function kill({ frontier, store }: { frontier: RedisFrontier; store: CrawlStore }): Promise<void> {
  await frontier.close();
  store.close(); // closed twice after the test: both are idempotent
}

/** A second connection, as an operator's: `CLIENT PAUSE`, `CLIENT KILL`, the counts. */
async function admin() {
  const client = createClient({ url: redis.url });
  await client.connect();
  return client;
}

/** Resolves once the connection `id` has a command held by `CLIENT PAUSE` (flag b, blocked). */
async function heldInRedis(client: Awaited<ReturnType<typeof admin>>, id: number): Promise<void> {
  while (!/ flags=\S*b/.test(String(await client.sendCommand(['CLIENT', 'LIST', 'ID', String(id)])))) await new Promise((resolve) => setTimeout(resolve, 2));
}

const urlsOf = (store: CrawlStore) => [...store.pages()].map((p) => p.url);
const row = (url: string, score = 1): FrontierEntry => entry(url, score);

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
    // The slow worker wrote the page to its store before Redis refused it: undone, no trace left.
    const slowStore = open.find((o) => o.frontier === slow)!.store;
    expect(slowStore.page('http://a.test/1')).toBeUndefined();
    expect(slowStore.frontierEntry('http://a.test/1')).toBeUndefined();
    expect(slowStore.unconfirmed.list()).toEqual([]);
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
    expect(urlsOf(open.find((o) => o.frontier === b)!.store)).toEqual([]);
    expect(await b.claim(() => 'take', 16, [])).toBeUndefined();
  });

  it('writes a page to the worker\'s store before Redis counts it, and confirms it once Redis has', async () => {
    const a = await workerIn(`t${++crawlNo}`);
    await a.frontier.enqueue([row('http://a.test/1')]);
    await a.frontier.claim(() => 'take', 16, []);
    const op = await admin();
    const id = await a.frontier.connection.client.clientId();
    await op.sendCommand(['CLIENT', 'PAUSE', '60000', 'WRITE']);
    let recording: Promise<PageRecord | undefined>;
    try {
      recording = a.frontier.record(page('http://a.test/1'), [row('http://a.test/2', 0.5)], {});
      await heldInRedis(op, id); // its COMMIT, sent and held
      expect(a.store.unconfirmed.list().map((u) => u.url)).toEqual(['http://a.test/1']);
      expect(await op.hGet(`${a.frontier.prefix}counts`, 'recorded')).toBeNull();
    } finally {
      await op.sendCommand(['CLIENT', 'UNPAUSE']);
    }
    expect(await recording).toMatchObject({ url: 'http://a.test/1' });
    expect(a.store.unconfirmed.list()).toEqual([]);
    expect(urlsOf(a.store)).toEqual(['http://a.test/1']);
    expect(await op.hGetAll(`${a.frontier.prefix}counts`)).toMatchObject({ recorded: '1', queued: '1' });
    await op.close();
  });

  it('settles a killed worker\'s store on resume: a page Redis counted for it kept, one it did not dropped, its URLs queued again at once', async () => {
    const name = `t${++crawlNo}`;
    const first = await workerIn(name);
    const other = await workerIn(name);
    await first.frontier.enqueue([row('http://a.test/1', 0.9), row('http://b.test/1', 0.8), row('http://c.test/1', 0.7), row('http://d.test/1', 0.6)]);
    for (let i = 0; i < 4; i++) await first.frontier.claim(() => 'take', 16, []);
    // a.test/1: counted by Redis, killed before the mark went (put back, as the kill leaves it).
    const counted = await first.frontier.record(page('http://a.test/1'), [], {});
    first.store.unconfirmed.mark(counted!.seq!);
    // b.test/1: in the store, killed before its COMMIT was sent (what `record` writes first).
    first.store.recordUnconfirmed(page('http://b.test/1'), row('http://b.test/1', 0.8));
    // d.test/1: its lease ran out and another worker recorded it first; killed before the undo.
    await first.frontier.connection.client.zAdd(`${first.frontier.prefix}leases`, { score: 0, value: 'http://d.test/1' });
    expect((await other.frontier.claim(() => 'take', 16, []))?.url).toBe('http://d.test/1');
    expect(await other.frontier.record(page('http://d.test/1'), [], {})).toBeDefined();
    first.store.recordUnconfirmed(page('http://d.test/1'), row('http://d.test/1', 0.6));
    // c.test/1: still being fetched.
    await kill(first);

    const resumed = await workerIn(name, first.dir);
    expect(resumed.settled).toEqual({ kept: 1, dropped: 2, requeued: 2 });
    expect(urlsOf(resumed.store)).toEqual(['http://a.test/1']);
    expect(urlsOf(other.store)).toEqual(['http://d.test/1']);
    expect(resumed.store.unconfirmed.list()).toEqual([]);
    expect(resumed.store.frontierEntry('http://b.test/1')).toBeUndefined();
    // Not after the 60 s lease: the dead worker's URLs are claimable now.
    const claimed = [await resumed.frontier.claim(() => 'take', 16, []), await resumed.frontier.claim(() => 'take', 16, [])];
    expect(claimed.map((r) => r?.url)).toEqual(['http://b.test/1', 'http://c.test/1']);
    expect(await resumed.frontier.connection.client.hGetAll(`${resumed.frontier.prefix}counts`)).toMatchObject({ recorded: '2', reaped: '3' });
    // A second resume finds nothing left to settle, and queues again what the first one held.
    await kill(resumed);
    expect((await workerIn(name, first.dir)).settled).toEqual({ kept: 0, dropped: 0, requeued: 2 });
  });

  it('keeps a recorded page\'s recorder when another page redirects to it', async () => {
    const name = `t${++crawlNo}`;
    const a = await workerIn(name);
    const target = await a.frontier.record(page('http://a.test/new'), [], {});
    await a.frontier.record(page('http://a.test/old', { finalUrl: 'http://a.test/new' }), [], {});
    a.store.unconfirmed.mark(target!.seq!); // killed before the mark went, as above
    await kill(a);
    const resumed = await workerIn(name, a.dir);
    expect(resumed.settled).toMatchObject({ kept: 1, dropped: 0 });
    expect(urlsOf(resumed.store)).toEqual(['http://a.test/new', 'http://a.test/old']);
  });

  it('refuses a commit that reaches Redis after its worker\'s directory was taken over, and undoes the page', async () => {
    const name = `t${++crawlNo}`;
    const late = await workerIn(name);
    await late.frontier.enqueue([row('http://a.test/1')]);
    await late.frontier.claim(() => 'take', 16, []);
    // A later process takes the directory over (a resume, once the lock is free; no lock here, so
    // the late worker can still send its commit, as one a slow network delivers late).
    const resumed = await workerIn(name, late.dir);
    expect(resumed.settled.requeued).toBe(1);
    await expect(late.frontier.record(page('http://a.test/1'), [], {})).rejects.toThrow(/was retired from the shared crawl/);
    expect(urlsOf(resumed.store)).toEqual([]);
    expect(resumed.store.unconfirmed.list()).toEqual([]);
    expect(await resumed.frontier.connection.client.hGet(`${resumed.frontier.prefix}counts`, 'recorded')).toBeNull();
    expect((await resumed.frontier.claim(() => 'take', 16, []))?.url).toBe('http://a.test/1');
  });

  it('hands a retired worker that still runs no more URLs, and no longer counts it alive', async () => {
    const name = `t${++crawlNo}`;
    const stale = await workerIn(name);
    await stale.frontier.enqueue([row('http://a.test/1'), row('http://b.test/1')]);
    await stale.frontier.claim(() => 'take', 16, []);
    // Taken for dead (stopped, not killed) and its directory taken over, it wakes up.
    const resumed = await workerIn(name, stale.dir);
    const claiming = stale.frontier.claim(() => 'take', 16, []);
    await expect(claiming).rejects.toThrow(StopCrawlError);
    await expect(claiming).rejects.toThrow(/was retired from the shared crawl/);
    // Its heartbeat neither renews the lease it held nor lists it among the living workers.
    const { client } = resumed.frontier.connection;
    expect(await stale.frontier.connection.run(RENEW, [stale.frontier.prefix, stale.frontier.worker, 60_000, 'http://a.test/1'])).toBe(-1);
    expect(await client.zScore(`${resumed.frontier.prefix}workers`, stale.frontier.worker)).toBeNull();
    expect(await client.zScore(`${resumed.frontier.prefix}leases`, 'http://a.test/1')).toBeNull();
    // Both URLs are the resumed worker's to claim.
    const claimed = [await resumed.frontier.claim(() => 'take', 16, []), await resumed.frontier.claim(() => 'take', 16, [])];
    expect(claimed.map((r) => r?.url).sort()).toEqual(['http://a.test/1', 'http://b.test/1']);
  });

  it('stops when Redis is lost at the commit, the page left unconfirmed; the resume drops it and its URL is fetched again', async () => {
    const name = `t${++crawlNo}`;
    const a = await workerIn(name);
    await a.frontier.enqueue([row('http://a.test/1')]);
    await a.frontier.claim(() => 'take', 16, []);
    const op = await admin();
    const id = await a.frontier.connection.client.clientId();
    await op.sendCommand(['CLIENT', 'PAUSE', '60000', 'WRITE']);
    let recording: Promise<unknown>;
    try {
      recording = a.frontier.record(page('http://a.test/1'), [], {}).catch((error: unknown) => error);
      await heldInRedis(op, id);
      await op.sendCommand(['CLIENT', 'KILL', 'ID', String(id)]); // the connection drops; the held COMMIT never runs
    } finally {
      await op.sendCommand(['CLIENT', 'UNPAUSE']);
    }
    const error = await recording;
    expect(error).toBeInstanceOf(StopCrawlError);
    expect((error as Error).message).toMatch(/http:\/\/a.test\/1 stays recorded in this worker's store, unconfirmed: --resume settles it/);
    expect(a.store.unconfirmed.list().map((u) => u.url)).toEqual(['http://a.test/1']);
    expect(urlsOf(a.store)).toEqual([]);
    await kill(a);
    const resumed = await workerIn(name, a.dir);
    expect(resumed.settled).toEqual({ kept: 0, dropped: 1, requeued: 1 });
    expect((await resumed.frontier.claim(() => 'take', 16, []))?.url).toBe('http://a.test/1');
    expect(await resumed.frontier.record(page('http://a.test/1'), [], {})).toBeDefined();
    expect(urlsOf(resumed.store)).toEqual(['http://a.test/1']);
    expect(await op.hGet(`${a.frontier.prefix}counts`, 'recorded')).toBe('1');
    await op.close();
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
