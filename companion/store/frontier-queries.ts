/**
 * The frontier's SQL, prepared once per store.
 *
 * "A link met again keeps its highest score" (Han et al. 2010 §3.1) is one UPSERT: a new URL is
 * inserted; a known URL still queued takes the new score, depth and parent only when the score
 * is higher. Rows already in flight, done or dropped are left alone, so a URL is never fetched
 * twice however often it is met.
 *
 * A page's links are upserted several rows to a statement (`upsert`, `UPSERT_ROWS`). One row a
 * statement cost ~12 µs a new link on the frontier bench's store (notes/h51), a third of it in
 * SQLite's statement journal: the counts' trigger makes every upsert a statement that writes two
 * tables, so SQLite copied each page the statement touched (the table's, three indexes', the
 * counts') into a journal, for one row. A statement of 64 rows copies each page once for all of
 * them, and crosses from JavaScript into SQLite once.
 *
 * Who hears of a changed row (`onRowChanged`): a temporary trigger on this connection calls back
 * into JavaScript for each row an upsert's DO UPDATE changes, and for no new row. It was `RETURNING
 * url`, which SQLite fills into a table of its own before the first row comes back, and which made
 * a JavaScript string of every new link's URL, for a listener (online learning's `forgetKept`) that
 * has nothing to forget of a URL the frontier did not hold: ~0.8 of ~8 µs a new link on the
 * frontier bench's store (notes/h54).
 */
import type Database from 'better-sqlite3';
import type { FrontierEntry, FrontierRow, LinkText, QueuedHead } from './records.ts';

/**
 * Rows read per step while looking for a claimable URL (keyset pagination over the index): a
 * few first, since the best row is usually taken; more per step once rows are being skipped.
 */
const FIRST_BATCH = 4;
const CLAIM_BATCH = 64;

/**
 * The claim's queries, exported so a bench can ask SQLite for their plans (bench/frontier-bench.ts):
 * whether a claim walks the `frontier_next` index or scans.
 */
export const CLAIM_SQL = {
  // @excluded: a JSON list of hosts set aside for now, whose rows neither are claimed nor use
  // up the walk's limit (a set-aside host's URLs leading the frontier must not stall it).
  first: `
      SELECT * FROM frontier WHERE state = 'queued'
        AND host NOT IN (SELECT value FROM json_each(@excluded))
      ORDER BY score DESC, seq LIMIT ${FIRST_BATCH}`,
  after: `
      SELECT * FROM frontier WHERE state = 'queued'
        AND (score < @score OR (score = @score AND seq > @seq))
        AND host NOT IN (SELECT value FROM json_each(@excluded))
      ORDER BY score DESC, seq LIMIT ${CLAIM_BATCH}`,
  // The same walk when no host is set aside, as most claims are: json_each's empty table still
  // made the first query a quarter to a half slower (17 µs against 23–31 µs on a crawl's store).
  firstOpen: `
      SELECT * FROM frontier WHERE state = 'queued'
      ORDER BY score DESC, seq LIMIT ${FIRST_BATCH}`,
  afterOpen: `
      SELECT * FROM frontier WHERE state = 'queued'
        AND (score < @score OR (score = @score AND seq > @seq))
      ORDER BY score DESC, seq LIMIT ${CLAIM_BATCH}`,
  // Queued rows of set-aside hosts ranked above a claimed row: the walk never saw them, but
  // they are ahead of it in the frontier's order. SQLite walks frontier_next over the rows ranked
  // above the claimed one (bench/frontier-bench.ts prints the plan): few, while claims take from
  // the frontier's head.
  excludedAhead: `
      SELECT count(*) AS n FROM frontier
       WHERE host IN (SELECT value FROM json_each(@excluded)) AND state = 'queued'
         AND (score > @score OR (score = @score AND seq < @seq))`,
} as const;

/** What the caller decides for a candidate: fetch it now, leave it queued, or drop it. */
export type ClaimDecision = 'take' | 'skip' | { drop: string };

