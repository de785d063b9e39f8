/**
 * What `linkscent status --frontier redis://…` shows of a shared crawl: its counts, the workers
 * seen lately and the URLs they hold, the hosts with the most queued URLs, and Redis's memory.
 * Read-only: plain reads, no script, so it can be run at any time by anyone.
 */
import { RedisConnection } from './redis-connection.ts';
import { crawlPrefix, KEY } from './redis-keys.ts';
import type { RedisFrontierUrl } from './redis-url.ts';

export interface SharedCrawlStatus {
  crawl: string;
  redis: string;
  strategy: string | null;
  startedAt: string | null;
  seeds: number;
  queued: number;
  leased: number;
  /** Pages recorded (every outcome) and pages requested (what maxPages counts). */
  pages: number;
  recorded: number;
  dropped: number;
  /** Leases that ran out and were queued again, and commits that found their URL recorded already. */
  reaped: number;
  duplicates: number;
  /** URLs ever met (the dedupe's size). */
  seen: number;
  /** Workers that renewed their leases within the last lease period, with when (ms ago). */
  workers: { id: string; seenMsAgo: number }[];
  /** The hosts with the most queued URLs (none listed past 100,000 hosts). */
  topHosts: { host: string; queued: number }[];
  /** Redis's `used_memory`, bytes, for every crawl in it. */
  usedMemory: number;
}

export async function sharedCrawlStatus(url: RedisFrontierUrl, topHosts = 10): Promise<SharedCrawlStatus> {
  const connection = await RedisConnection.open(url);
  try {
    const { client } = connection;
    const p = crawlPrefix(url.crawl);
    const [meta, counts, leased, seen, seeds, workers, hostCount, memory, time] = await Promise.all([
      client.hGetAll(p + KEY.meta),
      client.hGetAll(p + KEY.counts),
      client.zCard(p + KEY.leases),
      client.hLen(p + KEY.state),
      client.sCard(p + 'seeds'),
      client.zRangeWithScores(p + KEY.workers, 0, -1),
      client.hLen(p + KEY.hostQueued),
      client.info('memory'),
      client.time(),
    ]);
    const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
    // Every host's count when there are not too many to read at once (a crawl may meet millions).
    const hostSizes = hostCount <= 100_000 ? Object.entries(await client.hGetAll(p + KEY.hostQueued)).map(([host, n]) => ({ host, queued: Number(n) })) : [];
    const n = (value: string | undefined) => Number(value ?? 0);
    return {
      crawl: url.crawl,
      redis: url.shown,
      strategy: meta.strategy ?? null,
      startedAt: meta.startedAt ?? null,
      seeds,
      queued: n(counts.queued),
      leased,
      pages: n(counts.pages),
      recorded: n(counts.recorded),
      dropped: n(counts.dropped),
      reaped: n(counts.reaped),
      duplicates: n(counts.duplicates),
      seen,
      workers: workers.filter(({ score }) => now - score <= url.leaseMs).map(({ value, score }) => ({ id: value, seenMsAgo: now - score })),
      topHosts: hostSizes.sort((a, b) => b.queued - a.queued || a.host.localeCompare(b.host)).slice(0, topHosts),
      usedMemory: Number(/used_memory:(\d+)/.exec(memory)?.[1] ?? 0),
    };
  } finally {
    await connection.close();
  }
}

/** The status as lines for a terminal. */
export function statusLines(status: SharedCrawlStatus): string[] {
  if (status.strategy === null) return [`no crawl "${status.crawl}" at ${status.redis}`];
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return [
    `crawl "${status.crawl}" at ${status.redis}: strategy ${status.strategy}, started ${status.startedAt}, ${status.seeds} seed(s)`,
    `pages: ${status.recorded} requested, ${status.pages} recorded in all; ${status.queued} queued, ${status.leased} leased, ${status.dropped} dropped; ${status.seen} URLs seen`,
    `leases run out and queued again: ${status.reaped}; commits of a URL already recorded: ${status.duplicates}`,
    `workers alive: ${status.workers.length}${status.workers.map((w) => `\n  ${w.id} (seen ${(w.seenMsAgo / 1000).toFixed(1)} s ago)`).join('')}`,
    `most queued hosts:${status.topHosts.map((h) => `\n  ${h.host} ${h.queued}`).join('') || ' none'}`,
    `Redis memory: ${mib(status.usedMemory)} (the whole server)`,
  ];
}
