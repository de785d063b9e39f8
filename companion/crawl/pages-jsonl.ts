/**
 * `DIR/pages.jsonl`: one JSON line per settled page, in fetch order, the crawl's public record.
 *
 * SQLite is the source of truth and the file is its projection: a line is appended only after
 * the page's transaction committed, and a resumed crawl first rewrites the file from SQLite
 * (to a temporary file, then an atomic rename). A crawl killed between a commit and its append,
 * or in the middle of writing a line, therefore still ends with every page exactly once.
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlStore } from '../store/crawl-store.ts';
import type { PageRecord } from '../store/records.ts';

export const PAGES_FILE = 'pages.jsonl';

/** The line for a record: the store's fetch-order `seq` stays in SQLite, out of the file. */
export function pageLine(record: PageRecord): string {
  const { seq: _seq, ...line } = record;
  return `${JSON.stringify(line)}\n`;
}

export class PagesJsonl {
  readonly path: string;
  #fd: number;

  private constructor(path: string, fd: number) {
    this.path = path;
    this.#fd = fd;
  }

  /** Rewrites the file from the store's pages, then opens it for appending. */
  static rebuild(dir: string, store: CrawlStore): PagesJsonl {
    const path = join(dir, PAGES_FILE);
    const temporary = `${path}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      let buffer = '';
      for (const record of store.pages()) {
        buffer += pageLine(record);
        if (buffer.length > 1 << 16) {
          writeSync(fd, buffer);
          buffer = '';
        }
      }
      if (buffer) writeSync(fd, buffer);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
    return new PagesJsonl(path, openSync(path, 'a'));
  }

  append(record: PageRecord): void {
    writeSync(this.#fd, pageLine(record));
  }

  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
  }
}
