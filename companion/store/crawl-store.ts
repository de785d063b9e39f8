/**
 * One crawl's state on disk: `DIR/crawl.sqlite` (schema and durability in `schema.ts`).
 *
 * Every write that matters is one transaction: recording a fetched page inserts its row, marks
 * its URL done and enqueues its children together, so a crash leaves either all of it or none.
 * better-sqlite3 is synchronous, so within one process two workers can never interleave inside
 * a claim or a record.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { LabeledLink } from '../../shared/model/types.ts';
import { hostOf } from '../../shared/urls/normalize-url.ts';
import { FrontierQueries, type ClaimDecision } from './frontier-queries.ts';
import type { FrontierEntry, FrontierRow, PageRecord, PageStats, StoreCounts } from './records.ts';
import { applySchema } from './schema.ts';

export const STORE_FILE = 'crawl.sqlite';

export interface OpenStoreOptions {
  /** true: the directory must not hold a crawl yet; false: it must (resume). */
  create: boolean;
}

interface RawPageRow {
  seq: number;
  url: string;
  final_url: string;
  status: number;
  depth: number;
  parent: string | null;
  score: number;
  fetched_at: string;
  bytes: number;
  content_type: string;
  outcome: string;
  error: string | null;
  relevance: number | null;
  noindex: number;
  attempts: number;
}

/** A page row as the JSON line of pages.jsonl: optional fields only when they say something. */
function toPageRecord(raw: RawPageRow): PageRecord {
  const record: PageRecord = {
    seq: raw.seq,
    url: raw.url,
    finalUrl: raw.final_url,
    status: raw.status,
    depth: raw.depth,
    parent: raw.parent,
    score: raw.score,
    fetchedAt: raw.fetched_at,
    bytes: raw.bytes,
    contentType: raw.content_type,
    outcome: raw.outcome,
  };
  if (raw.error !== null) record.error = raw.error;
  if (raw.attempts > 1) record.attempts = raw.attempts;
  if (raw.relevance !== null) record.relevance = raw.relevance;
  if (raw.noindex) record.noindex = true;
  return record;
}

export class CrawlStore {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #frontier: FrontierQueries;
  readonly #insertPage: Database.Statement;
  readonly #allPages: Database.Statement;
  readonly #pagesByHost: Database.Statement;
  readonly #getMeta: Database.Statement;
  readonly #setMeta: Database.Statement;
  readonly #insertLabeled: Database.Statement;
  readonly #recordTx: (page: PageRecord, host: string, children: readonly FrontierEntry[], now: number) => number;
  readonly #enqueueTx: (entries: readonly FrontierEntry[], now: number) => number;

