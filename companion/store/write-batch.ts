/**
 * Several pages' store work in one SQLite transaction: the crawl store's write-behind
 * (`CrawlStore.batchWrites`, turned on by a crawl on its own frontier).
 *
 * Why. A crawl wrote each claim (an UPDATE) and each page (page row, URL done, children) in a
 * transaction of its own. `COMMIT` in WAL mode appends every page the transaction dirtied to the
 * WAL, and the frontier's index pages are dirtied by every claim and every page again: profiled on
 * the crawl bench's local web (nb, 2,000 pages, concurrency 8), the two commits per page were
 * ~200 µs of the event loop's ~2 ms per page, half of `recordPage` was its BEGIN/COMMIT. In one
 * transaction for several pages, each page of the file is written once per batch.
 *
 * How. The first write begins a transaction (`BEGIN IMMEDIATE`); every write after it, claims
 * and records alike, runs inside it (the store's own transactions with it: see `run` for what
 * that means when one fails); it commits when `pages` pages were recorded in it,
 * `ms` milliseconds after it began, or when asked (`commit()`: the crawl's end, its stop, a worker
 * about to wait for its reports, the store closing). Reads on the same connection see the batch's
 * writes, so the crawl decides exactly as before: only when the commit happens changes.
 *
 * What a crash loses. Nothing reported: a page is reported (its pages.jsonl line, progress,
 * hooks) only once its batch committed and the WAL was synced (`durable()`). A `kill -9` loses
 * the open batch whole, and the file is as it was at the batch's start: its pages' URLs are still
 * queued (their claims were in the batch too), and a resume fetches them again. So a batch's
 * bounds are also the bound on work a kill throws away: at most `pages` pages, or `ms` of them.
 *
 * Other connections. A transaction held across awaits holds SQLite's write lock across them. A
 * second connection in this process (the service writes a crawl's labels through one,
 * `service/crawl-run.ts`) would wait for it synchronously, in SQLite's busy handler on the event
 * loop, where the batch can never commit. So a store that does not batch commits the batch of
 * its file (`commitBatchOf`) before it writes, with no await between: it never waits. Readers in
 * other processes are not blocked (WAL); a crawl directory has one writing process (its lock).
 */
import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import type { WalSync } from './wal-sync.ts';

export interface WriteBatchLimits {
  /** Pages recorded in one transaction before it commits (≥ 1). */
  pages: number;
  /** Milliseconds a transaction stays open before it commits (≥ 0). */
  ms: number;
}

/**
 * 16 pages or 10 ms. At ~500 pages/s a batch is ~5 pages by time, and a worker about to wait for
 * its reports commits it sooner (`crawler.ts`). 10 ms is nothing to a page's report (its fsync is
 * 2–5 ms) and, on a kill, a few pages fetched again.
 */
export const DEFAULT_WRITE_BATCH: WriteBatchLimits = { pages: 16, ms: 10 };

/** The open batch of each store file in this process, by its absolute path. */
const batches = new Map<string, WriteBatch>();

/** Commits the batch open on the store file `path` in this process, if there is one. */
export function commitBatchOf(path: string): void {
  if (batches.size === 0) return; // most processes batch nothing (a shared-frontier worker, a CLI reading a store)
  batches.get(resolve(path))?.commit();
}

export class WriteBatch {
  readonly #db: Database.Database;
  readonly #walSync: WalSync;
  readonly #limits: WriteBatchLimits;
  readonly #key: string;
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  readonly #rollback: Database.Statement;
  readonly #totalChanges: Database.Statement;
  #open = false;
  #pages = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Those waiting for the open batch to be on disk (`durable()`). */
  #waiting: { resolve(onDisk: Promise<void>): void; reject(error: unknown): void; promise: Promise<void> } | undefined;
  /** A commit that failed on its timer: the next write throws it, so the crawl stops. */
  #failure: unknown;