interface RawFrontierRow {
  seq: number;
  url: string;
  score: number;
  depth: number;
  parent: string | null;
  host: string;
  discovered_at: number;
  state: FrontierRow['state'];
  reason: string | null;
  anchor: string | null;
  before_text: string | null;
  after_text: string | null;
  via_on_topic: number | null;
  claim_rank: number | null;
}

function toRow(raw: RawFrontierRow): FrontierRow {
  const row: FrontierRow = {
    seq: raw.seq,
    url: raw.url,
    score: raw.score,
    depth: raw.depth,
    parent: raw.parent,
    host: raw.host,
    discoveredAt: raw.discovered_at,
    state: raw.state,
    reason: raw.reason,
  };
  if (raw.anchor !== null) row.context = { anchor: raw.anchor, before: raw.before_text ?? '', after: raw.after_text ?? '' };
  if (raw.via_on_topic !== null) row.viaOnTopic = raw.via_on_topic === 1;
  if (raw.claim_rank !== null && raw.claim_rank !== undefined) row.claimRank = raw.claim_rank;
  return row;
}

/**
 * An entry's parameters for the upserts, in their `?` order: url, score, depth, parent, host,
 * now, anchor, before, after, via. Positional, not named: better-sqlite3 reads named parameters
 * off an object one property at a time, which made each upsert a quarter slower (measured:
 * 4.4–5.3 µs against 3.5–3.9 µs for a new URL), and a crawl upserts every link it follows.
 * Written into `params` from `at`, so a statement of many rows binds one array.
 */
function putEntryParams(params: unknown[], at: number, entry: FrontierEntry, now: number): void {
  const { context } = entry;
  params[at] = entry.url;
  params[at + 1] = entry.score;
  params[at + 2] = entry.depth;
  params[at + 3] = entry.parent;
  params[at + 4] = entry.host;
  params[at + 5] = now;
  params[at + 6] = context?.anchor ?? null;
  params[at + 7] = context?.before ?? null;
  params[at + 8] = context?.after ?? null;
  params[at + 9] = entry.viaOnTopic === undefined ? null : entry.viaOnTopic ? 1 : 0;
}

function entryParams(entry: FrontierEntry, now: number): unknown[] {
  const params = new Array<unknown>(ENTRY_PARAMS);
  putEntryParams(params, 0, entry, now);
  return params;
}

/** Parameters an entry binds (`putEntryParams`). */
const ENTRY_PARAMS = 10;

/**
 * Rows one upsert statement takes at most. A longer list goes in statements of 64, then of the
 * powers of two below it for the rest, so no more than seven statements are ever prepared. 64 and
 * 256 were level on the frontier bench's store (7.2 and 6.5 µs a new link against 12 for one row,
 * 8.5 for 16); 64 keeps a statement's journal and its bound array small.
 */
const UPSERT_ROWS = 64;

/**
 * The upsert of `rows` rows, in their order. Each row behaves as its own one-row upsert in
 * that order: a URL twice in the list is inserted, then met again; a row met again takes an
 * AUTOINCREMENT number it does not use, as a one-row upsert does; the counts' trigger, and the
 * changed rows' (`ROW_CHANGED_TRIGGER`), run per row.
 */
function upsertSql(rows: number): string {
  const values = Array.from({ length: rows }, () => `(?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`).join(',\n             ');
  return `
      INSERT INTO frontier (url, score, depth, parent, host, discovered_at, state, anchor, before_text, after_text, via_on_topic)
      VALUES ${values}
      ON CONFLICT (url) DO UPDATE
        SET score = excluded.score, depth = excluded.depth, parent = excluded.parent,
            anchor = excluded.anchor, before_text = excluded.before_text, after_text = excluded.after_text,
            via_on_topic = excluded.via_on_topic
        WHERE frontier.state = 'queued' AND excluded.score > frontier.score`;
}

/** The JavaScript function `ROW_CHANGED_TRIGGER` calls, registered on the store's connection. */
const ROW_CHANGED_FUNCTION = 'linkscent_frontier_row_changed';

