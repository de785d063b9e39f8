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
 *   4. three again, one killed with SIGKILL after Redis ran one of its commits and before the
 *      answer reached it (its Redis traffic goes through a gate that holds the answer,
 *      `support/redis-gate.ts`), while it holds other leased URLs, then resumed at once: every
 *      page Redis counted is in exactly one worker's store (the one being committed at the kill
 *      too, kept by the resume), the union is the reference set, and the only URLs the server
 *      answered twice are the dead one's.
 */
import { createHash } from 'node:crypto';
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
import { COMMIT } from '../../companion/frontier/redis/lua-scripts.ts';
import { startRedisGate } from './support/redis-gate.ts';

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
 * The pages a worker's crawl store holds, and those of them Redis has not confirmed yet
 * (`store/unconfirmed-pages.ts`): what survives its `kill -9`, read from the file. Its pages.jsonl
 * lines come later, once Redis counted the page, and a killed worker's are rebuilt from the store
 * on --resume.
 */
function storeOf(out: string): { pages: string[]; unconfirmed: string[] } {
  const db = new Database(join(work, out, 'crawl.sqlite'), { readonly: true });
  try {
    return {
      pages: db.prepare('SELECT url FROM pages ORDER BY seq').pluck().all() as string[],
      unconfirmed: db.prepare('SELECT p.url FROM unconfirmed_pages u JOIN pages p USING (seq) ORDER BY seq').pluck().all() as string[],
    };
  } finally {
    db.close();
  }
}

