/**
 * The crawl store's SQLite schema: one file per crawl, `DIR/crawl.sqlite`.
 *
 * Durability. The file runs in WAL mode with `synchronous = NORMAL`: a committed transaction
 * survives `kill -9` (its frames are in the OS cache) and the file is always consistent. A page
 * is reported (pages.jsonl, progress, hooks) only after its transaction committed and then the
 * WAL was fsync'd (`CrawlStore.durable`, `wal-sync.ts`), so a page reported as fetched survives
 * a power cut too, as with `FULL`. The difference is where the fsync runs: `FULL` ran one inside
 * every `COMMIT`, on the event loop (better-sqlite3 is synchronous), for each page and for each
 * claim; `durable()` runs one on the thread pool for all the pages committed meanwhile. What is
 * never reported (a claim's in-flight mark, a re-scoring) may be lost to a power cut, and a
 * resume redoes it: in-flight rows go back to the queue anyway.
 *
 * Frontier states: `queued` → `in-flight` (claimed by a worker) → `done` (its page is in
 * `pages`) or `dropped` (never fetched: per-host cap reached, a hook skipped it; `reason` says
 * why). A crawl killed mid-fetch leaves `in-flight` rows; resuming puts them back to `queued`,
 * since their pages were never recorded.
 */
import type Database from 'better-sqlite3';

/**
 * Bumped when a table changes shape; a store of another version is refused, not migrated. An
 * added column with a default, or an added table, is not a change of shape in this sense: older
 * builds name their columns and never see it, and `applySchema` adds it to a store made before
 * it existed (`pages.attempts`, `page_texts`, …), so an old crawl directory resumes.
 */
export const SCHEMA_VERSION = 1;

export const FRONTIER_STATES = ['queued', 'in-flight', 'done', 'dropped'] as const;
export type FrontierState = (typeof FRONTIER_STATES)[number];

const DDL = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL            -- JSON
);

-- The frontier is also the seen set: every URL ever discovered has exactly one row, so dedupe
-- is bounded by disk, not RAM. seq = discovery order (ties between equal scores go first-found).
CREATE TABLE IF NOT EXISTS frontier (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  url           TEXT    NOT NULL UNIQUE,
  score         REAL    NOT NULL,   -- priority: higher is crawled sooner
  depth         INTEGER NOT NULL,
  parent        TEXT,
  host          TEXT    NOT NULL,
  discovered_at INTEGER NOT NULL,   -- ms since epoch
  state         TEXT    NOT NULL DEFAULT 'queued'
                CHECK (state IN ('queued', 'in-flight', 'done', 'dropped')),
  reason        TEXT                -- why a row was dropped
);
-- Popping the best queued URL walks this index from its start: O(log n), no sort, no memory.
CREATE INDEX IF NOT EXISTS frontier_next ON frontier (state, score DESC, seq);
-- A host's queued URLs, for the host budget's demotions (crawl/host-budget.ts).
CREATE INDEX IF NOT EXISTS frontier_host ON frontier (host, state);