/**
 * Call `ROW_CHANGED_FUNCTION` with the URL of each row an upsert's DO UPDATE changes (only that
 * statement sets a row's anchor: a re-scoring or a host's demotion sets its score, a claim or a
 * record its state), and of each row deleted (a shared frontier's page undone,
 * `unconfirmed-pages.ts`), so a URL the frontier does not hold has nothing kept by a listener and
 * its insert need not be told. TEMP: they live on this connection only, not in the file, so no
 * other connection or build ever meets them, and the schema is unchanged.
 */
const ROW_CHANGED_TRIGGERS = `
  CREATE TEMP TRIGGER IF NOT EXISTS frontier_row_changed AFTER UPDATE OF anchor ON main.frontier
  BEGIN SELECT ${ROW_CHANGED_FUNCTION}(NEW.url); END;
  CREATE TEMP TRIGGER IF NOT EXISTS frontier_row_deleted AFTER DELETE ON main.frontier
  BEGIN SELECT ${ROW_CHANGED_FUNCTION}(OLD.url); END;`;

export class FrontierQueries {
  readonly #db: Database.Database;
  /** The upsert statements by their number of rows (`UPSERT_ROWS`), prepared when first needed. */
  readonly #upserts = new Map<number, Database.Statement>();
  readonly #settled: Database.Statement;
  readonly #markDoneUpsert: Database.Statement;
  readonly #first: Database.Statement;
  readonly #after: Database.Statement;
  readonly #firstOpen: Database.Statement;
  readonly #afterOpen: Database.Statement;
  readonly #setState: Database.Statement;
  readonly #get: Database.Statement;
  readonly #requeueInFlight: Database.Statement;
  readonly #markRecordedDone: Database.Statement;
  readonly #counts: Database.Statement;
  readonly #best: Database.Statement;
  readonly #bestHeads: Database.Statement;
  readonly #texts: Database.Statement;
  /** Told the URL of every row an upsert changed (`onRowChanged`). */
  readonly #rowChanged: ((url: string) => void)[] = [];
  readonly #setScore: Database.Statement;
  readonly #lowerHost: Database.Statement;
  readonly #claimed: Database.Statement;
  readonly #excludedAhead: Database.Statement;