  private constructor(path: string) {
    this.path = path;
    this.#db = new Database(path);
    applySchema(this.#db);
    this.#frontier = new FrontierQueries(this.#db);
    this.#insertPage = this.#db.prepare(`
      INSERT INTO pages (url, final_url, host, status, depth, parent, score, fetched_at, bytes,
                         content_type, outcome, error, relevance, noindex, attempts)
      VALUES (@url, @finalUrl, @host, @status, @depth, @parent, @score, @fetchedAt, @bytes,
              @contentType, @outcome, @error, @relevance, @noindex, @attempts)`);
    this.#allPages = this.#db.prepare(`SELECT * FROM pages ORDER BY seq`);
    this.#pagesByHost = this.#db.prepare(
      `SELECT host, count(*) AS n FROM pages WHERE outcome <> 'robots-denied' GROUP BY host`,
    );
    this.#getMeta = this.#db.prepare(`SELECT value FROM meta WHERE key = ?`);
    this.#setMeta = this.#db.prepare(
      `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    this.#insertLabeled = this.#db.prepare(`
      INSERT OR IGNORE INTO labeled_links (url, page_url, anchor, before, after, label, source, topic)
      VALUES (@url, @pageUrl, @anchor, @before, @after, @label, @source, @topic)`);

    this.#enqueueTx = this.#db.transaction((entries: readonly FrontierEntry[], now: number) => {
      let changed = 0;
      for (const entry of entries) if (this.#frontier.upsert(entry, now)) changed++;
      return changed;
    });
    this.#recordTx = this.#db.transaction(
      (page: PageRecord, host: string, children: readonly FrontierEntry[], now: number) => {
        const { lastInsertRowid } = this.#insertPage.run({
          ...page,
          host,
          error: page.error ?? null,
          relevance: page.relevance ?? null,
          noindex: page.noindex ? 1 : 0,
          attempts: page.attempts ?? 1,
        });
        this.#frontier.setState(page.url, 'done', null);
        if (page.finalUrl !== page.url) {
          // A redirect target is seen too: do not fetch it again under its own name.
          this.#frontier.markDone(
            { url: page.finalUrl, score: page.score, depth: page.depth, parent: page.parent, host: hostOf(page.finalUrl) },
            now,
          );
        }
        for (const child of children) this.#frontier.upsert(child, now);
        return Number(lastInsertRowid);
      },
    );
  }

  /** Opens `dir/crawl.sqlite`, creating the directory for a new crawl. */
  static open(dir: string, { create }: OpenStoreOptions): CrawlStore {
    const path = join(dir, STORE_FILE);
    const exists = existsSync(path);
    if (create && exists) {
      throw new Error(`${dir} already holds a crawl (${STORE_FILE}); resume it, or choose another output directory`);
    }
    if (!create && !exists) throw new Error(`${dir} holds no crawl to resume (no ${STORE_FILE})`);
    mkdirSync(dir, { recursive: true });
    return new CrawlStore(path);
  }

  getMeta<T>(key: string): T | undefined {
    const row = this.#getMeta.get(key) as { value: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  setMeta(key: string, value: unknown): void {
    this.#setMeta.run(key, JSON.stringify(value));
  }

  /** Upserts entries in one transaction (a link met again keeps its highest score). */
  enqueue(entries: readonly FrontierEntry[], now = Date.now()): number {
    return this.#enqueueTx(entries, now);
  }

  /** The best queued URL `decide` accepts, now in flight (see `FrontierQueries.claim`). */
  claimNext(decide: (row: FrontierRow) => ClaimDecision = () => 'take', scanLimit = 4096, excludedHosts: readonly string[] = []): FrontierRow | undefined {
    return this.#frontier.claim(decide, scanLimit, excludedHosts);
  }

  /** An in-flight URL whose fetch was abandoned (pause/stop): queue it again. */
  requeue(url: string): void {
    this.#frontier.setState(url, 'queued', null);
  }

  /** A URL that will not be fetched, with the reason. */
  drop(url: string, reason: string): void {
    this.#frontier.setState(url, 'dropped', reason);
  }

  /** Resume: URLs claimed by a crawl that died go back to the queue. Returns how many. */
  requeueInFlight(): number {
    return this.#frontier.requeueInFlight();
  }

  frontierEntry(url: string): FrontierRow | undefined {
    return this.#frontier.get(url);
  }

  /**
   * Records a settled URL atomically: its page row, its frontier row marked done, and its
   * children enqueued. Returns the record with its fetch-order `seq`.
   */
  recordPage(page: PageRecord, children: readonly FrontierEntry[] = [], now = Date.now()): PageRecord {
    const seq = this.#recordTx(page, hostOf(page.url), children, now);
    return { ...page, seq };
  }

  /** Every page in fetch order, streamed from disk. */
  *pages(): IterableIterator<PageRecord> {
    for (const raw of this.#allPages.iterate() as IterableIterator<RawPageRow>) yield toPageRecord(raw);
  }

  /** Pages actually requested per host (robots-denied ones excluded), for the per-host cap. */
  pageCountsByHost(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { host, n } of this.#pagesByHost.all() as { host: string; n: number }[]) counts.set(host, n);
    return counts;
  }

  /** Aggregates over the pages for resuming counters: one scan, no page held in memory. */
  pageStats(relevanceThreshold: number): PageStats {
    return this.#db
      .prepare(
        `SELECT
           coalesce(sum(outcome <> 'robots-denied'), 0) AS fetched,
           coalesce(sum(outcome = 'robots-denied'), 0) AS robotsDenied,
           coalesce(sum(outcome NOT IN ('ok', 'robots-denied')), 0) AS errors,
           coalesce(sum(relevance IS NOT NULL), 0) AS judged,
           coalesce(sum(relevance >= ?), 0) AS relevant
         FROM pages`,
      )
      .get(relevanceThreshold) as PageStats;
  }

  counts(): StoreCounts {
    const byState = this.#frontier.countsByState();
    const pages = (this.#db.prepare(`SELECT count(*) AS n FROM pages`).get() as { n: number }).n;
    return { queued: byState.queued, inFlight: byState['in-flight'], done: byState.done, dropped: byState.dropped, pages };
  }

  /** Stores labeled links (duplicates of url+pageUrl+topic ignored). Returns how many were new. */
  addLabeledLinks(links: readonly LabeledLink[]): number {
    let added = 0;
    this.#db.transaction(() => {
      for (const link of links) added += this.#insertLabeled.run(link).changes;
    })();
    return added;
  }

  labeledLinks(): LabeledLink[] {
    return this.#db.prepare(
      `SELECT url, page_url AS pageUrl, anchor, before, after, label, source, topic FROM labeled_links ORDER BY id`,
    ).all() as LabeledLink[];
  }

  /** The connection's durability settings, as SQLite reports them (synchronous 2 = FULL). */
  durability(): { journalMode: string; synchronous: number } {
    return {
      journalMode: this.#db.pragma('journal_mode', { simple: true }) as string,
      synchronous: this.#db.pragma('synchronous', { simple: true }) as number,
    };
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

