/**
 * Files the companion replaces whole (model files, the page classifier, the service's
 * `service.json` and each crawl's `crawl.json`): written beside the target, fsync'd, then renamed
 * over it, so a reader or a crash (kill -9, power cut) sees either the old file or the new one,
 * never half of one.
 *
 * Only a regular file is ever replaced. A rename does not care what it replaces: `train --out
 * /dev/full` run as root swapped the device node for a JSON file. So the target is looked at
 * first: a missing one is made, a symbolic link is written through (the link stays, its file is
 * replaced), anything else that is not a regular file (a device, a pipe, a directory) is refused
 * in one line.
 */
import { closeSync, fsyncSync, lstatSync, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cannotWrite, OutputPathError } from './output-paths.ts';

/**
 * Writes `data` (text or bytes) to `path` atomically; `mode` applies from the first byte (0600 for secrets).
 * Throws `OutputPathError`, one line naming the path: `cannot write <path>: <why>`.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  const target = replaceableTarget(path);
  const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(temporary, 'w', mode);
    try {
      writeFileSync(fd, data); // all of it: writeSync may write part of a large buffer
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw cannotWrite(path, error);
  }
}

/** `value` as pretty JSON, atomically. */
export function writeJsonAtomic(path: string, value: unknown, mode?: number): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, mode);
}

/** The file a write to `path` replaces: `path`, or the file its symbolic link points to. */
function replaceableTarget(path: string): string {
  let link: Stats;
  try {
    link = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path; // a new file
    throw cannotWrite(path, error);
  }
  if (!link.isSymbolicLink()) return regular(path, link, path);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new OutputPathError(`cannot write ${path}: it is a symbolic link to a file that does not exist`, { cause: error });
    throw cannotWrite(path, error);
  }
  return regular(real, statSync(real), path);
}

function regular(target: string, stats: Stats, path: string): string {
  if (stats.isFile()) return target;
  throw new OutputPathError(`cannot write ${path}: it is ${kindOf(stats)}, not a regular file`);
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}
