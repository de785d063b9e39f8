/**
 * `npm run bench -- scale`, or on its own: `node --import tsx bench/scale-bench.ts`.
 *
 * Issue 15: what adding crawl processes on one shared Redis frontier buys on this machine, and
 * what the frontier costs Redis in memory.
 *
 *   1. throughput: `crawl --strategy bfs` from the portal of the loopback web of Debian
 *      documentation sites (`support/local-web.ts`, every site, ≈ 3,700 HTML pages on 12 hosts),
 *      `PAGES` pages in all, no delay, 4 fetches at once per process and per host; first one
 *      process on the default SQLite frontier, then 1, 2 and 4 processes on one redis-server
 *      (`support/redis-server.ts`, no persistence). Counted by the web server: responses
 *      (robots.txt aside) over the span from the first to the last one. CPU: each worker's and
 *      redis-server's user + system time from /proc/PID/stat (polled; the last reading before
 *      exit), and the machine's busy share over the span from /proc/stat. The machine's cores
 *      bound it: with 2 cores, 4 processes share them with the web server and Redis.
 *   2. memory: `URLS` synthetic URLs (about 60 characters, `HOSTS` hosts, each with a link context
 *      of about 120 characters, as crawls keep them) enqueued into an empty crawl through
 *      `RedisFrontier.enqueue`; Redis's `used_memory` before and after, and `MEMORY USAGE` of
 *      each structure (the dedupe, the queue, the link contexts, the counts per host), per
 *      million queued URLs. The dedupe alone is what a URL costs once it is done.
 *
 * Everything written goes under bench/data/scale-bench/ (removed at the start). Figures depend
 * on the machine and its load, printed at the start and the end: compare runs on a quiet machine.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { RedisFrontier } from '../companion/frontier/redis/redis-frontier.ts';
import { crawlPrefix, KEY } from '../companion/frontier/redis/redis-keys.ts';
import { parseRedisFrontierUrl } from '../companion/frontier/redis/redis-url.ts';
import type { FrontierEntry } from '../companion/store/records.ts';
import { startLinkscent, type ChildResult } from './support/cli-child.ts';
import { startLocalWeb, type LocalWeb } from './support/local-web.ts';
import { fmt, loadLine, table } from './support/measure.ts';
import { freePort } from './support/listen-loopback.ts';
import { redisSkipReason, startRedis, type RunningRedis } from './support/redis-server.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = join(ROOT, 'bench', 'data', 'scale-bench');
const PAGES = 2000;
const WORKERS = [1, 2, 4];
const URLS = 200_000;
const HOSTS = 2000;
/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux). */
const TICKS = 100;

/** user + system CPU seconds of a process so far, from /proc/PID/stat; undefined once it is gone. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime (fields 14, 15)
  } catch {
    return undefined;
  }
}

/** The machine's busy and total CPU ticks so far (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } {
  const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = values[3]! + (values[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

interface ScaleRun {
  label: string;
  workers: number;
  pages: number;
  pagesPerSecond: number;
  workerCpu: number;
  redisCpu: number;
  machineBusy: number;
  spanSeconds: number;
}

async function throughputRun(web: LocalWeb, redis: RunningRedis, workers: number, frontier: boolean): Promise<ScaleRun> {
  const label = frontier ? `redis, ${workers} process${workers > 1 ? 'es' : ''}` : 'sqlite, 1 process';
  const port = new URL(web.portal).port;
  const crawl = `scale-${workers}-${frontier ? 'redis' : 'sqlite'}`;
  web.resetCounts();
  const redisCpuBefore = cpuSeconds(redis.pid) ?? 0;
  const machineBefore = machineTicks();
  const children = Array.from({ length: workers }, (_, i) => {
    const args = ['crawl', web.portal, '--strategy', 'bfs', '--max-pages', String(PAGES), '--out', join(WORK, `${crawl}-${i + 1}`), '--delay-ms', '0', '--concurrency', '4', '--per-host-concurrency', '4', '--allow', `http://127.0.0.*:${port}/*`];
    if (frontier) args.push('--frontier', `${redis.url}?crawl=${crawl}`);
    return startLinkscent(args);
  });
  const lastCpu = children.map(() => 0);
  const poll = setInterval(() => children.forEach(({ child }, i) => (lastCpu[i] = cpuSeconds(child.pid!) ?? lastCpu[i]!)), 50);
  let results: ChildResult[];
  try {
    results = await Promise.all(children.map(({ done }) => done));
  } finally {
    clearInterval(poll);
  }
  const machineAfter = machineTicks();
  for (const result of results) {
    if (result.code !== 0) throw new Error(`${label}: a worker exited ${result.code}: ${result.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  }
  // Every response but robots.txt: what the workers fetched (bfs meets images and stylesheets
  // too, and the two frontiers break score ties differently, so the HTML share varies by run).
  const pages = web.served().filter((r) => new URL(r.url).pathname !== '/robots.txt');
  const spanSeconds = pages.length > 1 ? (pages.at(-1)!.at - pages[0]!.at) / 1000 : Number.NaN;
  return {
    label,
    workers,
    pages: pages.length,
    pagesPerSecond: (pages.length - 1) / spanSeconds,
    workerCpu: lastCpu.reduce((a, b) => a + b, 0),
    redisCpu: (cpuSeconds(redis.pid) ?? 0) - redisCpuBefore,
    machineBusy: (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total),
    spanSeconds,
  };
}

/** Synthetic frontier entries: `n` URLs over `hosts` hosts, each with a link context. */
function syntheticEntries(from: number, n: number): FrontierEntry[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const host = `site-${i % HOSTS}.example.cn`;
    return {
      url: `http://${host}/articles/2026/${(i * 7919) % 100_000}/page-${i}.html`,
      score: ((i * 2654435761) % 1000) / 1000,
      depth: 2,
      parent: `http://${host}/articles/index-${i % 97}.html`,
      host,
      context: { anchor: `第 ${i} 篇：聚焦爬虫与链接气味`, before: '上一篇 相关阅读 推荐 专题 新闻 动态 ', after: ' 下一篇 评论 分享 收藏 返回顶部 网站地图' },
    };
  });
}

