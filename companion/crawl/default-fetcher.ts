/**
 * The crawl's network side, composed from the fetch layer: one robots.txt cache, one host
 * scheduler (per-host concurrency and delay; a robots.txt Crawl-delay longer than `delayMs`
 * wins), `fetchPage` with scope, trap and robots checks on every redirect hop, and the crawl's
 * own HTTP agent, which connects only where the crawl's address rule allows
 * (`address-scope.ts`), names resolved and checked at connect time.
 */
import { createGuardedAgent } from '../fetch/http-agent.ts';
import type { AddressRule } from '../fetch/address-guard.ts';
import { fetchPage } from '../fetch/fetch-page.ts';
import { HostScheduler } from '../fetch/host-scheduler.ts';
import { RobotsCache, type SharedRobots } from '../fetch/robots.ts';
import type { CrawlOptions } from './crawl-options.ts';
import type { CrawlFetcher } from './types.ts';
import { trapReason } from './traps.ts';

export interface ClosableFetcher extends CrawlFetcher {
  close(): Promise<void>;
}

/** Where the crawl may go: links and redirects (`url-scope.ts`), and addresses (`address-scope.ts`). */
export interface FetcherScope {
  /** Which URLs are in the crawl's scope; undefined: every one. */
  inScope?: (url: string) => boolean;
  addresses: AddressRule;
}

/**
 * What crawl processes on one shared frontier share besides it (`frontier/redis/`): robots.txt
 * answers, and each host's politeness slot, so per-host delay and Crawl-delay hold across
 * processes. Each process's own scheduler still spaces its own requests first.
 */
export interface SharedPoliteness {
  robots: SharedRobots;
  /**
   * Resolves when a request to `host` may start, `delayMs` after the last one any process started
   * and after the end of the last one; the release it gives is called at the end of the request.
   */
  acquireSlot(host: string, delayMs: number, signal: AbortSignal | undefined): Promise<() => void>;
  backOff(host: string, delayMs: number): void;
}

export function createFetcher(options: CrawlOptions, scope: FetcherScope, shared?: SharedPoliteness): ClosableFetcher {
  const agent = createGuardedAgent({ connectTimeoutMs: options.fetch.connectTimeoutMs, rule: scope.addresses, ...(options.lookup ? { lookup: options.lookup } : {}) });
  const robots = new RobotsCache({
    userAgent: options.fetch.userAgent,
    fetch: options.fetch,
    unreachableRetryMs: options.retry.robotsRetryMs,
    dispatcher: agent,
    ...(shared ? { shared: shared.robots } : {}),
  });
  const scheduler = new HostScheduler({ perHostConcurrency: options.perHostConcurrency, delayMs: options.delayMs });
  // A redirect obeys the crawl's scope as a link does: a seed redirecting to another host is
  // not followed under --scope seed-hosts.
  const refuseHop = (url: string): string | undefined => {
    if (scope.inScope && !scope.inScope(url)) return `out of the crawl's scope (--scope ${options.scope.scope}${options.scope.allow.length + options.scope.deny.length > 0 ? ', --allow, --deny' : ''})`;
    return trapReason(url, options.traps) ?? undefined;
  };
  return {
    robotsAccess: (url, signal) => robots.access(url, signal),
    async acquire(url, host, signal) {
      const crawlDelayMs = await robots.crawlDelayMs(url, signal);
      const release = await scheduler.acquire(host, crawlDelayMs, signal);
      if (!shared) return release;
      try {
        const releaseShared = await shared.acquireSlot(host, Math.max(options.delayMs, crawlDelayMs ?? 0), signal);
        return () => {
          releaseShared();
          release();
        };
      } catch (error) {
        release();
        throw error;
      }
    },
    backOff: (host, delayMs) => {
      scheduler.backOff(host, delayMs);
      shared?.backOff(host, delayMs);
    },
    // The exchange as on the wire only for a crawl that writes it to WARC files.
    fetch: (url, signal) => fetchPage(url, { ...options.fetch, refuseHop, signal, robots, keepRaw: options.warc !== null }, agent),
    async close() {
      // Ends robots.txt fetches still in flight, clears the scheduler's timers, and closes the
      // crawl's connections (destroy: whatever was in flight was abandoned already).
      robots.close();
      scheduler.close();
      await agent.destroy();
    },
  };
}
