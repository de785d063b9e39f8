/**
 * One crawl's state on disk: `DIR/crawl.sqlite` (schema and durability in `schema.ts`).
 *
 * Every write that matters is one transaction: recording a fetched page inserts its row, marks
 * its URL done and enqueues its children together, so a crash leaves either all of it or none.
 * better-sqlite3 is synchronous, so within one process two workers can never interleave inside
 * a claim or a record. A crawl on its own frontier groups several pages' transactions, and the
 * claims between them, in one (`batchWrites`, `write-batch.ts`): a crash loses a whole batch of
 * pages, none of which was reported yet.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { WalSync } from './wal-sync.ts';
import { commitBatchOf, DEFAULT_WRITE_BATCH, WriteBatch, type WriteBatchLimits } from './write-batch.ts';
import type { LabeledLink } from '../../shared/model/types.ts';
import { hostOf } from '../../shared/urls/normalize-url.ts';
import { FrontierQueries, type ClaimDecision } from './frontier-queries.ts';
import { NOT_REQUESTED_OUTCOMES, type FrontierEntry, type FrontierRow, type LearnedLink, type LinkText, type PageExtras, type PageRecord, type PageStats, type QueuedHead, type SettledPage, type StoreCounts } from './records.ts';
import { PageExtrasQueries } from './page-extras-queries.ts';
import { UnconfirmedPages } from './unconfirmed-pages.ts';
import { toPageRecord, type RawPageRow } from './page-rows.ts';
import { applySchema } from './schema.ts';
import { ensureDirectory } from '../platform/output-paths.ts';
import { sqliteFileError } from '../platform/sqlite-errors.ts';

export const STORE_FILE = 'crawl.sqlite';

/** `NOT_REQUESTED_OUTCOMES` as an SQL list, for the counts that leave those URLs out. */
const NOT_REQUESTED = `(${NOT_REQUESTED_OUTCOMES.map((outcome) => `'${outcome}'`).join(', ')})`;

export interface OpenStoreOptions {
  /** true: the directory must not hold a crawl yet; false: it must (resume). */
  create: boolean;
  /**
   * The most page cache SQLite keeps for this connection, in KiB. Default `DEFAULT_STORE_CACHE_KIB`.
   * The service, with two connections per running crawl, keeps less (`SERVED_STORE_CACHE_KIB`);
   * what falls out of it is read again from the operating system's cache.
   */
  cacheKiB?: number;
}

/**
 * A crawl store's page cache unless told: 4 MiB, not the 16,000 KiB better-sqlite3 compiles
 * SQLite with. The cache is private memory, while the pages it would hold stay in the operating
 * system's file cache anyway; at 1,000,000 queued URLs (bench/frontier-bench.ts) the larger
 * cache was 18–20 MB of the nb crawl's resident memory, against issue 14's 300 MB.
 */
export const DEFAULT_STORE_CACHE_KIB = 4096;

/**
 * WAL frames (pages of 4 KiB) after which a commit on this connection checkpoints: 16 MiB of WAL,
 * where SQLite's default is 1,000 (4 MiB). A checkpoint runs inside the `COMMIT` that crosses it, on
 * the event loop: it syncs the WAL, copies the newest frame of each page into the database and
 * syncs that. A crawl dirties the same index pages batch after batch, so a longer WAL copies each
 * of them once for more batches, and syncs less often. In the crawl bench's nb crawl (2,000 pages,
 * ~4 MB store), 1,000 frames made ~20 checkpoints, 50–60 ms of the event loop against ~10 ms at
 * 4,000 (notes/h54). What bounds the WAL is unchanged: it is reset by the first batch after a
 * checkpoint that copied all of it (none does while another process reads an older snapshot, as
 * before), so it holds this many frames and one batch; its file keeps that size until the store
 * closes, when SQLite checkpoints and deletes it.
 */
