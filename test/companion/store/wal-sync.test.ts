import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CrawlStore } from '../../../companion/store/crawl-store.ts';
import { WalSync } from '../../../companion/store/wal-sync.ts';
import { tempDir } from '../crawl/crawl-test-helpers.ts';

/** A WalSync whose syncs are held until released, and counted. */
function heldSyncs() {
  const pending: (() => void)[] = [];
  const sync = new WalSync('/nowhere/crawl.sqlite', (path) => {
    expect(path).toBe('/nowhere/crawl.sqlite-wal');
    return new Promise<void>((resolve) => pending.push(resolve));
  });
  /** Lets the oldest held sync finish, then the promise jobs that follow run. */
  const release = async () => {
    pending.shift()!();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { sync, pending, release };
}

describe('WalSync (group commit: one fdatasync for the commits made meanwhile)', () => {
  it('a caller arriving while a sync runs waits for the next one, which covers every such caller', async () => {
    const { sync, pending, release } = heldSyncs();
    const done: string[] = [];
    void sync.sync().then(() => done.push('a'));
    // b, c and d may have committed after the running sync started: they need the next one.
    for (const name of ['b', 'c', 'd']) void sync.sync().then(() => done.push(name));
    expect(pending).toHaveLength(1);
    await release();
    expect(done).toEqual(['a']);
    expect(pending).toHaveLength(1); // the next sync, started as the first ended
    await release();
    expect(done).toEqual(['a', 'b', 'c', 'd']);
    expect(pending).toHaveLength(0);
  });

  it('a failed sync fails its waiters, and the next caller gets a new sync', async () => {
    let calls = 0;
    const sync = new WalSync('/nowhere/crawl.sqlite', async () => {
      calls++;
      if (calls === 1) throw new Error('EIO: i/o error, fdatasync');
    });
    await expect(sync.sync()).rejects.toThrow('EIO');
    await expect(sync.sync()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});

describe('CrawlStore.durable (a real WAL)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it('syncs the store\'s WAL once a page is committed, and names the missing file when there is none', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const store = CrawlStore.open(join(dir, 'crawl'), { create: true });
    try {
      store.enqueue([{ url: 'http://a.test/', score: 1, depth: 0, parent: null, host: 'a.test' }]);
      expect(existsSync(`${store.path}-wal`)).toBe(true);
      await expect(store.durable()).resolves.toBeUndefined();
    } finally {
      store.close(); // the last connection: SQLite checkpoints and deletes the WAL
    }
    await expect(store.durable()).rejects.toThrow(`${store.path}-wal`);
  });

  it('keeps one descriptor of the WAL across syncs, and closes it with the store', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const store = CrawlStore.open(join(dir, 'crawl'), { create: true });
    const wal = `${store.path}-wal`;
    /** This process's descriptors open on the WAL (SQLite's own among them). */
    const open = () => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(wal);
      } catch {
        return false; // closed meanwhile (readdir's own descriptor)
      }
    }).length;
    try {
      store.enqueue([{ url: 'http://a.test/', score: 1, depth: 0, parent: null, host: 'a.test' }]);
      const sqliteOwn = open();
      await store.durable();
      expect(open()).toBe(sqliteOwn + 1);
      for (let i = 0; i < 5; i++) {
        store.enqueue([{ url: `http://a.test/${i}`, score: 1, depth: 1, parent: 'http://a.test/', host: 'a.test' }]);
        await store.durable();
      }
      expect(open()).toBe(sqliteOwn + 1);
    } finally {
      store.close();
    }
    // The descriptor's close runs on the thread pool.
    await vi.waitFor(() => expect(open()).toBe(0), { timeout: 5_000 });
  });
});
