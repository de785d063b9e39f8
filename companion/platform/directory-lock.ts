/**
 * One process at a time in a directory (a crawl directory, the service's home), for as long as
 * that process lives: two `crawl --resume` of one directory at once recorded the same page twice
 * and left the crawl unresumable.
 *
 * The lock is the operating system's: `DIR/<name>` is a small SQLite file whose write lock the
 * holder keeps (an open `BEGIN IMMEDIATE`, never committed). SQLite takes it as a POSIX advisory
 * lock (LockFileEx on Windows), which the kernel drops when the process ends however it ends, so
 * a dead holder's lock is simply free: no pid to test for life, no pid reused by another process
 * mistaken for the holder, no race between two processes taking over a stale lock. SQLite also
 * keeps two connections of one process apart, so a second lock in the same process (two runs of
 * one served crawl) is refused too.
 *
 * The file also records who holds it (pid, host, since), committed just before the lock is taken
 * for good, so the process that is refused can say by whom.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ensureDirectory } from './output-paths.ts';
import { sqliteFileError } from './sqlite-errors.ts';

/** Who holds a lock, as its file records. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO 8601. */
  since: string;
  /** Random, per lock taken: tells one's own row from another's. */
  token: string;
}

/** The directory is locked by another process (or by another part of this one). */
export class DirectoryInUseError extends Error {
  override readonly name = 'DirectoryInUseError';
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | undefined,
    what = dir,
  ) {
    super(`${what} is in use by ${holderText(holder)}; wait for it to end, or stop it`);
  }
}

export interface DirectoryLock {
  readonly path: string;
  /** Gives the lock up (idempotent). Ending the process gives it up too. */
  release(): void;
}

/**
 * Takes the lock `dir/name`, making `dir` if needed. Throws `DirectoryInUseError` at once when
 * another holds it (it never waits; `what` names the directory in its message), or
 * `OutputPathError` when `dir` cannot be made.
 */
export function lockDirectory(dir: string, name: string, what = dir): DirectoryLock {
  ensureDirectory(dir);
  const path = join(dir, name);
  // timeout 0: a lock held elsewhere is an answer, not something to wait for.
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: 0 });
  } catch (error) {
    throw sqliteFileError('the lock file', path, error);
  }
  const token = randomBytes(8).toString('hex');
  try {
    // Record ourselves, then hold the write lock. Between the two another process may slip in;
    // then the second BEGIN fails and we are the one refused, as we should be.
    db.exec('BEGIN IMMEDIATE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, host TEXT NOT NULL, since TEXT NOT NULL, token TEXT NOT NULL)');
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder (pid, host, since, token) VALUES (?, ?, ?, ?)').run(process.pid, hostname(), new Date().toISOString(), token);
    db.exec('COMMIT');
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    const busy = isBusy(error);
    const holder = busy ? readHolder(db) : undefined;
    db.close();
    // Our own row: the winner of that slip has not written its own yet.
    if (busy) throw new DirectoryInUseError(dir, holder?.token === token ? undefined : holder, what);
    throw sqliteFileError('the lock file', path, error);
  }
  return {
    path,
    release() {
      if (db.open) db.close(); // rolls the open transaction back: the lock is free
    },
  };
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** The holder the file records; undefined when it cannot be read right now. */
function readHolder(db: Database.Database): LockHolder | undefined {
  try {
    return db.prepare('SELECT pid, host, since, token FROM holder').get() as LockHolder | undefined;
  } catch {
    return undefined; // the holder is between its two steps, or made the file a moment ago
  }
}

function holderText(holder: LockHolder | undefined): string {
  if (!holder) return 'another process';
  const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return `process ${holder.pid}${where} (since ${holder.since})`;
}
