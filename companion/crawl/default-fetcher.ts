/**
 * The crawl's network side, composed from the fetch layer: one robots.txt cache, one host
 * scheduler (per-host concurrency and delay; a robots.txt Crawl-delay longer than `delayMs`
 * wins) and `fetchPage` with robots and trap checks on every redirect hop.
 */
import { fetchPage } from '../fetch/fetch-page.ts';
import { HostScheduler } from '../fetch/host-scheduler.ts';
import { RobotsCache } from '../fetch/robots.ts';
import type { CrawlOptions } from './crawl-options.ts';
import type { CrawlFetcher } from './types.ts';
import { trapReason } from './traps.ts';

export interface ClosableFetcher extends CrawlFetcher {
  close(): Promise<void>;
}

export function createFetcher(options: CrawlOptions): ClosableFetcher {
  const robots = new RobotsCache({
    userAgent: options.fetch.userAgent,
    fetch: options.fetch,
    unreachableRetryMs: options.retry.robotsRetryMs,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const scheduler = new HostScheduler({ perHostConcurrency: options.perHostConcurrency, delayMs: options.delayMs });
  const allowHop = (url: string) => trapReason(url, options.traps) === null;
  return {
    robotsAccess: (url) => robots.access(url),
    async acquire(url, host, signal) {
      const crawlDelayMs = await robots.crawlDelayMs(url);
      return scheduler.acquire(host, crawlDelayMs, signal);
    },
    backOff: (host, delayMs) => scheduler.backOff(host, delayMs),
    // The exchange as on the wire only for a crawl that writes it to WARC files.
    fetch: (url, signal) => fetchPage(url, { ...options.fetch, allowHop, signal, robots, keepRaw: options.warc !== null }, options.dispatcher),
    async close() {
      // Clears the scheduler's timers. The shared keep-alive Agent outlives one crawl (the
      // service runs several), so it stays open.
      scheduler.close();
    },
  };
}
