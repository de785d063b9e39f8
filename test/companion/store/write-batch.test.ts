/**
 * The crawl store's write-behind (`store/write-batch.ts`): several pages' claims and records in
 * one transaction, on real SQLite files. What another connection sees is the test: a batch's
 * writes appear there all at once when it commits (its page bound, its time bound, a stop, the
 * store closing), never half, and never when it is rolled back.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CrawlStore, STORE_FILE } from '../../../companion/store/crawl-store.ts';
import type { FrontierEntry, PageRecord } from '../../../companion/store/records.ts';
import { useTempStores } from './temp-stores.ts';

const stores = useTempStores('linkscent-batch-');

function entry(url: string, score: number): FrontierEntry {
  return { url, score, depth: 1, parent: null, host: new URL(url).host };
}

function page(url: string): PageRecord {
  return { url, finalUrl: url, status: 200, depth: 1, parent: null, score: 1, fetchedAt: '2024-01-01T00:00:00.000Z', bytes: 10, contentType: 'text/html', outcome: 'ok' };
}

/** What a connection of its own sees on disk: committed pages, and the frontier by state. */
function onDisk(): { pages: string[]; states: Record<string, string> } {
  const db = new Database(join(stores.dir, STORE_FILE), { readonly: true });
  try {
    const pages = (db.prepare(`SELECT url FROM pages ORDER BY seq`).pluck().all() as string[]);
    const states = Object.fromEntries((db.prepare(`SELECT url, state FROM frontier`).all() as { url: string; state: string }[]).map((r) => [r.url, r.state]));
    return { pages, states };
  } finally {
    db.close();
  }
}

/** A batching store with URLs a.test/1 … a.test/n queued (committed before the batching starts). */
function batching(n: number, limits = { pages: 100, ms: 1e9 }): CrawlStore {
  const s = stores.store();
  s.enqueue(Array.from({ length: n }, (_, i) => entry(`http://a.test/${i + 1}`, n - i)));
  s.batchWrites(limits);
  return s;
}

/** Claims the best URL and records it with `children`. */
function fetchOne(s: CrawlStore, children: FrontierEntry[] = []): string {
  const row = s.claimNext()!;
  s.recordPage(page(row.url), children);
  return row.url;
}

/** Whether `promise` has settled, once the jobs queued so far ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => (done = true), () => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('CrawlStore.batchWrites', () => {
  it('commits its claims and pages together once it holds `pages` pages, and only then are they durable', async () => {
    const s = batching(5, { pages: 3, ms: 1e9 });
    fetchOne(s, [entry('http://a.test/child', 9)]);
    // Read on its own connection, the batch is all there: the child it queued is claimed next.
    expect(fetchOne(s)).toBe('http://a.test/child');
    const durable = s.durable();
    expect(s.counts()).toMatchObject({ pages: 2, done: 2 });
    expect(onDisk()).toEqual({ pages: [], states: { 'http://a.test/1': 'queued', 'http://a.test/2': 'queued', 'http://a.test/3': 'queued', 'http://a.test/4': 'queued', 'http://a.test/5': 'queued' } });
    expect(await settled(durable)).toBe(false);
    fetchOne(s);
    expect(onDisk().pages).toEqual(['http://a.test/1', 'http://a.test/child', 'http://a.test/2']);
    await durable;
  });

  it('commits at the end of its time window with no more writes', async () => {
    const s = batching(3, { pages: 100, ms: 0 });
    fetchOne(s);
    expect(onDisk().pages).toEqual([]);
    await s.durable();
    expect(onDisk().pages).toEqual(['http://a.test/1']);
  });

  it('commits what it holds when asked (a crawl stopping) and when the store closes', () => {
    const s = batching(4);
    fetchOne(s);
    s.commitWrites();
    expect(onDisk().pages).toEqual(['http://a.test/1']);
    fetchOne(s);
    s.claimNext(); // in flight when the crawl stops: its mark is committed too
    s.close();
    expect(onDisk()).toEqual({
      pages: ['http://a.test/1', 'http://a.test/2'],
      states: { 'http://a.test/1': 'done', 'http://a.test/2': 'done', 'http://a.test/3': 'in-flight', 'http://a.test/4': 'queued' },
    });
  });

  it('a write that fails before it changed anything leaves the batch going (a page recorded twice)', async () => {
    const s = batching(3);
    const url = fetchOne(s);
    expect(() => s.recordPage(page(url), [entry('http://a.test/child', 0.5)])).toThrow(/UNIQUE/);
    expect(s.frontierEntry('http://a.test/child')).toBeUndefined();
    fetchOne(s);
    const durable = s.durable();
    s.commitWrites();
    await durable;
    expect(onDisk().pages).toEqual(['http://a.test/1', 'http://a.test/2']);
  });

  it('a write that fails partway rolls the whole batch back: nothing of it on disk, its waiters and later writes fail', async () => {
    const s = batching(3);
    fetchOne(s);
    const durable = s.durable();
    expect(() =>
      s.transaction(() => {
        s.enqueue([entry('http://a.test/new', 5)]);
        throw new Error('the learner failed');
      }),
    ).toThrow('the learner failed');
    await expect(durable).rejects.toThrow(/rolled back: the learner failed/);
    expect(() => s.claimNext()).toThrow(/rolled back/);
    s.close();
    expect(onDisk()).toEqual({ pages: [], states: { 'http://a.test/1': 'queued', 'http://a.test/2': 'queued', 'http://a.test/3': 'queued' } });
  });

  it('another connection of this process writes without waiting for the batch: it is committed first', () => {
    const s = batching(3);
    // The service writes a running crawl's labels through a second store on the same file, kept open.
    const labels = CrawlStore.open(stores.dir, { create: false });
    try {
      fetchOne(s);
      expect(onDisk().pages).toEqual([]);
      const added = labels.addLabeledLinks([{ url: 'http://a.test/x', pageUrl: 'http://a.test/1', anchor: 'x', before: '', after: '', label: 1, source: 'crawl', topic: 't' }]);
      expect(added).toBe(1);
      expect(onDisk().pages).toEqual(['http://a.test/1']);
      // The crawl goes on in a new batch.
      fetchOne(s);
      s.commitWrites();
      expect(onDisk().pages).toEqual(['http://a.test/1', 'http://a.test/2']);
      expect(labels.labeledLinks().map((link) => link.url)).toEqual(['http://a.test/x']);
    } finally {
      labels.close();
    }
  });

  it('opening a store to read it takes no write lock (a crawl in another process may hold it)', () => {
    stores.store().close();
    const writer = new Database(join(stores.dir, STORE_FILE));
    try {
      writer.exec(`BEGIN IMMEDIATE; INSERT INTO meta (key, value) VALUES ('held', '1')`);
      const reader = CrawlStore.open(stores.dir, { create: false });
      try {
        expect(reader.getMeta('held')).toBeUndefined();
      } finally {
        reader.close();
      }
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('refuses bounds that are not bounds', () => {
    const s = stores.store();
    expect(() => s.batchWrites({ pages: 0, ms: 10 })).toThrow(RangeError);
    expect(() => s.batchWrites({ pages: 4, ms: Number.NaN })).toThrow(RangeError);
  });
});
