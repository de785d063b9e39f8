/**
 * Where the companion writes (a crawl directory, the service's home, a model file): one wording
 * for a path that cannot be written, and directories made one level at a time.
 *
 * Why not `mkdirSync(dir, { recursive: true })`: on a file system that answers ENOENT for a
 * directory it will never create (`/proc/x`), Node's recursive mkdir retries the parent, finds it,
 * retries the child, and loops in native code forever: 100 % CPU, deaf to SIGTERM, since no
 * JavaScript signal handler gets a turn. Here every level is tried once and a refusal is a line.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A path the companion cannot write; the message is one line naming it. */
export class OutputPathError extends Error {
  override readonly name = 'OutputPathError';
}

/** Why a write failed, in words, from the system error (`its folder does not exist`, …). */
export function whyNotWritable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'its folder does not exist';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOTDIR':
      return 'a part of its path is a file, not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return (error as Error).message.split('\n')[0]!;
  }
}

/** `cannot write <path>: <why>`, with the system error kept as `cause`. */
export function cannotWrite(path: string, error: unknown): OutputPathError {
  return new OutputPathError(`cannot write ${path}: ${whyNotWritable(error)}`, { cause: error });
}

/**
 * Makes `dir` and its missing parents (`mode` for the ones made here), or throws one line:
 * `cannot create the directory <dir>: <why>`. A path that exists and is not a directory is
 * refused as such.
 */
export function ensureDirectory(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; ) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotCreate(dir, error);
      missing.push(at);
      const parent = dirname(at);
      if (parent === at) break;
      at = parent;
      continue;
    }
    if (!isDirectory) throw new OutputPathError(`cannot create the directory ${dir}: ${at} exists and is not a directory`);
    break;
  }
  for (const at of missing.reverse()) {
    try {
      mkdirSync(at, mode);
    } catch (error) {
      // Made meanwhile by someone else (two crawls starting in one parent): fine.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(at).isDirectory()) continue;
      throw cannotCreate(dir, error);
    }
  }
}

function cannotCreate(dir: string, error: unknown): OutputPathError {
  const code = (error as NodeJS.ErrnoException).code;
  // ENOENT for a directory whose parent exists: a file system that makes no directories (/proc).
  const why = code === 'ENOENT' ? 'the file system there makes no directories' : whyNotWritable(error);
  return new OutputPathError(`cannot create the directory ${dir}: ${why}`, { cause: error });
}
