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

/** Syncs the WAL at `walPath`; tests pass one that counts the syncs and holds them. */
export type WalSyncer = (walPath: string) => Promise<void>;

export class WalSync {
  readonly #walPath: string;
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  readonly #fdatasync: WalSyncer;
  /** The descriptor the default syncer keeps; absent when a test's syncer is used. */
  readonly #descriptor: WalDescriptor | undefined;

  /**
   * @param dbPath the database file; its WAL is `${dbPath}-wal`.
   * @param fdatasync syncs the WAL; tests pass one that counts the syncs and holds them.
   */
  constructor(dbPath: string, fdatasync?: WalSyncer) {
    this.#walPath = `${dbPath}-wal`;
    if (fdatasync === undefined) {
      const descriptor = new WalDescriptor();
      this.#descriptor = descriptor;
      this.#fdatasync = (walPath) => descriptor.sync(walPath);
    } else {
      this.#fdatasync = fdatasync;
    }
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

  /**
   * The store's connection is closing: the WAL's descriptor is closed (after the sync running, if
   * one is). A later `sync()` opens the file for that sync alone.
   */
  close(): void {
    this.#descriptor?.close();
  }

  #startNext(): Promise<void> {
    this.#next = undefined;
    return this.sync();
  }
}

/**
 * fdatasync of the WAL on the thread pool, through a descriptor opened at the first sync and kept
 * until the store closes. Opening and closing the file around every sync was 3 % of an nb crawl's
 * event loop (three system calls' dispatch and callbacks per page). Keeping it is safe because the
 * WAL is never replaced while the store's connection is open: SQLite resets a WAL by writing it
 * again from the start, or truncates it, in place, and deletes it only when the last connection
 * closes or the journal mode changes, neither of which happens before `close()`. Linux syncs a
 * file's dirty pages whichever descriptor asks.
 *
 * The callback API, not `fs/promises`: a FileHandle per sync (its promise wrappers, its close
 * tracking) was another 3 %. `WalSync` runs one sync at a time, so one flag tells whether the
 * descriptor is in use.
 */
class WalDescriptor {
  #fd: number | undefined;
  #syncing = false;
  #closed = false;

  sync(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (error: Error | null) => (error ? reject(error) : resolve());
      if (this.#fd !== undefined) return this.#syncFd(this.#fd, done);
      openFile(path, 'r', (openError, fd) => {
        if (openError) return reject(openError);
        if (this.#closed) {
          // Closed while opening, or a sync after close: this descriptor is for this sync alone.
          return fdatasync(fd, (syncError) => closeFile(fd, (closeError) => done(syncError ?? closeError)));
        }
        this.#fd = fd;
        this.#syncFd(fd, done);
      });
    });
  }

  close(): void {
    this.#closed = true;
    // A sync on the thread pool still holds the number: closing it now could hand it to another
    // file before that sync runs. The sync's callback closes it instead.
    if (!this.#syncing) this.#release();
  }

  #syncFd(fd: number, done: (error: Error | null) => void): void {
    this.#syncing = true;
    fdatasync(fd, (error) => {
      this.#syncing = false;
      if (this.#closed) this.#release();
      done(error);
    });
  }

  #release(): void {
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) closeFile(fd, () => {});
  }
}