export const WAL_CHECKPOINT_FRAMES = 4000;

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
  /** What the crawl keeps of its pages besides their rows: texts, WARC locations. */
  readonly extras: PageExtrasQueries;
  /** Pages recorded for a shared frontier that Redis has not confirmed yet (`unconfirmed-pages.ts`). */
  readonly unconfirmed: UnconfirmedPages;
  readonly #recordTx: (page: PageRecord, host: string, children: readonly FrontierEntry[], now: number, extras: PageExtras) => number;
  readonly #recordRaw: (page: PageRecord, host: string, children: readonly FrontierEntry[], now: number, extras: PageExtras) => number;
  readonly #enqueueRaw: (entries: readonly FrontierEntry[], now: number) => number;
  readonly #enqueueTx: (entries: readonly FrontierEntry[], now: number) => number;
  readonly #walSync: WalSync;
  /** The write-behind, once `batchWrites` turned it on. */
  #batch: WriteBatch | undefined;

  private constructor(path: string, cacheKiB: number | undefined) {
    this.path = path;
    commitBatchOf(path); // opening may write (a new or older store's schema): never behind this process's batch
    this.#db = openDatabase(path, cacheKiB);
    this.#walSync = new WalSync(path);
    this.#frontier = new FrontierQueries(this.#db);
    this.#insertPage = this.#db.prepare(`
      INSERT INTO pages (url, final_url, host, status, depth, parent, score, fetched_at, bytes,
                         content_type, outcome, error, relevance, noindex, attempts, claim_rank, log_odds)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`); // positional: see entryParams in frontier-queries.ts
    this.extras = new PageExtrasQueries(this.#db, (url) => this.page(url)?.seq);
    this.unconfirmed = new UnconfirmedPages(this.#db);
    this.#allPages = this.#db.prepare(`SELECT * FROM pages WHERE seq NOT IN (SELECT seq FROM unconfirmed_pages) ORDER BY seq`);
    this.#pagesByHost = this.#db.prepare(
      `SELECT host, count(*) AS n FROM pages WHERE outcome NOT IN ${NOT_REQUESTED} GROUP BY host`,
    );
    this.#getMeta = this.#db.prepare(`SELECT value FROM meta WHERE key = ?`);
    this.#setMeta = this.#db.prepare(
      `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    this.#insertLabeled = this.#db.prepare(`
      INSERT OR IGNORE INTO labeled_links (url, page_url, anchor, before, after, label, source, topic)
      VALUES (@url, @pageUrl, @anchor, @before, @after, @label, @source, @topic)`);

    this.#enqueueRaw = (entries: readonly FrontierEntry[], now: number) => {
      return this.#frontier.upsert(entries, now);
    };
    this.#enqueueTx = this.#db.transaction(this.#enqueueRaw);
    this.#recordRaw = (page: PageRecord, host: string, children: readonly FrontierEntry[], now: number, extras: PageExtras) => {
        const { lastInsertRowid } = this.#insertPage.run(
          page.url, page.finalUrl, host, page.status, page.depth, page.parent, page.score, page.fetchedAt, page.bytes,
          page.contentType, page.outcome, page.error ?? null, page.relevance ?? null, page.noindex ? 1 : 0,
          page.attempts ?? 1, page.rank ?? null, page.logOdds ?? null,
        );
        const seq = Number(lastInsertRowid);
        this.extras.insert(seq, extras);
        this.#frontier.setState(page.url, 'done', null);
        if (page.finalUrl !== page.url) {
          // A redirect target is seen too: do not fetch it again under its own name.
          this.#frontier.markDone(
            { url: page.finalUrl, score: page.score, depth: page.depth, parent: page.parent, host: hostOf(page.finalUrl) },
            now,
          );
        }
        this.#frontier.upsert(children, now);
        return seq;
      };
    this.#recordTx = this.#db.transaction(this.#recordRaw);
  }

  /**
   * Resolves when every transaction committed so far survives a power cut (commits alone survive
   * `kill -9`): one fdatasync of the WAL off the event loop, shared by the pages committed
   * meanwhile (`wal-sync.ts`). A page is reported only after it.
   */
  durable(): Promise<void> {
    return this.#batch ? this.#batch.durable() : this.#walSync.sync();
  }

  /**
   * From now on, writes are grouped into transactions of several pages (`write-batch.ts`): the
   * crawl's own frontier turns it on. `durable()` then resolves once the batch holding the
   * caller's writes committed and was synced.
   */
  batchWrites(limits: WriteBatchLimits = DEFAULT_WRITE_BATCH): void {
    this.#batch ??= new WriteBatch(this.#db, this.path, this.#walSync, limits);
  }

  /** Commits the open batch of writes now (a crawl stopping, or about to wait for its reports); throws when that fails. */
  commitWrites(): void {
    this.#batch?.commit();
  }

  /**
   * Before any write: it joins this store's batch (begun if none is open), or, on a store that
   * does not batch, the batch another connection of this process holds on the file is committed
   * first, so this write never waits for a lock that only this event loop could free.
   */
  #write(): void {
    if (this.#batch) this.#batch.join();
    else commitBatchOf(this.path);
  }

  /** Opens `dir/crawl.sqlite`, creating the directory for a new crawl. */
  static open(dir: string, options: OpenStoreOptions): CrawlStore {
    CrawlStore.check(dir, options);
    ensureDirectory(dir);
    return new CrawlStore(join(dir, STORE_FILE), options.cacheKiB);
  }

  /** Throws, in one line, when `dir` holds a crawl and `create`, or holds none and not. */
  static check(dir: string, { create }: OpenStoreOptions): void {
    const exists = existsSync(join(dir, STORE_FILE));
    if (create && exists) {
      throw new Error(`${dir} already holds a crawl (${STORE_FILE}); resume it, or choose another output directory`);
    }
    if (!create && !exists) throw new Error(`${dir} holds no crawl to resume (no ${STORE_FILE})`);
  }

  getMeta<T>(key: string): T | undefined {
    const row = this.#getMeta.get(key) as { value: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  setMeta(key: string, value: unknown): void {
    this.#write();
    this.#setMeta.run(key, JSON.stringify(value));
  }

  /** Upserts entries in one transaction (a link met again keeps its highest score). */
  enqueue(entries: readonly FrontierEntry[], now = Date.now()): number {
    if (this.#batch) return this.#batch.run(() => this.#enqueueRaw(entries, now));
    commitBatchOf(this.path);
    return this.#enqueueTx(entries, now);
  }

  /** The best queued URL `decide` accepts, now in flight (see `FrontierQueries.claim`). */
  claimNext(decide: (row: FrontierRow) => ClaimDecision = () => 'take', scanLimit = 4096, excludedHosts: readonly string[] = []): FrontierRow | undefined {
    this.#write();
    return this.#frontier.claim(decide, scanLimit, excludedHosts);
  }

  /** Those of `urls` already fetched or dropped: a link to one changes nothing in the frontier. */
  settledAmong(urls: readonly string[]): Set<string> {
    return new Set(urls.length === 0 ? [] : this.#frontier.settled(urls));
  }

  /** An in-flight URL whose fetch was abandoned (pause/stop): queue it again. */
  requeue(url: string): void {
    this.#write();
    this.#frontier.setState(url, 'queued', null);
  }

  /** A URL that will not be fetched, with the reason. */
  drop(url: string, reason: string): void {
    this.#write();
    this.#frontier.setState(url, 'dropped', reason);
  }

  /** Resume: URLs claimed by a crawl that died go back to the queue. Returns how many. */
  requeueInFlight(): number {
    this.#write();
    return this.#frontier.requeueInFlight();
  }

  /**
   * Resume: frontier rows whose page is recorded but that are queued or in flight again (two
   * runs at once did that, before crawl directories were locked) are marked done, so the URL is
   * not fetched and recorded a second time (`pages.url` is UNIQUE). Returns how many.
   */
  markRecordedDone(): number {
    this.#write();
    return this.#frontier.markRecordedDone();
  }

  frontierEntry(url: string): FrontierRow | undefined {
    return this.#frontier.get(url);
  }

  /**
   * Records a settled URL atomically: its page row, its frontier row marked done, its children
   * enqueued, and what the crawl keeps besides (its text, where its WARC records lie). Returns
   * the record with its fetch-order `seq`.
   */
  recordPage(page: PageRecord, children: readonly FrontierEntry[] = [], now = Date.now(), extras: PageExtras = {}): PageRecord {
    const host = hostOf(page.url);
    const batch = this.#batch;
    if (batch === undefined) commitBatchOf(this.path);
    const seq = batch ? batch.run(() => this.#recordRaw(page, host, children, now, extras)) : this.#recordTx(page, host, children, now, extras);
    batch?.pageRecorded();
    return { ...page, seq };
  }

  /**
   * Records a page for a shared frontier (`frontier/redis/redis-frontier.ts`), before Redis is
   * asked to count it: the page row marked unconfirmed (`unconfirmed-pages.ts`), and, when it was
   * claimed, its URL's row with the link context it was claimed with, inserted as done, since that
   * frontier's rows live in Redis and online learning reads a page's inbound link from here
   * (`settledPagesSince`). One transaction; its children go to Redis alone.
   */
  recordUnconfirmed(page: PageRecord, claimed: FrontierEntry | undefined, now = Date.now(), extras: PageExtras = {}): PageRecord {
    return this.transaction(() => {
      if (claimed !== undefined) this.#frontier.markDone(claimed, now);
      const record = this.recordPage(page, [], now, extras);
      this.unconfirmed.mark(record.seq!);
      return record;
    });
  }

  /** The page recorded for `url` (as requested, else as its final URL after redirects). */
  page(url: string): PageRecord | undefined {
    const raw = (this.#db.prepare(`SELECT * FROM pages WHERE url = ?`).get(url) ??
      this.#db.prepare(`SELECT * FROM pages WHERE final_url = ? ORDER BY seq LIMIT 1`).get(url)) as RawPageRow | undefined;
    return raw && toPageRecord(raw);
  }


  /** Every page in fetch order, streamed from disk (unconfirmed ones left out: not yet pages). */
  *pages(): IterableIterator<PageRecord> {
    for (const raw of this.#allPages.iterate() as IterableIterator<RawPageRow>) yield toPageRecord(raw);
  }

  /** Pages actually requested per host (`NOT_REQUESTED_OUTCOMES` excluded), for the per-host cap. */
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
           coalesce(sum(outcome NOT IN ${NOT_REQUESTED}), 0) AS fetched,
           coalesce(sum(outcome = 'robots-denied'), 0) AS robotsDenied,
           coalesce(sum(outcome <> 'ok' AND outcome NOT IN ${NOT_REQUESTED}), 0) AS errors,
           coalesce(sum(relevance IS NOT NULL), 0) AS judged,
           coalesce(sum(relevance >= ?), 0) AS relevant
         FROM pages`,
      )
      .get(relevanceThreshold) as PageStats;
  }

  /** Queued URLs of each of `hosts` (hosts with none left out). */
  queuedByHost(hosts: readonly string[]): Map<string, number> {
    const rows = this.#db
      .prepare(`SELECT host, count(*) AS n FROM frontier WHERE state = 'queued' AND host IN (SELECT value FROM json_each(?)) GROUP BY host`)
      .all(JSON.stringify(hosts)) as { host: string; n: number }[];
    return new Map(rows.map(({ host, n }) => [host, n]));
  }

  counts(): StoreCounts {
    const byState = this.#frontier.countsByState();
    const pages = (this.#db.prepare(`SELECT count(*) AS n FROM pages`).get() as { n: number }).n;
    return { queued: byState.queued, inFlight: byState['in-flight'], done: byState.done, dropped: byState.dropped, pages };
  }

  /**
   * Runs `fn` in one transaction (nested calls join the outer one). With `batchWrites`, in the
   * open batch, all or nothing with it (`WriteBatch.run`).
   */
  transaction<T>(fn: () => T): T {
    if (this.#batch) return this.#batch.run(fn);
    commitBatchOf(this.path);
    return this.#db.transaction(fn)();
  }

  /** The `limit` best queued rows, best first, with their kept link contexts. */
  bestQueued(limit: number): FrontierRow[] {
    return this.#frontier.bestQueued(limit);
  }

  /** `bestQueued` without the texts (`FrontierQueries.queuedHeads`); `queuedTexts` reads those wanted. */
  queuedHeads(limit: number): QueuedHead[] {
    return this.#frontier.queuedHeads(limit);
  }

  /** The link texts of those of `urls` that hold one. */
  queuedTexts(urls: readonly string[]): Map<string, LinkText> {
    return this.#frontier.texts(urls);
  }

  /** `listener` hears the URL of every frontier row an upsert inserts or changes (`FrontierQueries.onRowChanged`). */
  onFrontierRowChanged(listener: (url: string) => void): void {
    this.#frontier.onRowChanged(listener);
  }

  /** New scores for queued rows, in one transaction (rows no longer queued are left alone). */
  setScores(scores: readonly { url: string; score: number }[]): void {
    this.transaction(() => {
      for (const { url, score } of scores) this.#frontier.setScore(url, score);
    });
  }

  /** Lowers every queued row of `host` by `by` (negative raises). Returns how many rows moved. */
  lowerHost(host: string, by: number): number {
    this.#write();
    return this.#frontier.lowerHost(host, by);
  }

  /** Per host: pages requested (`NOT_REQUESTED_OUTCOMES` excluded) and those judged at or above `threshold`. */
  judgedCountsByHost(threshold: number): Map<string, { fetched: number; onTopic: number }> {
    const rows = this.#db
      .prepare(
        `SELECT host, count(*) AS fetched, coalesce(sum(relevance >= ?), 0) AS onTopic
           FROM pages WHERE outcome NOT IN ${NOT_REQUESTED} GROUP BY host`,
      )
      .all(threshold) as { host: string; fetched: number; onTopic: number }[];
    return new Map(rows.map(({ host, fetched, onTopic }) => [host, { fetched, onTopic }]));
  }

  /**
   * Pages recorded after fetch-order `afterSeq`, each with the link context its frontier row
   * kept (the link that led to it): what online learning turns into examples. Only those before
   * the first unconfirmed page (`unconfirmed-pages.ts`): the learner moves past a page once, so
   * it must not see one that may yet be undone, nor step over one that may yet be confirmed.
   */
  settledPagesSince(afterSeq: number): SettledPage[] {
    const rows = this.#db
      .prepare(
        `SELECT p.seq, p.url, p.final_url, p.parent, p.relevance, f.anchor, f.before_text, f.after_text
           FROM pages p LEFT JOIN frontier f ON f.url = p.url
          WHERE p.seq > ? AND p.seq < coalesce((SELECT min(seq) FROM unconfirmed_pages), 9223372036854775807)
            AND p.outcome NOT IN ${NOT_REQUESTED} ORDER BY p.seq`,
      )
      .all(afterSeq) as { seq: number; url: string; final_url: string; parent: string | null; relevance: number | null; anchor: string | null; before_text: string | null; after_text: string | null }[];
    return rows.map((raw) => {
      const page: SettledPage = { seq: raw.seq, url: raw.url, finalUrl: raw.final_url, parent: raw.parent, relevance: raw.relevance };
      if (raw.anchor !== null) page.context = { anchor: raw.anchor, before: raw.before_text ?? '', after: raw.after_text ?? '' } satisfies LinkText;
      return page;
    });
  }

  /**
   * Records what one round of online learning did, in one transaction: new learned links (each
   * given its row id), changed levels of earlier ones, the learner's own meta, and the queued
   * rows' new scores.
   */
  saveLearning(added: LearnedLink[], relevelled: readonly { id: number; level: number }[], meta: unknown, scores: readonly { url: string; score: number }[] = []): void {
    const insert = this.#db.prepare(`
      INSERT INTO learned_links (url, page_url, anchor, before, after, label, level, topic)
      VALUES (@url, @pageUrl, @anchor, @before, @after, @label, @level, @topic)`);
    const setLevel = this.#db.prepare(`UPDATE learned_links SET level = ? WHERE id = ?`);
    this.transaction(() => {
      for (const link of added) link.id = Number(insert.run({ ...link, level: link.level ?? null }).lastInsertRowid);
      for (const { id, level } of relevelled) setLevel.run(level, id);
      this.setMeta('online', meta);
      this.setScores(scores);
    });
  }

  /** Every link online learning added, in the order learned. */
  learnedLinks(): LearnedLink[] {
    const rows = this.#db
      .prepare(`SELECT id, url, page_url AS pageUrl, anchor, before, after, label, level, topic FROM learned_links ORDER BY id`)
      .all() as (Omit<LearnedLink, 'level' | 'source'> & { level: number | null })[];
    return rows.map(({ level, ...row }) => ({ ...row, source: 'crawl', ...(level === null ? {} : { level }) }));
  }

  /** One learned link's context, by its row id (online learning moving it to another level). */
  learnedLinkContext(id: number): (LinkText & { url: string; pageUrl: string }) | undefined {
    return this.#db.prepare(`SELECT url, page_url AS pageUrl, anchor, before, after FROM learned_links WHERE id = ?`).get(id) as
      | (LinkText & { url: string; pageUrl: string })
      | undefined;
  }

  /** Stores labeled links (duplicates of url+pageUrl+topic ignored). Returns how many were new. */
  addLabeledLinks(links: readonly LabeledLink[]): number {
    let added = 0;
    this.transaction(() => {
      for (const link of links) added += this.#insertLabeled.run(link).changes;
    });
    return added;
  }

  /** The crawl's labeled links, then the links online learning added that are not among them. */
  labeledLinks(): LabeledLink[] {
    return this.#db.prepare(
      `SELECT url, page_url AS pageUrl, anchor, before, after, label, source, topic FROM labeled_links
       UNION ALL
       SELECT url, page_url, anchor, before, after, label, 'crawl', topic FROM learned_links l
        WHERE NOT EXISTS (SELECT 1 FROM labeled_links k WHERE k.url = l.url AND k.page_url = l.page_url AND k.topic = l.topic)`,
    ).all() as LabeledLink[];
  }

  /**
   * The connection's durability settings and page cache, as SQLite reports them (synchronous 1 =
   * NORMAL, 2 = FULL; cache_size < 0: KiB; walAutocheckpoint in frames).
   */
  durability(): { journalMode: string; synchronous: number; cacheSize: number; walAutocheckpoint: number } {
    return {
      journalMode: this.#db.pragma('journal_mode', { simple: true }) as string,
      synchronous: this.#db.pragma('synchronous', { simple: true }) as number,
      cacheSize: this.#db.pragma('cache_size', { simple: true }) as number,
      walAutocheckpoint: this.#db.pragma('wal_autocheckpoint', { simple: true }) as number,
    };
  }

  /** Commits the open batch of writes, if any, and closes the connection; throws when that commit fails. */
  close(): void {
    try {
      if (this.#db.open) this.#batch?.close();
    } finally {
      if (this.#db.open) this.#db.close();
      this.#walSync.close();
    }
  }
}

/** The store's SQLite file, opened and its schema applied; a failure names the file (`sqlite-errors.ts`). */
function openDatabase(path: string, cacheKiB: number | undefined): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    applySchema(db);
    db.pragma(`cache_size = -${Math.max(1, Math.floor(cacheKiB ?? DEFAULT_STORE_CACHE_KIB))}`); // negative: KiB, not pages
    db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_FRAMES}`);
    return db;
  } catch (error) {
    db?.close();
    throw sqliteFileError('the crawl store', path, error);
  }
}