-- The frontier's rows per state, kept by triggers: the progress line reads them every second,
-- and counting a million-row frontier took 66 ms each time (bench/frontier-bench.ts), O(n).
-- One row per state, filled when the table is made (applySchema), so the triggers only update.
CREATE TABLE IF NOT EXISTS frontier_counts (
  state TEXT PRIMARY KEY,
  n     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS frontier_counts_insert AFTER INSERT ON frontier BEGIN
  UPDATE frontier_counts SET n = n + 1 WHERE state = NEW.state;
END;
CREATE TRIGGER IF NOT EXISTS frontier_counts_update AFTER UPDATE OF state ON frontier WHEN OLD.state <> NEW.state BEGIN
  UPDATE frontier_counts SET n = n - 1 WHERE state = OLD.state;
  UPDATE frontier_counts SET n = n + 1 WHERE state = NEW.state;
END;
CREATE TRIGGER IF NOT EXISTS frontier_counts_delete AFTER DELETE ON frontier BEGIN
  UPDATE frontier_counts SET n = n - 1 WHERE state = OLD.state;
END;

-- One row per URL taken off the frontier and settled; seq = fetch order. url is UNIQUE so a
-- page recorded twice fails loudly instead of silently duplicating a line of pages.jsonl.
CREATE TABLE IF NOT EXISTS pages (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  url          TEXT    NOT NULL UNIQUE,
  final_url    TEXT    NOT NULL,
  host         TEXT    NOT NULL,
  status       INTEGER NOT NULL,
  depth        INTEGER NOT NULL,
  parent       TEXT,
  score        REAL    NOT NULL,
  fetched_at   TEXT    NOT NULL,    -- ISO 8601
  bytes        INTEGER NOT NULL,
  content_type TEXT    NOT NULL,
  outcome      TEXT    NOT NULL,
  error        TEXT,
  relevance    REAL,
  noindex      INTEGER NOT NULL DEFAULT 0,
  attempts     INTEGER NOT NULL DEFAULT 1   -- fetch attempts (transient failures retried)
);
CREATE INDEX IF NOT EXISTS pages_host ON pages (host);

-- Labeled links learned during a crawl (collect, online retraining): seed 000's unit.
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

-- A page's extracted text (crawl --store-text): title and main text, cut at the caps of
-- crawl/page-text-record.ts. Keyed by the page's fetch-order seq; a table of its own so the pages
-- table, read whole for pages.jsonl, stays small.
CREATE TABLE IF NOT EXISTS page_texts (
  seq       INTEGER PRIMARY KEY,     -- pages.seq
  title     TEXT    NOT NULL,
  text      TEXT    NOT NULL,
  truncated INTEGER NOT NULL DEFAULT 0
);

-- Where a page's WARC records lie (crawl --warc): file name under DIR/warc/, the byte range of
-- its records (gzip members), and the response record's id. Written in the page's transaction,
-- after the bytes were synced: the WARC files are trimmed to what this table holds on resume.
CREATE TABLE IF NOT EXISTS warc_records (
  seq         INTEGER PRIMARY KEY,   -- pages.seq
  file        TEXT    NOT NULL,
  offset      INTEGER NOT NULL,
  length      INTEGER NOT NULL,
  response_id TEXT
);
CREATE INDEX IF NOT EXISTS warc_records_file ON warc_records (file);

-- Pages this worker recorded for a shared frontier (frontier/redis/) whose commit in Redis has
-- not answered yet: written with the page, in its transaction, before Redis is asked, and deleted
-- once it answers (the page kept, or undone when Redis refused it). A worker killed in between
-- leaves them here; its --resume asks Redis which ones it counted (shared-recorder.ts).
CREATE TABLE IF NOT EXISTS unconfirmed_pages (
  seq INTEGER PRIMARY KEY           -- pages.seq
);

-- Links the crawl's online learning added to its models (crawl/online-learning.ts): the link
-- that led to each judged page, labelled by that judgement, with its distance level to the
-- topic once one is known. Replayed into the models on resume, so a resumed crawl's models are
-- the ones it had; "Pull labels" hands them to the extension with the labeled links above.
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

/** Applies the pragmas and creates the tables (idempotent). Throws on a foreign schema version. */
export function applySchema(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version !== 0 && version !== SCHEMA_VERSION) {
    throw new Error(
      `crawl store schema version ${version} is not supported (this build reads version ${SCHEMA_VERSION})`,
    );
  }
  db.transaction(() => {
    db.exec(DDL);
    addMissingColumns(db);
    fillFrontierCounts(db);
  })();
  // Set only when it is not yet: setting it is a write, and a store opened to be read (`linkscent
  // why`, the service's dashboard) must not wait for the write lock a running crawl holds.
  if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

/**
 * The per-state counts of a store that has none yet (new, or made before they were kept): one
 * count of the frontier, in the transaction that made the triggers, so none can drift.
 */
function fillFrontierCounts(db: Database.Database): void {
  const rows = (db.prepare(`SELECT count(*) AS n FROM frontier_counts`).get() as { n: number }).n;
  if (rows === FRONTIER_STATES.length) return;
  const insert = db.prepare(`INSERT OR REPLACE INTO frontier_counts (state, n) VALUES (?, (SELECT count(*) FROM frontier WHERE state = ?))`);
  for (const state of FRONTIER_STATES) insert.run(state, state);
}

/** Columns added to a table after version 1 was released, each with a default (see SCHEMA_VERSION). */
const ADDED_COLUMNS: readonly { table: string; column: string; definition: string }[] = [
  { table: 'pages', column: 'attempts', definition: 'INTEGER NOT NULL DEFAULT 1' },
  // The link context that gave a queued URL its score, and whether the page it was found on was
  // judged on topic: what a focused strategy needs to score the URL again after its model learned
  // (crawl/online-learning.ts), and the example a fetched page's inbound link becomes.
  { table: 'frontier', column: 'anchor', definition: 'TEXT' },
  { table: 'frontier', column: 'before_text', definition: 'TEXT' },
  { table: 'frontier', column: 'after_text', definition: 'TEXT' },
  { table: 'frontier', column: 'via_on_topic', definition: 'INTEGER' },
  // The URL's place in the frontier's order when a worker claimed it (1 = the best queued URL),
  // on the frontier row from the claim and on the page's row once recorded (`linkscent why`).
  { table: 'frontier', column: 'claim_rank', definition: 'INTEGER' },
  { table: 'pages', column: 'claim_rank', definition: 'INTEGER' },
  // The model's log-odds for the link that led to the page, when claimed (nb): the dashboard's
  // readable figure where every kept link's value is 1 (links the topic's patterns match).
  { table: 'pages', column: 'log_odds', definition: 'REAL' },
];

function addMissingColumns(db: Database.Database): void {
  for (const { table, column, definition } of ADDED_COLUMNS) {
    const columns = db.pragma(`table_info(${table})`) as { name: string }[];
    if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  }
}
