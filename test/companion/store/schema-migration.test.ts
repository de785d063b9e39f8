/**
 * A crawl directory written before claim ranks, page texts and WARC records existed resumes:
 * opening its store adds the columns and tables (schema.ts), its pages keep their lines, and the
 * resumed run records ranks, texts and WARC locations for the pages it fetches.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { CrawlStore, STORE_FILE } from '../../../companion/store/crawl-store.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';

/** The schema of the build before (main at d90a595), as its stores hold it after their own migrations. */
const OLD_DDL = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS frontier (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  url           TEXT    NOT NULL UNIQUE,
  score         REAL    NOT NULL,
  depth         INTEGER NOT NULL,
  parent        TEXT,
  host          TEXT    NOT NULL,
  discovered_at INTEGER NOT NULL,
  state         TEXT    NOT NULL DEFAULT 'queued'
                CHECK (state IN ('queued', 'in-flight', 'done', 'dropped')),
  reason        TEXT,
  anchor        TEXT,
  before_text   TEXT,
  after_text    TEXT,
  via_on_topic  INTEGER
);
CREATE INDEX IF NOT EXISTS frontier_next ON frontier (state, score DESC, seq);
CREATE INDEX IF NOT EXISTS frontier_host ON frontier (host, state);

CREATE TABLE IF NOT EXISTS pages (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  url          TEXT    NOT NULL UNIQUE,
  final_url    TEXT    NOT NULL,
  host         TEXT    NOT NULL,
  status       INTEGER NOT NULL,
  depth        INTEGER NOT NULL,
  parent       TEXT,
  score        REAL    NOT NULL,
  fetched_at   TEXT    NOT NULL,
  bytes        INTEGER NOT NULL,
  content_type TEXT    NOT NULL,
  outcome      TEXT    NOT NULL,
  error        TEXT,
  relevance    REAL,
  noindex      INTEGER NOT NULL DEFAULT 0,
  attempts     INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS pages_host ON pages (host);

CREATE TABLE IF NOT EXISTS labeled_links (
  id       INTEGER PRIMARY KEY AUTOINCREMENT,
  url      TEXT    NOT NULL,
  page_url TEXT    NOT NULL,
  anchor   TEXT    NOT NULL,
  before   TEXT    NOT NULL,
  after    TEXT    NOT NULL,
  label    INTEGER NOT NULL CHECK (label IN (0, 1)),
  source   TEXT    NOT NULL,
  topic    TEXT    NOT NULL,
  UNIQUE (url, page_url, topic)
);

CREATE TABLE IF NOT EXISTS learned_links (
  id       INTEGER PRIMARY KEY AUTOINCREMENT,
  url      TEXT    NOT NULL,
  page_url TEXT    NOT NULL,
  anchor   TEXT    NOT NULL,
  before   TEXT    NOT NULL,
  after    TEXT    NOT NULL,
  label    INTEGER NOT NULL CHECK (label IN (0, 1)),
  level    INTEGER,
  topic    TEXT    NOT NULL,
  UNIQUE (url, page_url, topic)
);
`;

let site: ScriptedSite;
let dir: string;

beforeAll(async () => {
  site = await startScriptedSite({
    page: (path) => (path === '/' || /^\/p\d$/.test(path) ? `<html><head><title>Title ${path}</title></head><body><p>Body of ${path}.</p><a href="/p${(Number(path.slice(2)) || 0) + 1}">next</a></body></html>` : undefined),
  });
  dir = mkdtempSync(join(tmpdir(), 'linkscent-old-store-'));
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A crawl directory as the old build left it: the seed fetched, its child queued. */
function writeOldCrawl(out: string): void {
  mkdirSync(out, { recursive: true });
  const db = new Database(join(out, STORE_FILE));
  db.exec(OLD_DDL);
  const now = Date.now();
  const meta = { strategy: 'bfs', fingerprint: null, seeds: [`${site.origin}/`], startedAt: new Date(now).toISOString(), options: { maxPages: 1, maxDepth: 10, window: 80, maxPagesPerHost: null, userAgent: 'LinkScent/0.1' } };
  db.prepare(`INSERT INTO meta (key, value) VALUES ('crawl', ?)`).run(JSON.stringify(meta));
  const host = new URL(site.origin).host;
  db.prepare(`INSERT INTO frontier (url, score, depth, parent, host, discovered_at, state) VALUES (?, 0, 0, NULL, ?, ?, 'done')`).run(`${site.origin}/`, host, now);
  db.prepare(`INSERT INTO frontier (url, score, depth, parent, host, discovered_at, state, anchor, before_text, after_text) VALUES (?, -1, 1, ?, ?, ?, 'queued', 'next', '', '')`).run(`${site.origin}/p1`, `${site.origin}/`, host, now);
  db.prepare(`INSERT INTO pages (url, final_url, host, status, depth, parent, score, fetched_at, bytes, content_type, outcome) VALUES (?, ?, ?, 200, 0, NULL, 0, ?, 100, 'text/html', 'ok')`).run(`${site.origin}/`, `${site.origin}/`, host, new Date(now).toISOString());
  db.pragma('user_version = 1');
  db.close();
}

describe('a crawl store of the previous schema', () => {
  it('resumes with --store-text and --warc: old pages kept as they were, new ones ranked, with text and WARC records', async () => {
    const out = join(dir, 'old');
    writeOldCrawl(out);
    const summary = await runCrawl({ seeds: [], outDir: out, maxPages: 3, resume: true, strategy: createStrategy('bfs'), concurrency: 1, delayMs: 0, storeText: true, warc: { maxFileBytes: 1_000_000 }, log: () => {} });
    expect(summary.fetched).toBe(3);
    const lines = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.url)).toEqual([`${site.origin}/`, `${site.origin}/p1`, `${site.origin}/p2`]);
    expect(lines[0]).not.toHaveProperty('rank');
    expect(lines[1]).toMatchObject({ rank: 1 });
    const store = CrawlStore.open(out, { create: false });
    try {
      expect(store.extras.text(`${site.origin}/`)).toBeUndefined();
      expect(store.extras.text(`${site.origin}/p1`)).toEqual({ title: 'Title /p1', text: 'Body of /p1.', truncated: false });
      expect([...store.extras.warcExtents().keys()]).toHaveLength(1);
      expect(store.frontierEntry(`${site.origin}/p2`)).toMatchObject({ state: 'done', claimRank: 1 });
    } finally {
      store.close();
    }
  });
});
