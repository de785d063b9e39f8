/**
 * End to end, issue 15: several `linkscent crawl` processes on one frontier in Redis. Real
 * parts only: Debian's redis-server on a free loopback port with no persistence
 * (`bench/support/redis-server.ts`), the bench's loopback web of Debian documentation sites
 * (`bench/support/local-web.ts`, five small packages: a portal, hubs and ≈ 75 pages on six hosts)
 * whose `served()` log, with its timestamps, is the judge, and the real bin as child processes.
 *
 *   1. one process with the default SQLite frontier crawls the whole web: the reference set;
 *   2. three processes on one Redis crawl it again: no page requested twice (the server's log),
 *      robots.txt asked once per host, the per-host delay held between requests of different
 *      processes (the log's timestamps), and the union of their pages.jsonl is the reference set;
 *   3. one process on Redis fetches in the very order one process on SQLite does;
 *   4. three again, one killed with SIGKILL while it holds leased URLs: those URLs are fetched by
 *      the others once the lease runs out, the union is still the reference set, no URL is
 *      recorded twice, and the only URLs the server answered twice are the dead one's.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createClient } from 'redis';
import { freePort } from '../../bench/support/listen-loopback.ts';
import { startLocalWeb, type LocalWeb, type ServedResponse } from '../../bench/support/local-web.ts';
import { startCli, type CliResult } from '../companion/support/run-cli.ts';
import { redisSkipReason, startRedis, type RunningRedis } from '../../bench/support/redis-server.ts';

/** Five small documentation sites, which scripts/test-all.mjs fetches when they are missing. */
const PACKAGES: string[] = JSON.parse(readFileSync(join(import.meta.dirname, 'corpus-packages.json'), 'utf8'));
const DELAY_MS = 150;
/**
 * A host's next request starts the delay after the end of the last one (`lua-scripts.ts`, RELEASE),
 * so responses are at least the delay apart as the server sees them; 1 ms for Redis's clock
 * (real time) against the server's (monotonic).
 */
const GAP_TOLERANCE_MS = 1;

const corpusMissing = PACKAGES.every((name) => existsSync(join(import.meta.dirname, '../../bench/data/sites', name)))
  ? undefined
  : `bench/data/sites lacks one of ${PACKAGES.join(', ')} (bash bench/fetch-debian-docs.sh ${PACKAGES.join(' ')})`;
const skipReason = redisSkipReason ?? corpusMissing;
if (skipReason) console.warn(`shared-frontier e2e skipped: ${skipReason}`);

let redis: RunningRedis;
let web: LocalWeb;
let work: string;
let reference: Set<string>;

function crawl(out: string, extra: string[]) {
  const port = new URL(web.portal).port;
  return startCli(['crawl', web.portal, '--strategy', 'bfs', '--max-pages', '1000', '--out', join(work, out), '--allow', `http://127.0.0.*:${port}/*`, ...extra], { timeoutMs: 90_000 });
}