  constructor(db: Database.Database, path: string, walSync: WalSync, limits: WriteBatchLimits) {
    if (!Number.isInteger(limits.pages) || limits.pages < 1) throw new RangeError(`write batch: pages must be a whole number ≥ 1, got ${limits.pages}`);
    if (!Number.isFinite(limits.ms) || limits.ms < 0) throw new RangeError(`write batch: ms must be ≥ 0, got ${limits.ms}`);
    this.#db = db;
    this.#walSync = walSync;
    this.#limits = limits;
    this.#key = resolve(path);
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    this.#totalChanges = db.prepare('SELECT total_changes()').pluck();
    batches.set(this.#key, this);
  }

  /**
   * Before a write: the batch's transaction, begun if none is open. Inside a transaction someone
   * else began (`CrawlStore.transaction` before any batch), the write joins that one instead.
   */
  join(): void {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#open) {
      if (this.#db.inTransaction) return;
      // SQLite rolled the whole transaction back itself (a full disk, an I/O error).
      this.#lost(new Error('the crawl store rolled back a batch of writes after an error'));
      throw this.#failure;
    }
    if (this.#db.inTransaction) return;
    this.#begin.run();
    this.#open = true;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#commitQuietly();
    }, this.#limits.ms);
  }

  /**
   * Runs `fn`, several writes that belong together, in the batch: no savepoint of its own (in
   * a transaction SQLite copies every page a savepoint first changes, which made a batched page's
   * record slower than a transaction of its own: 2.3 ms against 1.5 ms with 40 links, and 1.1 ms
   * without savepoints; `notes/h30/batch-micro.mts`). So all or nothing holds with the batch:
   * when `fn` throws after changing a row, the whole batch is rolled back and the store takes no
   * more writes (its pages were not reported; the crawl stops, a resume fetches them again).
   * When it throws before changing anything (a page recorded twice fails on its first insert),
   * there is nothing to undo and the batch goes on.
   */
  run<T>(fn: () => T): T {
    this.join();
    const before = this.#totalChanges.get() as number;
    try {
      return fn();
    } catch (error) {
      if (this.#db.inTransaction && (this.#totalChanges.get() as number) === before) throw error;
      this.#abort(error);
      throw error;
    }
  }

  /** A page was recorded in the batch: it commits once it holds `pages` of them. */
  pageRecorded(): void {
    if (this.#open && ++this.#pages >= this.#limits.pages) this.#commitQuietly();
  }

  /**
   * Resolves once every write made so far is committed and the WAL synced (`wal-sync.ts`);
   * rejects when the batch's commit or the sync failed.
   */
  durable(): Promise<void> {
    if (!this.#open) return this.#walSync.sync();
    if (this.#waiting === undefined) {
      let resolve!: (onDisk: Promise<void>) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.#waiting = { resolve, reject, promise };
    }
    return this.#waiting.promise;
  }

  /** Commits the open batch now, if one is; throws when the commit fails (the batch is then lost). */
  commit(): void {
    if (!this.#open) return;
    if (!this.#db.inTransaction) {
      this.#lost(new Error('the crawl store rolled back a batch of writes after an error'));
      throw this.#failure;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#open = false;
    this.#pages = 0;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    try {
      this.#commit.run();
    } catch (error) {
      if (this.#db.inTransaction) this.#rollback.run();
      this.#failure = error;
      waiting?.reject(error);
      throw error;
    }
    waiting?.resolve(this.#walSync.sync());
  }

  /** The store is closing: the open batch committed, and this file no longer batched. */
  close(): void {
    if (batches.get(this.#key) === this) batches.delete(this.#key);
    if (this.#failure === undefined) this.commit();
  }

  /** A commit no caller waits on (its bound reached): a failure goes to the batch's waiters and the next write. */
  #commitQuietly(): void {
    try {
      this.commit();
    } catch {
      // Kept in #failure and given to those waiting: the next write, or their reports, stop the crawl.
    }
  }

  /** A write failed partway: the batch rolled back whole, and no more writes taken. */
  #abort(cause: unknown): void {
    if (this.#db.inTransaction) this.#rollback.run();
    this.#lost(new Error(`a write to the crawl store failed partway, so its batch of writes was rolled back: ${cause instanceof Error ? cause.message : String(cause)}`, { cause }));
  }

  #lost(error: Error): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#open = false;
    this.#failure = error;
    this.#waiting?.reject(error);
    this.#waiting = undefined;
  }
}
