import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CrawlStore, DEFAULT_STORE_CACHE_KIB, STORE_FILE, WAL_CHECKPOINT_FRAMES } from '../../../companion/store/crawl-store.ts';
import type { FrontierEntry, PageRecord } from '../../../companion/store/records.ts';
import { useTempStores } from './temp-stores.ts';

const stores = useTempStores('linkscent-store-');
const store = (create?: boolean) => stores.store(create);

function entry(url: string, score: number, depth = 1, parent: string | null = null): FrontierEntry {
  return { url, score, depth, parent, host: new URL(url).host };
}

function page(url: string, overrides: Partial<PageRecord> = {}): PageRecord {
  return {
    url,
    finalUrl: url,
    status: 200,
    depth: 0,
    parent: null,
    score: 1,
    fetchedAt: '2024-01-01T00:00:00.000Z',
    bytes: 10,
    contentType: 'text/html',
    outcome: 'ok',
    ...overrides,
  };
}

describe('CrawlStore frontier', () => {
  it('keeps its per-state counts equal to a count of the frontier, through every change of state', () => {
    const s = store();
    const counted = () => {
      const db = new Database(join(stores.dir, STORE_FILE), { readonly: true });
      try {
        const byState = Object.fromEntries((db.prepare(`SELECT state, count(*) AS n FROM frontier GROUP BY state`).all() as { state: string; n: number }[]).map((r) => [r.state, r.n]));
        return { queued: byState.queued ?? 0, inFlight: byState['in-flight'] ?? 0, done: byState.done ?? 0, dropped: byState.dropped ?? 0 };
      } finally {
        db.close();
      }
    };
    const check = () => expect(s.counts()).toMatchObject(counted());
    s.enqueue(Array.from({ length: 20 }, (_, i) => entry(`http://a.test/${i}`, i / 20)));
    s.enqueue([entry('http://a.test/3', 0.99)]); // met again: an update of its score, not a new row
    check();
    const first = s.claimNext()!;
    const second = s.claimNext()!;
    const third = s.claimNext()!;
    check();
    s.recordPage(page(first.url), [entry('http://a.test/new', 0.5, 1, first.url), entry('http://a.test/5', 0.9, 1, first.url)]);
    s.drop(second.url, 'a hook skipped it');
    s.requeue(third.url);
    check();
    s.claimNext();
    expect(s.requeueInFlight()).toBe(1);
    check();
    expect(s.counts()).toMatchObject({ queued: 19, inFlight: 0, done: 1, dropped: 1 });
  });

  it('counts the frontier of a store made before the counts were kept, once, when it is opened', () => {
    const s = store();
    s.enqueue([entry('http://a.test/x', 0.3), entry('http://a.test/y', 0.2)]);
    s.claimNext();
    s.close();
    const db = new Database(join(stores.dir, STORE_FILE));
    db.exec(`DROP TRIGGER frontier_counts_insert; DROP TRIGGER frontier_counts_update; DROP TRIGGER frontier_counts_delete; DROP TABLE frontier_counts`);
    db.prepare(`INSERT INTO frontier (url, score, depth, host, discovered_at) VALUES ('http://a.test/z', 0.1, 1, 'a.test', 0)`).run();
    db.close();
    expect(store(false).counts()).toMatchObject({ queued: 2, inFlight: 1 });
  });

  it('a URL met again keeps its highest score (and the depth and parent that earned it)', () => {
    const s = store();
    s.enqueue([entry('http://a.test/x', 0.3, 2, 'http://a.test/p1')]);
    s.enqueue([entry('http://a.test/x', 0.9, 5, 'http://a.test/p2')]);
    s.enqueue([entry('http://a.test/x', 0.1, 1, 'http://a.test/p3')]);
    const row = s.frontierEntry('http://a.test/x')!;
    expect(row.score).toBe(0.9);
    expect(row.depth).toBe(5);
    expect(row.parent).toBe('http://a.test/p2');
    expect(s.counts().queued).toBe(1);
  });

  it('upserts a list of links as one-row upserts of each in turn would: rows, numbers, counts and changes', () => {
    // Over statements of 64, 32, 16, 4 and 2 rows (118 links), with every case an upsert meets:
    // new URLs, the same URL twice in one list (higher, then lower), queued rows raised and not,
    // rows in flight and done left alone, links with and without context.
    const prior = [entry('http://a.test/q1', 0.5), entry('http://a.test/q2', 0.5), entry('http://a.test/f', 0.5), entry('http://a.test/d', 0.5)];
    const links: FrontierEntry[] = [];
    for (let i = 0; i < 110; i++) {
      const link: FrontierEntry = entry(`http://a.test/n${i % 97}`, ((i * 37) % 101) / 100, 1 + (i % 3), `http://a.test/p${i % 5}`);
      if (i % 4 === 0) link.context = { anchor: `链接 ${i}`, before: 'before', after: '' };
      if (i % 6 === 0) link.viaOnTopic = i % 12 === 0;
      links.push(link);
    }
    links.splice(30, 0, entry('http://a.test/q1', 0.9), entry('http://a.test/q2', 0.1), entry('http://a.test/f', 0.99), entry('http://a.test/d', 0.99));
    links.splice(70, 0, entry('http://a.test/q1', 0.95), entry('http://a.test/q1', 0.2), entry('http://a.test/n3', 2), entry('http://a.test/n3', 1.5));
    expect(links).toHaveLength(118);
    const grown = (one: boolean) => {
      const dir = join(stores.dir, one ? 'one' : 'many');
      const s = CrawlStore.open(dir, { create: true });
      const told: string[] = [];
      s.onFrontierRowChanged((url) => told.push(url));
      s.enqueue(prior, 1000);
      s.recordPage(page(s.claimNext((row) => (row.url === 'http://a.test/d' ? 'take' : 'skip'))!.url), [], 1000);
      s.claimNext((row) => (row.url === 'http://a.test/f' ? 'take' : 'skip'));
      const changed = one ? links.reduce((n, link) => n + s.enqueue([link], 2000), 0) : s.enqueue(links, 2000);
      s.close();
      const db = new Database(join(dir, STORE_FILE), { readonly: true });
      try {
        const rows = db.prepare(`SELECT * FROM frontier ORDER BY seq`).all();
        const counts = db.prepare(`SELECT * FROM frontier_counts ORDER BY state`).all();
        const sequence = db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'frontier'`).pluck().get();
        return { changed, told: told.sort(), rows, counts, sequence };
      } finally {
        db.close();
      }
    };
    const many = grown(false);
    expect(many).toEqual(grown(true));
    // The list raised rows as well as inserting them, and left the rows in flight and done alone.
    expect(many.rows).toHaveLength(4 + 97);
    expect(many.changed).toBeGreaterThan(97);
    // Told of the rows raised, not of the 97 inserted (nor of the 4 before: all new).
    expect(many.told).toHaveLength(many.changed - 97);
    expect(many.told).toContain('http://a.test/q1');
    expect(many.told).not.toContain('http://a.test/n50'); // met once, inserted
    expect(many.rows).toContainEqual(expect.objectContaining({ url: 'http://a.test/q1', score: 0.95 }));
    expect(many.rows).toContainEqual(expect.objectContaining({ url: 'http://a.test/d', state: 'done', score: 0.5 }));
    expect(many.rows).toContainEqual(expect.objectContaining({ url: 'http://a.test/f', state: 'in-flight', score: 0.5 }));
  });

  it('pops the highest score first, ties in discovery order, each URL once', () => {
    const s = store();
    s.enqueue([entry('http://a.test/1', 0.5), entry('http://a.test/2', 0.8), entry('http://a.test/3', 0.5), entry('http://a.test/4', -1)]);
    const order: string[] = [];
    for (let row = s.claimNext(); row; row = s.claimNext()) order.push(row.url);
    expect(order).toEqual(['http://a.test/2', 'http://a.test/1', 'http://a.test/3', 'http://a.test/4']);
    expect(s.counts()).toMatchObject({ queued: 0, inFlight: 4 });
  });

  it('does not raise or requeue a URL already in flight or done', () => {
    const s = store();
    s.enqueue([entry('http://a.test/1', 0.5)]);
    const claimed = s.claimNext()!;
    s.enqueue([entry('http://a.test/1', 0.99)]);
    expect(s.frontierEntry(claimed.url)).toMatchObject({ state: 'in-flight', score: 0.5 });
    s.recordPage(page(claimed.url));
    s.enqueue([entry('http://a.test/1', 0.99)]);
    expect(s.frontierEntry(claimed.url)).toMatchObject({ state: 'done', score: 0.5 });
    expect(s.claimNext()).toBeUndefined();
  });

  it('claim skips rows the caller skips, drops rows it drops, and walks past one batch', () => {
    const s = store();
    const busy = Array.from({ length: 150 }, (_, i) => entry(`http://busy.test/${i}`, 0.9));
    s.enqueue([...busy, entry('http://capped.test/a', 0.8), entry('http://free.test/a', 0.1)]);
    const row = s.claimNext((r) => (r.host === 'busy.test' ? 'skip' : r.host === 'capped.test' ? { drop: 'host-cap' } : 'take'));
    expect(row?.url).toBe('http://free.test/a');
    expect(s.frontierEntry('http://capped.test/a')).toMatchObject({ state: 'dropped', reason: 'host-cap' });
    expect(s.counts()).toMatchObject({ queued: 150, inFlight: 1, dropped: 1 });
    // A scan limit bounds the walk: the free URL lies beyond it.
    s.enqueue([entry('http://free.test/b', 0.05)]);
    expect(s.claimNext((r) => (r.host === 'busy.test' ? 'skip' : 'take'), 100)).toBeUndefined();
  });

  it('pops through the (state, score DESC, seq) index, without a sort', () => {
    store().close();
    const db = new Database(join(stores.dir, STORE_FILE), { readonly: true });
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT * FROM frontier WHERE state = 'queued' ORDER BY score DESC, seq LIMIT 64`)
      .all() as { detail: string }[];
    db.close();
    const details = plan.map((p) => p.detail).join(' | ');
    expect(details).toContain('frontier_next');
    expect(details).not.toContain('TEMP B-TREE');
  });
});

describe('CrawlStore re-scoring reads', () => {
  it('queuedHeads are bestQueued\'s rows without their texts, in the same order; queuedTexts reads the texts asked for', () => {
    const s = store();
    const withText = (url: string, score: number, anchor: string, via?: boolean): FrontierEntry => ({
      ...entry(url, score, 2, 'http://a.test/'), context: { anchor, before: `前 ${anchor}`, after: '' }, ...(via === undefined ? {} : { viaOnTopic: via }),
    });
    s.enqueue([entry('http://a.test/', 1), withText('http://a.test/x', 0.5, '股票', true), withText('http://b.test/y', 0.5, '行情', false), withText('http://a.test/z', 0.9, '财经')]);
    s.claimNext();
    const best = s.bestQueued(10);
    expect(best.map((row) => row.url)).toEqual(['http://a.test/z', 'http://a.test/x', 'http://b.test/y']);
    expect(s.queuedHeads(10)).toEqual(best.map(({ context, ...row }) => ({ ...row, hasText: context !== undefined })));
    expect(s.queuedHeads(2)).toHaveLength(2);
    expect(s.queuedTexts(['http://b.test/y', 'http://a.test/x', 'http://a.test/', 'http://none.test/'])).toEqual(
      new Map([['http://a.test/x', best[1]!.context], ['http://b.test/y', best[2]!.context]]),
    );
    expect(s.queuedTexts([])).toEqual(new Map());
  });

  it('tells a listener of every row an upsert changes, not of those it inserts: the only writes of a queued row\'s text', () => {
    const s = store();
    const told: string[] = [];
    s.onFrontierRowChanged((url) => told.push(url));
    const linked = (url: string, score: number, anchor: string, parent: string): FrontierEntry => ({ ...entry(url, score, 1, parent), context: { anchor, before: '', after: '' } });
    s.enqueue([linked('http://a.test/x', 0.5, '股票', 'http://a.test/'), linked('http://a.test/y', 0.5, '基金', 'http://a.test/')]);
    expect(told).toEqual([]); // new rows: nothing kept of them to forget
    s.enqueue([linked('http://a.test/x', 0.4, '行情', 'http://a.test/p')]); // lower: the row keeps its text
    expect(told).toEqual([]);
    s.recordPage(page('http://a.test/p'), [linked('http://a.test/x', 0.8, '财经', 'http://a.test/p'), linked('http://a.test/z', 0.1, '新', 'http://a.test/p')]); // higher, from a page
    expect(told).toEqual(['http://a.test/x']);
    expect(s.bestQueued(1)[0]!.context?.anchor).toBe('财经');
    // A URL new to the list and met again in it: its row did not exist before the upsert.
    s.enqueue([linked('http://a.test/w', 0.1, '一', 'http://a.test/'), linked('http://a.test/w', 0.3, '二', 'http://a.test/')]);
    expect(told).toEqual(['http://a.test/x', 'http://a.test/w']);
    // Writes that change no row's text are not told: re-scoring, a host's demotion, a claim, a record.
    s.setScores([{ url: 'http://a.test/y', score: 0.9 }]);
    s.lowerHost('a.test', 0.5);
    const claimed = s.claimNext()!;
    s.recordPage(page(claimed.url));
    s.drop(s.claimNext()!.url, 'test');
    expect(told).toEqual(['http://a.test/x', 'http://a.test/w']);
    // A row deleted (a shared frontier's page undone) is told: inserted again later, it is not.
    const undone = s.recordUnconfirmed(page('http://a.test/u'), entry('http://a.test/u', 0.5)).seq!;
    s.unconfirmed.undo(undone);
    expect(told).toEqual(['http://a.test/x', 'http://a.test/w', 'http://a.test/u']);
  });
});

describe('CrawlStore pages', () => {
  it('records a page, marks it done and enqueues its children in one transaction', () => {
    const s = store();
    s.enqueue([entry('http://a.test/', 1, 0)]);
    const claimed = s.claimNext()!;
    const record = s.recordPage(page(claimed.url), [entry('http://a.test/c1', 0.7, 1, claimed.url), entry('http://a.test/c2', 0.2, 1, claimed.url)]);
    expect(record.seq).toBe(1);
    expect(s.frontierEntry(claimed.url)?.state).toBe('done');
    expect(s.counts()).toMatchObject({ queued: 2, done: 1, pages: 1 });
  });

  it('a page recorded twice fails and rolls its children back', () => {
    const s = store();
    s.recordPage(page('http://a.test/'));
    expect(() => s.recordPage(page('http://a.test/'), [entry('http://a.test/child', 0.5)])).toThrow(/UNIQUE/);
    expect(s.frontierEntry('http://a.test/child')).toBeUndefined();
    expect([...s.pages()]).toHaveLength(1);
  });

  it('marks a redirect target done so it is not fetched again under its own name', () => {
    const s = store();
    s.enqueue([entry('http://a.test/old', 0.9), entry('http://a.test/new', 0.5)]);
    s.claimNext();
    s.recordPage(page('http://a.test/old', { finalUrl: 'http://a.test/new' }));
    expect(s.frontierEntry('http://a.test/new')?.state).toBe('done');
    expect(s.claimNext()).toBeUndefined();
  });

  it('keeps pages in fetch order with optional fields only when present', () => {
    const s = store();
    s.recordPage(page('http://a.test/1', { relevance: 0.75, noindex: true }));
    s.recordPage(page('http://b.test/2', { outcome: 'http-error', status: 500, error: 'HTTP 500' }));
    s.recordPage(page('http://b.test/3', { outcome: 'robots-denied', status: 0 }));
    const pages = [...s.pages()];
    expect(pages.map((p) => p.seq)).toEqual([1, 2, 3]);
    expect(pages[0]).toMatchObject({ relevance: 0.75, noindex: true });
    expect(pages[0]).not.toHaveProperty('error');
    expect(pages[1]).toMatchObject({ error: 'HTTP 500' });
    expect(pages[1]).not.toHaveProperty('relevance');
    expect([...s.pageCountsByHost()]).toEqual(expect.arrayContaining([['a.test', 1], ['b.test', 1]]));
    expect(s.pageStats(0.5)).toEqual({ fetched: 2, robotsDenied: 1, errors: 1, judged: 1, relevant: 1 });
  });
});

describe('CrawlStore attempts', () => {
  it('keeps a page\'s attempts when more than one, so a rebuilt pages.jsonl keeps them too', () => {
    const s = store();
    s.recordPage(page('http://a.test/1', { attempts: 3 }));
    s.recordPage(page('http://a.test/2', { attempts: 1 }));
    s.recordPage(page('http://a.test/3'));
    const pages = [...s.pages()];
    expect(pages[0]).toMatchObject({ attempts: 3 });
    expect(pages[1]).not.toHaveProperty('attempts');
    expect(pages[2]).not.toHaveProperty('attempts');
  });

  it('adds the attempts column to a store made before it existed, keeping its pages', () => {
    const old = new Database(join(stores.dir, STORE_FILE));
    old.exec(`CREATE TABLE pages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL UNIQUE, final_url TEXT NOT NULL,
      host TEXT NOT NULL, status INTEGER NOT NULL, depth INTEGER NOT NULL, parent TEXT,
      score REAL NOT NULL, fetched_at TEXT NOT NULL, bytes INTEGER NOT NULL,
      content_type TEXT NOT NULL, outcome TEXT NOT NULL, error TEXT, relevance REAL,
      noindex INTEGER NOT NULL DEFAULT 0)`);
    old.prepare(`INSERT INTO pages (url, final_url, host, status, depth, parent, score, fetched_at, bytes, content_type, outcome)
      VALUES ('http://a.test/old', 'http://a.test/old', 'a.test', 200, 0, NULL, 1, '2024-01-01T00:00:00.000Z', 5, 'text/html', 'ok')`).run();
    old.pragma('user_version = 1');
    old.close();
    const s = store(false);
    s.recordPage(page('http://a.test/new', { attempts: 2 }));
    expect([...s.pages()].map((p) => [p.url, p.attempts])).toEqual([['http://a.test/old', undefined], ['http://a.test/new', 2]]);
  });
});

describe('CrawlStore on disk', () => {
  it('refuses to start a crawl over another, or to resume nothing', () => {
    store().close();
    expect(() => CrawlStore.open(stores.dir, { create: true })).toThrow(/already holds a crawl/);
    expect(() => CrawlStore.open(join(stores.dir, 'empty'), { create: false })).toThrow(/no crawl to resume/);
  });

  it('survives reopening: meta, frontier, pages; in-flight rows go back to the queue', () => {
    const s = store();
    s.setMeta('options', { maxPages: 10, seeds: ['http://a.test/'] });
    s.enqueue([entry('http://a.test/1', 0.5), entry('http://a.test/2', 0.4)]);
    s.claimNext();
    s.recordPage(page('http://a.test/0'));
    s.close();
    const again = store(false);
    expect(again.getMeta('options')).toEqual({ maxPages: 10, seeds: ['http://a.test/'] });
    expect(again.counts()).toMatchObject({ queued: 1, inFlight: 1, pages: 1 });
    expect(again.requeueInFlight()).toBe(1);
    expect(again.claimNext()?.url).toBe('http://a.test/1');
  });

  it('runs in WAL mode with synchronous NORMAL (the WAL is synced by durable()), with SQLite\'s page cache unless told otherwise', () => {
    expect(store().durability()).toEqual({ journalMode: 'wal', synchronous: 1, cacheSize: -DEFAULT_STORE_CACHE_KIB, walAutocheckpoint: WAL_CHECKPOINT_FRAMES });
    const served = stores.store(false, 512);
    expect(served.durability().cacheSize).toBe(-512);
  });

  it('checkpoints its WAL once it holds WAL_CHECKPOINT_FRAMES frames, not SQLite\'s 1,000, and writes it again from the start after: the WAL stays bounded', () => {
    const s = store();
    const wal = `${s.path}-wal`;
    const value = 'x'.repeat(64 * 1024); // a commit of ~17 frames: the meta row's overflow pages, written anew each time
    s.setMeta('filler', value);
    const header = Buffer.alloc(32);
    const fd = openSync(wal, 'r');
    readSync(fd, header, 0, 32, 0);
    closeSync(fd);
    const frameSize = header.readUInt32BE(8) + 24; // the WAL header's page size, and a frame's own header
    /** Frames the WAL file has room for: its largest extent so far, since SQLite writes it again from the start rather than truncate it. */
    const frames = () => Math.floor((statSync(wal).size - 32) / frameSize);
    let written = frames();
    let perCommit = 0;
    for (let i = 0; written < 2.5 * WAL_CHECKPOINT_FRAMES; i++) {
      const before = frames();
      s.setMeta('filler', `${i} ${value}`);
      const grown = frames() - before;
      perCommit = Math.max(perCommit, grown);
      written += grown > 0 ? grown : perCommit;
    }
    // Two and a half times the threshold written: the WAL went past 1,000 frames, and was checkpointed
    // and begun again before it held the threshold and one commit.
    expect(frames()).toBeGreaterThan(2000);
    expect(frames()).toBeLessThanOrEqual(WAL_CHECKPOINT_FRAMES + perCommit);
    expect(s.getMeta('filler')).toMatch(/^\d+ x+$/);
  });

  it('stores labeled links once per (url, page, topic)', () => {
    const s = store();
    const link = { url: 'http://a.test/x', pageUrl: 'http://a.test/', anchor: '股票', before: '', after: '', label: 1 as const, source: 'crawl' as const, topic: 't' };
    expect(s.addLabeledLinks([link, link, { ...link, topic: 'u' }])).toBe(2);
    expect(s.labeledLinks()).toHaveLength(2);
  });
});
