/**
 * The default frontier: the crawl store's frontier table (`store/frontier-queries.ts`), in one
 * process. Today's store code behind the `Frontier` interface, unchanged: every answer is
 * synchronous, and `record` is the store's one transaction (page row, URL done, children).
 */
import type { CrawlStore } from '../store/crawl-store.ts';
import type { ClaimDecision } from '../store/frontier-queries.ts';
import type { FrontierEntry, FrontierRow, PageExtras, PageRecord } from '../store/records.ts';
import type { Frontier } from './frontier.ts';

export class SqliteFrontier implements Frontier {
  readonly kind = 'sqlite';

  constructor(private readonly store: CrawlStore) {}

  claim(decide: (row: FrontierRow) => ClaimDecision, claimWindow: number, excludedHosts: readonly string[]): FrontierRow | undefined {
    return this.store.claimNext(decide, claimWindow, excludedHosts);
  }

  enqueue(entries: readonly FrontierEntry[]): number {
    return this.store.enqueue(entries);
  }

  settled(urls: readonly string[]): ReadonlySet<string> {
    return this.store.settledAmong(urls);
  }

  requeue(url: string): void {
    this.store.requeue(url);
  }

  drop(url: string, reason: string): void {
    this.store.drop(url, reason);
  }

  record(page: PageRecord, children: readonly FrontierEntry[], extras: PageExtras): PageRecord {
    return this.store.recordPage(page, children, Date.now(), extras);
  }

  queued(): number {
    return this.store.counts().queued;
  }

  queuedByHost(hosts: readonly string[]): Map<string, number> {
    return this.store.queuedByHost(hosts);
  }

  async close(): Promise<void> {}
}