function pagesOf(out: string): string[] {
  const file = join(work, out, 'pages.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { url: string }).url);
}

/**
 * The pages a worker's crawl store holds: what survives its `kill -9`. Its pages.jsonl lines
 * come later, once the store's group commit is on disk (`process-url.ts`, `report`), and a
 * killed worker's lines are rebuilt from the store on --resume; a kill in between leaves a page
 * recorded, with no line yet.
 */
function storedPagesOf(out: string): string[] {
  const db = new Database(join(work, out, 'crawl.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT url FROM pages ORDER BY seq').pluck().all() as string[];
  } finally {
    db.close();
  }
}

const isRobots = (r: ServedResponse) => new URL(r.url).pathname === '/robots.txt';

/** URLs the server answered more than once, robots.txt aside. */
function servedTwice(log: readonly ServedResponse[]): string[] {
  const seen = new Map<string, number>();
  for (const r of log) if (!isRobots(r)) seen.set(r.url, (seen.get(r.url) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([url]) => url);
}

/**
 * The shortest time between two responses to one host, robots.txt aside, and redirects: a
 * redirect's hops are one fetch, in one politeness slot, in one process as in several.
 */
function shortestGap(log: readonly ServedResponse[]): { gap: number; host: string; pair: string } {
  const byHost = new Map<string, ServedResponse[]>();
  for (const r of log) if (!isRobots(r)) byHost.set(new URL(r.url).host, [...(byHost.get(new URL(r.url).host) ?? []), r]);
  let shortest = { gap: Infinity, host: '', pair: '' };
  for (const [host, served] of byHost) {
    served.sort((a, b) => a.at - b.at);
    for (let i = 1; i < served.length; i++) {
      if (served[i - 1]!.status >= 300 && served[i - 1]!.status < 400) continue;
      const gap = served[i]!.at - served[i - 1]!.at;
      if (gap < shortest.gap) shortest = { gap, host, pair: `${served[i - 1]!.status} ${served[i - 1]!.url} → ${served[i]!.status} ${served[i]!.url}` };
    }
  }
  return shortest;
}

function expectClean(result: CliResult): void {
  expect(result.code, result.stderr).toBe(0);
}

describe.skipIf(skipReason)('several crawl processes on one Redis frontier', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'linkscent-shared-'));
    redis = await startRedis();
    web = await startLocalWeb({ packages: PACKAGES, port: await freePort(), log: true });
    const alone = await crawl('alone', ['--delay-ms', '0']).done;
    expectClean(alone);
    reference = new Set(pagesOf('alone'));
    expect(reference.size).toBeGreaterThan(50);
  });

  afterAll(async () => {
    await web?.close();
    await redis?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('three workers fetch each page once, hold the per-host delay between them, and fetch what one process does', async () => {
    web.resetCounts();
    const frontier = `${redis.url}?crawl=three`;
    const workers = ['w1', 'w2', 'w3'].map((out) => crawl(out, ['--frontier', frontier, '--delay-ms', String(DELAY_MS), '--per-host-concurrency', '1', '--concurrency', '2']));
    const results = await Promise.all(workers.map((w) => w.done));
    for (const result of results) expectClean(result);

    const log = web.served();
    expect(servedTwice(log)).toEqual([]);
    const robots = log.filter(isRobots).map((r) => new URL(r.url).host);
    expect(robots.length).toBe(new Set(robots).size); // robots.txt once per host per crawl

    const { gap, host, pair } = shortestGap(log);
    console.log(`shared-frontier e2e: shortest gap between two responses of one host ${gap.toFixed(1)} ms (${host}: ${pair}), delay ${DELAY_MS} ms`);
    expect(gap).toBeGreaterThanOrEqual(DELAY_MS - GAP_TOLERANCE_MS);

    const perWorker = ['w1', 'w2', 'w3'].map(pagesOf);
    const union = perWorker.flat();
    expect(union.length).toBe(new Set(union).size); // no URL recorded by two workers
    expect(new Set(union)).toEqual(reference);
    console.log(`shared-frontier e2e: pages per worker ${perWorker.map((p) => p.length).join(', ')} of ${reference.size}`);

    const status = await startCli(['status', '--frontier', frontier, '--json']).done;
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ recorded: reference.size, queued: 0, leased: 0, duplicates: 0 });
  });

  it('one process on Redis crawls in the order it does on SQLite (one fetch at a time, so the order is the frontier\'s alone)', async () => {
    const onSqlite = await crawl('order-sqlite', ['--delay-ms', '0', '--concurrency', '1']).done;
    const onRedis = await crawl('order-redis', ['--delay-ms', '0', '--concurrency', '1', '--frontier', `${redis.url}?crawl=order`]).done;
    expectClean(onSqlite);
    expectClean(onRedis);
    expect(pagesOf('order-redis')).toEqual(pagesOf('order-sqlite'));
  });

  it('a worker killed with SIGKILL loses nothing: its leased URLs are fetched by the others after the lease, none twice', async () => {
    web.resetCounts();
    const frontier = `${redis.url}?crawl=killed&lease=2000`;
    const workers = ['k1', 'k2', 'k3'].map((out) => crawl(out, ['--frontier', frontier, '--delay-ms', '100', '--per-host-concurrency', '1', '--concurrency', '2']));
    const victim = workers[0]!;
    const client = createClient({ url: redis.url });
    await client.connect();
    let leasedAtDeath: string[] = [];
    try {
      // Kill it the moment Redis shows it holding a lease, after it has recorded a page. (Waiting
      // for three pages hung once in a loaded run: a victim that starts last may find the others
      // have taken most of the web.)
      const owner = 'linkscent:{killed}:owner';
      const mine = (value: string) => value.split('\t')[0]!.split(':')[1] === String(victim.child.pid);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const held = Object.entries(await client.hGetAll(owner)).filter(([, value]) => mine(value));
        if (held.length > 0 && pagesOf('k1').length >= 1) {
          victim.child.kill('SIGKILL');
          break;
        }
        if (Date.now() > deadline) throw new Error('the victim never held a lease');
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await victim.done;
      leasedAtDeath = Object.entries(await client.hGetAll(owner)).filter(([, value]) => mine(value)).map(([url]) => url);
    } finally {
      await client.close();
    }
    expect(leasedAtDeath.length).toBeGreaterThan(0);
    const [, ...survivors] = await Promise.all(workers.map((w) => w.done));
    for (const result of survivors) expectClean(result!);

    // The victim's record is its store; the survivors ended cleanly, their lines are all there.
    const byWorker = [storedPagesOf('k1'), pagesOf('k2'), pagesOf('k3')];
    expect(pagesOf('k1').every((url) => byWorker[0]!.includes(url))).toBe(true);
    const union = byWorker.flat();
    expect(union.length).toBe(new Set(union).size); // nothing recorded twice
    // Nothing lost from the crawl: every page the single process fetched is in a worker's store,
    // but for the pages the victim was recording when it died. Its page is committed in Redis
    // first and in its own store after the reply (`redis-frontier.ts`, `record`): a kill in
    // between leaves the page counted by the crawl (`recorded` below) and in no store. At most one
    // per page the victim had in flight (--concurrency 2).
    const stored = new Set(union);
    for (const url of stored) expect(reference.has(url), url).toBe(true);
    const unstored = [...reference].filter((url) => !stored.has(url));
    expect(unstored.length).toBeLessThanOrEqual(2);
    if (unstored.length > 0) console.log(`shared-frontier e2e: recorded by the victim in Redis, killed before its store: ${unstored.join(' ')}`);
    const survivorPages = new Set([...byWorker[1]!, ...byWorker[2]!]);
    for (const url of leasedAtDeath) expect(survivorPages.has(url), url).toBe(true);
    // The server answered a URL twice only when the dead worker had fetched it without recording it.
    for (const url of servedTwice(web.served())) expect(leasedAtDeath).toContain(url);

    const status = await startCli(['status', '--frontier', frontier, '--json']).done;
    const counts = JSON.parse(status.stdout) as { reaped: number; recorded: number };
    expect(counts.reaped).toBeGreaterThanOrEqual(leasedAtDeath.length);
    expect(counts.recorded).toBe(reference.size);
    console.log(`shared-frontier e2e: killed worker held ${leasedAtDeath.length} lease(s), recorded ${byWorker[0]!.length} page(s); the others recorded ${survivorPages.size}`);
  }, 150_000); // three crawl processes, a lease to run out, on a machine the other tests load too
});