  constructor(db: Database.Database) {
    this.#db = db;
    // One statement for a page's links, each a lookup in the url index. The unary + keeps the
    // planner off frontier_next: by state it would walk every done row (9 % of an nb crawl's time).
    this.#settled = db.prepare(`SELECT url FROM frontier WHERE url IN (SELECT value FROM json_each(?)) AND +state IN ('done', 'dropped')`).pluck();
    this.#markDoneUpsert = db.prepare(`
      INSERT INTO frontier (url, score, depth, parent, host, discovered_at, state, anchor, before_text, after_text, via_on_topic)
      VALUES (?, ?, ?, ?, ?, ?, 'done', ?, ?, ?, ?)
      ON CONFLICT (url) DO UPDATE SET state = 'done', reason = NULL`);
    this.#first = db.prepare(CLAIM_SQL.first);
    this.#after = db.prepare(CLAIM_SQL.after);
    this.#firstOpen = db.prepare(CLAIM_SQL.firstOpen);
    this.#afterOpen = db.prepare(CLAIM_SQL.afterOpen);
    this.#setState = db.prepare(`UPDATE frontier SET state = ?, reason = ? WHERE url = ?`);
    this.#get = db.prepare(`SELECT * FROM frontier WHERE url = ?`);
    this.#requeueInFlight = db.prepare(`UPDATE frontier SET state = 'queued' WHERE state = 'in-flight'`);
    this.#markRecordedDone = db.prepare(`
      UPDATE frontier SET state = 'done', reason = NULL
       WHERE state IN ('queued', 'in-flight') AND url IN (SELECT url FROM pages)`);
    this.#counts = db.prepare(`SELECT state, n FROM frontier_counts`);
    this.#best = db.prepare(`SELECT * FROM frontier WHERE state = 'queued' ORDER BY score DESC, seq LIMIT ?`);
    // Arrays, not objects, and no text: the texts made up two thirds of reading a re-scoring's rows.
    this.#bestHeads = db.prepare(`
      SELECT seq, url, score, depth, parent, host, discovered_at, reason, via_on_topic, claim_rank, anchor IS NOT NULL
        FROM frontier WHERE state = 'queued' ORDER BY score DESC, seq LIMIT ?`).raw();
    this.#texts = db.prepare(`SELECT url, anchor, before_text, after_text FROM frontier WHERE url IN (SELECT value FROM json_each(?)) AND anchor IS NOT NULL`).raw();
    this.#setScore = db.prepare(`UPDATE frontier SET score = ? WHERE url = ? AND state = 'queued'`);
    this.#lowerHost = db.prepare(`UPDATE frontier SET score = score - @by WHERE host = @host AND state = 'queued'`);
    // By seq, the row's key, where by url SQLite first walked the url index to find it.
    this.#claimed = db.prepare(`UPDATE frontier SET state = 'in-flight', reason = NULL, claim_rank = ? WHERE seq = ?`);
    this.#excludedAhead = db.prepare(CLAIM_SQL.excludedAhead);
  }

  /**
   * Inserts each new URL of `entries` or raises a queued one's score, in the list's order, as
   * many one-row upserts would (`upsertSql`). Returns how many rows changed. The context and
   * judgement travel with the score: the row keeps the link that scored best.
   */
  upsert(entries: readonly FrontierEntry[], now: number): number {
    let changed = 0;
    for (let start = 0; start < entries.length; ) {
      let rows = UPSERT_ROWS;
      while (rows > entries.length - start) rows >>= 1;
      const params = new Array<unknown>(rows * ENTRY_PARAMS);
      for (let i = 0; i < rows; i++) putEntryParams(params, i * ENTRY_PARAMS, entries[start + i]!, now);
      // Rows inserted or updated, not those the WHERE left alone (nor the triggers' own writes).
      changed += this.#upsertOf(rows).run(params).changes;
      start += rows;
    }
    return changed;
  }

  #upsertOf(rows: number): Database.Statement {
    let statement = this.#upserts.get(rows);
    if (statement === undefined) {
      statement = this.#db.prepare(upsertSql(rows));
      this.#upserts.set(rows, statement);
    }
    return statement;
  }

  /**
   * `listener` is told the URL of every row an upsert changes: the only statement that writes a
   * queued row's link text (its context travels with the better score). What a listener kept of a
   * row it was not told about since still matches the row's text (`queuedHeads`). A row deleted
   * is told too; a row an upsert inserts is not: a listener cannot have kept anything of a URL the
   * frontier did not hold. Told while the statement runs, row by row, from SQLite: a listener must
   * not use the store (the connection is busy), and what it throws fails the statement.
   */
  onRowChanged(listener: (url: string) => void): void {
    if (this.#rowChanged.length === 0) {
      const listeners = this.#rowChanged;
      this.#db.function(ROW_CHANGED_FUNCTION, { varargs: false, deterministic: false }, (url: unknown) => {
        for (const told of listeners) told(url as string);
        return null;
      });
      this.#db.exec(ROW_CHANGED_TRIGGERS);
    }
    this.#rowChanged.push(listener);
  }

  /** Those of `urls` that are done or dropped: rows no upsert changes again. */
  settled(urls: readonly string[]): string[] {
    return this.#settled.all(JSON.stringify(urls)) as string[];
  }

  /** Marks a URL done, inserting it if unknown (a redirect target reached through another URL). */
  markDone(entry: FrontierEntry, now: number): void {
    this.#markDoneUpsert.run(entryParams(entry, now));
  }

  /** The `limit` best queued rows, best first (what a re-scoring looks at). */
  bestQueued(limit: number): FrontierRow[] {
    return (this.#best.all(limit) as RawFrontierRow[]).map(toRow);
  }

  /** `bestQueued` without the rows' texts (`QueuedHead`), in the same order. */
  queuedHeads(limit: number): QueuedHead[] {
    const heads: QueuedHead[] = [];
    type Raw = [number, string, number, number, string | null, string, number, string | null, number | null, number | null, number];
    for (const [seq, url, score, depth, parent, host, discoveredAt, reason, via, claimRank, hasText] of this.#bestHeads.all(limit) as Raw[]) {
      // The fields in `toRow`'s order, so a head is the row `bestQueued` gives but for its context.
      const head: QueuedHead = { seq, url, score, depth, parent, host, discoveredAt, state: 'queued', reason, hasText: hasText === 1 };
      if (via !== null) head.viaOnTopic = via === 1;
      if (claimRank !== null) head.claimRank = claimRank;
      heads.push(head);
    }
    return heads;
  }

  /** The link texts of those of `urls` that hold one, by URL (as `bestQueued` gives them). */
  texts(urls: readonly string[]): Map<string, LinkText> {
    const texts = new Map<string, LinkText>();
    if (urls.length === 0) return texts;
    for (const [url, anchor, before, after] of this.#texts.all(JSON.stringify(urls)) as [string, string, string | null, string | null][]) {
      texts.set(url, { anchor, before: before ?? '', after: after ?? '' });
    }
    return texts;
  }

  /** Sets a queued row's score, up or down (a re-scoring); rows no longer queued are left alone. */
  setScore(url: string, score: number): void {
    this.#setScore.run(score, url);
  }

  /** Lowers every queued row of a host by `by` (the host budget's demotion). Returns how many. */
  lowerHost(host: string, by: number): number {
    return this.#lowerHost.run({ host, by }).changes;
  }

  /**
   * The best queued row that `decide` takes, marked in flight with its rank (`claimRank`: 1 + the
   * queued rows ahead of it, the skipped ones and those of `excludedHosts`). Rows `decide` drops
   * are marked dropped on the way; rows it skips stay queued. Looks at no more than `scanLimit`
   * rows, so a frontier led by thousands of URLs of one busy host costs a bounded walk, then
   * `undefined`. Rows of `excludedHosts` are passed over without being looked at or counted.
   */
  claim(decide: (row: FrontierRow) => ClaimDecision, scanLimit: number, excludedHosts: readonly string[] = []): FrontierRow | undefined {
    const open = excludedHosts.length === 0;
    const excluded = open ? '[]' : JSON.stringify(excludedHosts);
    let batch = ((open ? this.#firstOpen.all() : this.#first.all({ excluded })) as RawFrontierRow[]).map(toRow);
    let scanned = 0;
    let skipped = 0;
    while (batch.length > 0 && scanned < scanLimit) {
      for (const row of batch) {
        scanned++;
        const decision = decide(row);
        if (decision === 'take') {
          const ahead = open ? 0 : (this.#excludedAhead.get({ excluded, score: row.score, seq: row.seq }) as { n: number }).n;
          const claimRank = 1 + skipped + ahead;
          this.#claimed.run(claimRank, row.seq);
          return { ...row, state: 'in-flight', claimRank };
        }
        if (decision === 'skip') skipped++;
        else this.setState(row.url, 'dropped', decision.drop);
        if (scanned >= scanLimit) return undefined;
      }
      const last = batch[batch.length - 1]!;
      const after = { score: last.score, seq: last.seq };
      batch = ((open ? this.#afterOpen.all(after) : this.#after.all({ ...after, excluded })) as RawFrontierRow[]).map(toRow);
    }
    return undefined;
  }

  setState(url: string, state: FrontierRow['state'], reason: string | null): void {
    this.#setState.run(state, reason, url);
  }

  get(url: string): FrontierRow | undefined {
    const raw = this.#get.get(url) as RawFrontierRow | undefined;
    return raw && toRow(raw);
  }

  /** Resume: rows claimed by a crawl that died were never recorded; queue them again. */
  requeueInFlight(): number {
    return this.#requeueInFlight.run().changes;
  }

  /** Rows queued or in flight whose page is recorded: marked done. Returns how many. */
  markRecordedDone(): number {
    return this.#markRecordedDone.run().changes;
  }

  countsByState(): Record<FrontierRow['state'], number> {
    const counts = { queued: 0, 'in-flight': 0, done: 0, dropped: 0 };
    for (const { state, n } of this.#counts.all() as { state: FrontierRow['state']; n: number }[]) counts[state] = n;
    return counts;
  }
}
