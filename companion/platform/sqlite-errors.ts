/**
 * SQLite's messages name no file ("unable to open database file", "attempt to write a readonly
 * database"), and a read-only mount shows up as one of those. These say the same again with the
 * file and, from its directory's state, the likely cause.
 */
import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';

/** The error of a SQLite file that could not be opened or written: `what` (e.g. "the crawl store") and `path` named. */
export function sqliteFileError(what: string, path: string, error: unknown): Error {
  const code = (error as { code?: string }).code;
  const hint = code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_IOERR' ? unwritableReason(dirname(path)) : '';
  return new Error(`cannot open ${what} ${path}: ${(error as Error).message}${hint}`, { cause: error });
}

/** Why a directory cannot take a new file: a read-only file system, or no write permission. */
function unwritableReason(dir: string): string {
  try {
    accessSync(dir, constants.W_OK);
    return '';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EROFS' ? ' (the file system is read-only)' : code === 'EACCES' ? ' (no permission to write in the directory)' : '';
  }
}
