/**
 * Test support: crawl stores on real SQLite files in a temporary directory, one directory per
 * test (made before it, removed after it with every store the test opened closed first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { CrawlStore } from '../../../companion/store/crawl-store.ts';

export interface TempStores {
  /** This test's directory. */
  readonly dir: string;
  /** Opens the store in `dir` (created unless `create` is false); closed after the test (again, if the test closed it: closing is idempotent). */
  store(create?: boolean, cacheKiB?: number): CrawlStore;
}

/** Registers the per-test directory's hooks; call at a test file's top level. */
export function useTempStores(prefix: string): TempStores {
  let dir = '';
  const open: CrawlStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    store(create = true, cacheKiB?: number) {
      const s = CrawlStore.open(dir, { create, cacheKiB });
      open.push(s);
      return s;
    },
  };
}
