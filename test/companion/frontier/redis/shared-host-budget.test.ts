/**
 * The host budget on a shared frontier, against a real redis-server: the per-host counts of
 * pages judged on and off topic are the crawl's, whichever worker recorded the pages, so two
 * workers' off-topic pages together step a host down; URLs queued for it later come in lowered;
 * its first on-topic page lifts it; a page committed twice counts once.
 */
import { describe, expect, it } from 'vitest';
import { STEP } from '../../../../companion/crawl/host-budget.ts';
import { RedisFrontier, type SharedLimits } from '../../../../companion/frontier/redis/redis-frontier.ts';
import { KEY } from '../../../../companion/frontier/redis/redis-keys.ts';
import { parseRedisFrontierUrl } from '../../../../companion/frontier/redis/redis-url.ts';
import { CrawlStore } from '../../../../companion/store/crawl-store.ts';
import type { FrontierEntry, PageRecord } from '../../../../companion/store/records.ts';
import { tempDir } from '../../crawl/crawl-test-helpers.ts';
import { redisSkipReason } from '../../../../bench/support/redis-server.ts';
import { redisPerFile } from './redis-per-file.ts';

const redis = redisPerFile();
const { cleanups } = redis;
let crawlNo = 0;

const LIMITS: SharedLimits = { maxPages: 100, perHostConcurrency: 10, maxPagesPerHost: null, hostBudget: 2, relevanceThreshold: 0.5 };

async function worker(name: string, limits: Partial<SharedLimits> = {}): Promise<RedisFrontier> {
  const frontier = await RedisFrontier.connect(parseRedisFrontierUrl(`${redis.url}?crawl=${name}`), { ...LIMITS, ...limits });
  cleanups.push(() => frontier.close());
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const store = CrawlStore.open(dir, { create: true });
  cleanups.push(() => store.close());
  await frontier.attach(store);
  await frontier.join('bfs', null, [entry('http://docs.test/', 1)]);
  return frontier;
}

const entry = (url: string, score: number): FrontierEntry => ({ url, score, depth: 1, parent: null, host: new URL(url).hostname });

function page(url: string, relevance: number): PageRecord {
  return { url, finalUrl: url, status: 200, depth: 1, parent: null, score: 0, fetchedAt: '', bytes: 1, contentType: 'text/html', outcome: 'ok', relevance };
}

/** Queued URL → score. */
async function scores(frontier: RedisFrontier): Promise<Map<string, number>> {
  const members = await frontier.connection.client.zRangeWithScores(frontier.prefix + KEY.queue, 0, -1);
  return new Map(members.map(({ value, score }) => [value.slice(13).split('|').slice(1).join('|'), score]));
}

async function claimAndRecord(frontier: RedisFrontier, url: string, relevance: number, children: FrontierEntry[] = []): Promise<void> {
  expect((await frontier.claim(() => 'take', 64, []))?.url).toBe(url);
  expect(await frontier.record(page(url, relevance), children, {})).toBeDefined();
}

describe.skipIf(redisSkipReason)('the host budget on a shared frontier', () => {
  it('steps a host down on every worker\'s off-topic pages together, and lifts it at its first on-topic page', async () => {
    const name = `b${++crawlNo}`;
    const a = await worker(name);
    const b = await worker(name);
    await claimAndRecord(a, 'http://docs.test/', 1, [entry('http://cal.test/1', 0.9), entry('http://cal.test/2', 0.8), entry('http://cal.test/3', 0.7), entry('http://docs.test/a', 0.2)]);

    await claimAndRecord(a, 'http://cal.test/1', 0, [entry('http://cal.test/9', 0.6)]);
    expect((await scores(a)).get('http://cal.test/3')).toBeCloseTo(0.7, 12); // 1 page of 2: no step yet
    // b's off-topic page of the same host is the second: the host steps down, whoever counted the first.
    await claimAndRecord(b, 'http://cal.test/2', 0, [entry('http://cal.test/10', 0.6)]);
    let queued = await scores(a);
    expect(queued.get('http://cal.test/3')).toBeCloseTo(0.7 - STEP, 12);
    expect(queued.get('http://cal.test/9')).toBeCloseTo(0.6 - STEP, 12);
    expect(queued.get('http://cal.test/10')).toBeCloseTo(0.6 - STEP, 12); // queued by the page that stepped
    expect(queued.get('http://docs.test/a')).toBeCloseTo(0.2, 12);
    // Queued later, by either worker, a URL of the host comes in lowered.
    await b.enqueue([entry('http://cal.test/11', 0.5)]);
    expect((await scores(a)).get('http://cal.test/11')).toBeCloseTo(0.5 - STEP, 12);
    await claimAndRecord(a, 'http://docs.test/a', 0); // the other host now comes first

    // The host's first on-topic page lifts every step.
    await claimAndRecord(b, 'http://cal.test/3', 1);
    queued = await scores(a);
    expect(queued.get('http://cal.test/9')).toBeCloseTo(0.6, 12);
    expect(queued.get('http://cal.test/11')).toBeCloseTo(0.5, 12);
    const counts = await a.connection.client.hGetAll(a.prefix + 'budget');
    expect(counts).toMatchObject({ 'f|cal.test': '3', 'o|cal.test': '1' });
    expect(counts['s|cal.test']).toBeUndefined();
  });

  it('counts a page once when two workers commit it (a raced lease)', async () => {
    const name = `b${++crawlNo}`;
    const a = await worker(name);
    const b = await worker(name);
    await claimAndRecord(a, 'http://docs.test/', 0);
    expect(await b.record(page('http://docs.test/', 0), [], {})).toBeUndefined(); // the duplicate
    expect(await a.connection.client.hGet(a.prefix + 'budget', 'f|docs.test')).toBe('1');
  });

  it('keeps no budget, and no per-host index, when the crawl was started without one', async () => {
    const name = `b${++crawlNo}`;
    const a = await worker(name, { hostBudget: null });
    const b = await worker(name); // joins with a budget: the crawl's (none) holds
    await claimAndRecord(a, 'http://docs.test/', 0, [entry('http://docs.test/1', 0.5)]);
    await claimAndRecord(b, 'http://docs.test/1', 0, [entry('http://docs.test/2', 0.5)]);
    expect(await a.connection.client.exists([a.prefix + 'budget', a.prefix + 'hqm:docs.test'])).toBe(0);
    expect((await scores(a)).get('http://docs.test/2')).toBe(0.5);
  });
});
