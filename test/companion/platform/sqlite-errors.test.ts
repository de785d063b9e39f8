/**
 * Issue 13, item 13: SQLite errors named no file ("unable to open database file"), and a
 * read-only mount read as a missing file. Both SQLite files of a crawl directory now say which.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDirectory } from '../../../companion/platform/directory-lock.ts';
import { CrawlStore, STORE_FILE } from '../../../companion/store/crawl-store.ts';
import { tempDir } from '../crawl/crawl-test-helpers.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function crawlDir(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return dir;
}

describe('a SQLite file that cannot be opened is named', () => {
  it('the lock file', () => {
    const dir = crawlDir();
    mkdirSync(join(dir, 'crawl.lock')); // a directory where the file should be
    expect(() => lockDirectory(dir, 'crawl.lock')).toThrow(`cannot open the lock file ${join(dir, 'crawl.lock')}: unable to open database file`);
  });

  it('the crawl store', () => {
    const dir = crawlDir();
    mkdirSync(join(dir, STORE_FILE));
    expect(() => CrawlStore.open(dir, { create: false })).toThrow(`cannot open the crawl store ${join(dir, STORE_FILE)}: unable to open database file`);
  });
});