async function memoryPerMillion(redis: RunningRedis): Promise<string[][]> {
  const url = parseRedisFrontierUrl(`${redis.url}?crawl=memory`);
  const client = createClient({ url: redis.url });
  await client.connect();
  const frontier = await RedisFrontier.connect(url, { maxPages: 1, perHostConcurrency: 1, maxPagesPerHost: null });
  try {
    const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
    const before = await used();
    for (let at = 0; at < URLS; at += 5000) await frontier.enqueue(syntheticEntries(at, Math.min(5000, URLS - at)));
    const after = await used();
    const p = crawlPrefix('memory');
    const usage = async (key: string) => Number((await client.memoryUsage(key, { SAMPLES: 0 })) ?? 0);
    const queue = await usage(p + KEY.queue);
    const perMillion = (bytes: number) => `${fmt(((bytes / URLS) * 1e6) / 2 ** 20, 3)} MiB`;
    const perUrl = (bytes: number) => `${fmt(bytes / URLS, 3)} B`;
    const dedupe = await usage(p + KEY.state);
    const info = await usage(p + KEY.info);
    const hosts = await usage(p + KEY.hostQueued);
    return [
      ['structure', 'per URL', 'per million URLs'],
      ['dedupe (64-bit fingerprints → state; stays once a URL is done)', perUrl(dedupe), perMillion(dedupe)],
      ['queue (discovery number, host and URL → score)', perUrl(queue), perMillion(queue)],
      ['link contexts (depth, parent, anchor, context) while queued', perUrl(info), perMillion(info)],
      ['queued URLs per host', perUrl(hosts), perMillion(hosts)],
      ['used_memory growth, all of it', perUrl(after - before), perMillion(after - before)],
    ];
  } finally {
    await frontier.close();
    await client.close();
  }
}

async function main(): Promise<void> {
  if (redisSkipReason) throw new Error(`scale bench: ${redisSkipReason}`);
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  console.log(`scale bench: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}); ${loadLine()}`);
  const redis = await startRedis();
  // A free port rather than the benches' fixed one: other benches may be running on this machine.
  const web = await startLocalWeb({ log: true, port: Number(process.env.LINKSCENT_BENCH_PORT) || (await freePort()) });
  try {
    const runs: ScaleRun[] = [await throughputRun(web, redis, 1, false)];
    for (const workers of WORKERS) runs.push(await throughputRun(web, redis, workers, true));
    const base = runs[1]!.pagesPerSecond;
    console.log(`\n1. throughput: bfs from the portal, ${PAGES} pages in all, no delay, 4 at once per process and per host (one run each)\n`);
    console.log(
      table([
        ['frontier', 'responses served', 'pages/s', 'vs 1 redis process', 'span s', 'workers CPU s', 'redis CPU s', 'machine busy'],
        ...runs.map((run) => [run.label, String(run.pages), fmt(run.pagesPerSecond, 3), `${fmt(run.pagesPerSecond / base, 3)}×`, fmt(run.spanSeconds, 3), fmt(run.workerCpu, 3), fmt(run.redisCpu, 3), `${fmt(run.machineBusy * 100, 3)} %`]),
      ]),
    );
    console.log(
      `\n   pages/s = responses served (robots.txt aside) over the span from the first to the last one; CPU = user + system\n` +
        `   seconds from /proc (workers: each process's last reading before exit); machine busy = share of all ${cpus().length}\n` +
        `   cores' time not idle over the run (the web server and Redis included). More processes than cores buy nothing.`,
    );
    console.log(`\n2. Redis memory: ${URLS.toLocaleString('en')} synthetic URLs queued on ${HOSTS.toLocaleString('en')} hosts, each with a link context\n`);
    console.log(table(await memoryPerMillion(redis)));
  } finally {
    await web.close();
    await redis.stop();
  }
  console.log(`\n${loadLine()}`);
}

await main();