/** The recorder tag Redis gave a worker's store (`shared-recorder.ts`): what its counted pages' state ends with. */
function recorderTag(out: string): string {
  const db = new Database(join(work, out, 'crawl.sqlite'), { readonly: true });
  try {
    const value = db.prepare(`SELECT value FROM meta WHERE key = 'sharedRecorder'`).pluck().get() as string;
    return (JSON.parse(value) as { tag: string }).tag;
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

  it('a worker killed with SIGKILL after Redis counted its page, before it heard so, loses nothing, and its --resume counts nothing twice', async () => {
    web.resetCounts();
    const crawlName = 'killed';
    const frontier = `${redis.url}?crawl=${crawlName}&lease=2000`;
    const args = (url: string) => ['--frontier', url, '--delay-ms', '100', '--per-host-concurrency', '1', '--concurrency', '2'];
    const gate = await startRedisGate(redis.port);
    // The victim starts first and the others at its first commit, so that it has pages to commit
    // whatever the machine's load (one started last once found the others had taken the web).
    const victim = crawl('k1', args(`${gate.url}?crawl=${crawlName}&lease=2000`));
    const workers = [victim];
    const pid = victim.child.pid!;
    const owner = `linkscent:{${crawlName}}:owner`;
    const mine = (value: string) => value.split('\t')[0]!.split(':')[1] === String(pid);
    const client = createClient({ url: redis.url });
    await client.connect();
    let leasedAtDeath: string[] = [];
    let killedAt = '';
    try {
      // At the victim's second commit or later (its first may meet NOSCRIPT and go again as EVAL):
      // the victim is frozen (SIGSTOP) as its commit passes the gate, Redis runs the commit,
      // counting the page under the victim's recorder tag, and the answer waits in the gate. If the
      // victim holds another URL, kill it there; else let it go on to its next commit. The old
      // order (Redis first, its store only after the answer) lost the page at exactly this moment.
      const commitSha = createHash('sha1').update(COMMIT).digest('hex');
      const state = `linkscent:{${crawlName}}:state`;
      const deadline = Date.now() + 60_000;
      for (let commits = 1; ; commits++) {
        const sent = await Promise.race([gate.holdAfter(commitSha), victim.done.then(() => undefined)]);
        if (sent === undefined) throw new Error('the victim ended before it was killed');
        if (Date.now() > deadline) throw new Error('the victim never held a lease at one of its commits');
        if (commits === 1) {
          gate.release();
          workers.push(crawl('k2', args(frontier)), crawl('k3', args(frontier)));
          continue;
        }
        process.kill(pid, 'SIGSTOP'); // before any other packet of its reaches the gate: what it holds stays held
        const url = sent.find((arg) => arg.startsWith('http'))!;
        const counted = `d${recorderTag('k1')}`;
        const fingerprint = createHash('sha1').update(url).digest('hex').slice(0, 16);
        let now: string | null = null;
        while ((now = await client.hGet(state, fingerprint)) !== counted && (now === null || now.startsWith('l'))) await new Promise((resolve) => setTimeout(resolve, 2));
        const held = Object.values(await client.hGetAll(owner)).filter(mine);
        if (now === counted && held.length > 0) {
          victim.child.kill('SIGKILL');
          killedAt = url;
          break;
        }
        gate.release(); // refused (another worker recorded it first), or nothing else held: not here
        process.kill(pid, 'SIGCONT');
      }
      await victim.done;
      leasedAtDeath = Object.entries(await client.hGetAll(owner)).filter(([, value]) => mine(value)).map(([url]) => url);
    } finally {
      await client.close();
      await gate.close();
    }
    expect(leasedAtDeath.length).toBeGreaterThan(0);
    // Redis counted the page; the victim never heard so, and had it in its store already, unconfirmed.
    const atDeath = storeOf('k1');
    expect(atDeath.unconfirmed).toContain(killedAt);
    // Resumed at once, beside the others still crawling: it settles what it left unconfirmed.
    const resumed = await crawl('k1', [...args(frontier), '--resume']).done;
    const survivors = await Promise.all(workers.slice(1).map((w) => w.done));
    for (const result of [resumed, ...survivors]) expectClean(result);

    const stores = ['k1', 'k2', 'k3'].map(storeOf);
    for (const [i, store] of stores.entries()) {
      expect(store.unconfirmed, `k${i + 1}`).toEqual([]);
      expect(pagesOf(`k${i + 1}`)).toEqual(store.pages); // every page reported, in its store's order
    }
    const union = stores.flatMap((store) => store.pages);
    expect(union.length).toBe(new Set(union).size); // no page in two stores
    expect(new Set(union)).toEqual(reference); // none lost: every page of the crawl is in a store
    // The page Redis had counted when the victim died is in its store, kept by the resume.
    expect(stores[0]!.pages).toContain(killedAt);
    // The URLs it held were fetched again, by the others or by itself resumed (in the union above),
    // and the server answered a URL twice only when the dead worker had fetched it uncounted.
    for (const url of servedTwice(web.served())) expect(leasedAtDeath).toContain(url);

    const status = await startCli(['status', '--frontier', frontier, '--json']).done;
    const counts = JSON.parse(status.stdout) as { reaped: number; recorded: number; pages: number };
    expect(counts.reaped).toBeGreaterThanOrEqual(leasedAtDeath.length);
    expect(counts.recorded).toBe(reference.size); // counted once each: the stores hold exactly these
    expect(counts.pages).toBe(reference.size);
    // The resume said what it settled: every page left unconfirmed, the one counted at the kill among those kept.
    const settled = resumed.errorLines.find((line) => line.includes('unconfirmed by the shared crawl'));
    const [, left, kept, dropped] = /left (\d+) page\(s\) unconfirmed by the shared crawl: (\d+) counted there, kept; (\d+) not/.exec(settled ?? '') ?? [];
    expect(Number(left)).toBe(atDeath.unconfirmed.length);
    expect(Number(kept)).toBeGreaterThanOrEqual(1);
    expect(Number(kept) + Number(dropped)).toBe(atDeath.unconfirmed.length);
    console.log(`shared-frontier e2e: killed after Redis counted ${killedAt}, holding ${leasedAtDeath.length} lease(s), ${atDeath.pages.length} page(s) in its store (${atDeath.unconfirmed.length} unconfirmed); resumed: ${settled}; pages per worker ${stores.map((store) => store.pages.length).join(', ')}`);
  }, 150_000); // three crawl processes, a lease to run out, on a machine the other tests load too
});
