/**
 * Group commit for the crawl store: the fsync that makes committed pages survive a power cut,
 * taken off the event loop and shared by every page committed meanwhile.
 *
 * The store runs in WAL mode with `synchronous = NORMAL` (schema.ts): `COMMIT` appends the
 * transaction's frames to `crawl.sqlite-wal` and returns without an fsync, so a commit survives
 * `kill -9` (the frames are in the OS cache) but not yet a power cut. `sync()` then fdatasyncs
 * the WAL on libuv's thread pool: when it resolves, every transaction committed before the call
 * is on disk, as `synchronous = FULL` would have left it. SQLite itself syncs the WAL before each
 * checkpoint copies it into the database, and the database after (WAL mode with NORMAL is
 * always consistent; sqlite.org/pragma.html#pragma_synchronous), so what we sync is the one
 * thing NORMAL leaves out: the WAL's newest frames.
 *
 * Why not FULL. better-sqlite3 is synchronous: with FULL every commit's fsync blocked the event
 * loop, and so did every claim's (an UPDATE committing on its own). Profiled on the crawl bench's
 * local web (nb, 2,000 pages, concurrency 8), those two were 43 % of the crawler's main thread:
 * `sqliteTransaction` 26 %, the claim 17 %, while the fetches waited for their turn.
 *
 * One fdatasync covers every frame written before it starts. A caller arriving while one runs
 * cannot know whether its frames were written before that one started, so it waits for the next,
 * which starts when the running one ends and covers everyone who arrived meanwhile: a burst of
 * pages pays for two syncs at most.
 */
import { close as closeFile, fdatasync, open as openFile } from 'node:fs';

export class WalSync {
  readonly #walPath: string;
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  readonly #fdatasync: (walPath: string) => Promise<void>;

  /**
   * @param dbPath the database file; its WAL is `${dbPath}-wal`.
   * @param fdatasync syncs the WAL; tests pass one that counts the syncs and holds them.
   */
  constructor(dbPath: string, fdatasync: (walPath: string) => Promise<void> = fdatasyncFile) {
    this.#walPath = `${dbPath}-wal`;
    this.#fdatasync = fdatasync;
  }

  /** Resolves once every transaction committed before this call is on disk; rejects on an I/O error. */
  sync(): Promise<void> {
    if (this.#running === undefined) {
      this.#running = this.#fdatasync(this.#walPath).finally(() => (this.#running = undefined));
      return this.#running;
    }
    this.#next ??= this.#running.then(
      () => this.#startNext(),
      () => this.#startNext(),
    );
    return this.#next;
  }

  #startNext(): Promise<void> {
    this.#next = undefined;
    return this.sync();
  }
}

/**
 * fdatasync of a file, on the thread pool. Opened for each sync: a WAL SQLite deleted and made
 * again (another journal mode, the last connection closing) is then the file synced, never an old
 * inode. Linux syncs a file's dirty pages whichever descriptor asks. The callback API, not
 * `fs/promises`: a FileHandle per sync (its promise wrappers, its close tracking) was 3 % of an
 * nb crawl's event loop, for three system calls.
 */
function fdatasyncFile(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    openFile(path, 'r', (openError, fd) => {
      if (openError) return reject(openError);
      fdatasync(fd, (syncError) => {
        closeFile(fd, (closeError) => {
          const error = syncError ?? closeError;
          if (error) reject(error);
          else resolve();
        });
      });
    });
  });
}
