/**
 * Files the companion replaces whole (model files, the page classifier, the service's
 * `service.json` and each crawl's `crawl.json`): written beside the target, fsync'd, then renamed
 * over it, so a reader or a crash (kill -9, power cut) sees either the old file or the new one,
 * never half of one.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/** Writes `text` to `path` atomically; `mode` applies from the first byte (0600 for secrets). */
export function writeFileAtomic(path: string, text: string, mode = 0o644): void {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(temporary, 'w', mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** `value` as pretty JSON, atomically. */
export function writeJsonAtomic(path: string, value: unknown, mode?: number): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, mode);
}
