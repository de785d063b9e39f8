/**
 * What a crawl keeps of its pages besides their rows, each when asked: the extracted text
 * (`crawl --store-text`, table `page_texts`) and where the page's WARC records lie (`crawl
 * --warc`, table `warc_records`). Both are keyed by the page's fetch-order seq and written in the
 * page's own transaction (`CrawlStore.recordPage`); this module holds their SQL.
 */
import type Database from 'better-sqlite3';
import { toPageRecord, type RawPageRow } from './page-rows.ts';
import type { PageExtras, PageRecord, StoredText, WarcLocation } from './records.ts';

/** A fetched page with the text the crawl kept of it. */
export interface PageWithText {
  record: PageRecord;
  text: StoredText;
  /** Where its WARC records lie, when the crawl wrote them. */
  warc?: WarcLocation;
}

type TextRow = RawPageRow & { t_title: string; t_text: string; t_truncated: number; w_file: string | null; w_offset: number | null; w_length: number | null; w_response_id: string | null };

function warcLocation(file: string, offset: number, length: number, responseId: string | null): WarcLocation {
  return responseId === null ? { file, offset, length } : { file, offset, length, responseId };
}

export class PageExtrasQueries {
  readonly #insertText: Database.Statement;
  readonly #insertWarc: Database.Statement;
  readonly #anyText: Database.Statement;
  readonly #text: Database.Statement;
  readonly #texts: Database.Statement;
  readonly #extents: Database.Statement;
  readonly #warc: Database.Statement;

  constructor(
    db: Database.Database,
    /** The seq of the page recorded for a URL (requested or final). */
    private readonly seqOf: (url: string) => number | undefined,
  ) {
    this.#insertText = db.prepare(`INSERT INTO page_texts (seq, title, text, truncated) VALUES (?, ?, ?, ?)`);
    this.#insertWarc = db.prepare(`INSERT INTO warc_records (seq, file, offset, length, response_id) VALUES (?, ?, ?, ?, ?)`);
    this.#anyText = db.prepare(`SELECT 1 FROM page_texts LIMIT 1`);
    this.#text = db.prepare(`SELECT title, text, truncated FROM page_texts WHERE seq = ?`);
    this.#texts = db.prepare(
      `SELECT p.*, t.title AS t_title, t.text AS t_text, t.truncated AS t_truncated,
              w.file AS w_file, w.offset AS w_offset, w.length AS w_length, w.response_id AS w_response_id
         FROM pages p JOIN page_texts t ON t.seq = p.seq LEFT JOIN warc_records w ON w.seq = p.seq
        ORDER BY p.seq`,
    );
    this.#extents = db.prepare(`SELECT file, max(offset + length) AS end FROM warc_records GROUP BY file`);
    this.#warc = db.prepare(`SELECT file, offset, length, response_id FROM warc_records WHERE seq = ?`);
  }

  /** Writes a page's extras; called inside its transaction. */
  insert(seq: number, extras: PageExtras): void {
    if (extras.text) this.#insertText.run(seq, extras.text.title, extras.text.text, extras.text.truncated ? 1 : 0);
    if (extras.warc) this.#insertWarc.run(seq, extras.warc.file, extras.warc.offset, extras.warc.length, extras.warc.responseId ?? null);
  }

  /** Whether any page's text was kept. */
  hasTexts(): boolean {
    return this.#anyText.get() !== undefined;
  }

  /** The text kept of the page recorded for `url`, if any. */
  text(url: string): StoredText | undefined {
    const seq = this.seqOf(url);
    const row = seq === undefined ? undefined : (this.#text.get(seq) as { title: string; text: string; truncated: number } | undefined);
    return row && { title: row.title, text: row.text, truncated: row.truncated === 1 };
  }

  /** Every page whose text was kept, in fetch order, streamed from disk. */
  *texts(): IterableIterator<PageWithText> {
    for (const raw of this.#texts.iterate() as IterableIterator<TextRow>) {
      const item: PageWithText = { record: toPageRecord(raw), text: { title: raw.t_title, text: raw.t_text, truncated: raw.t_truncated === 1 } };
      if (raw.w_file !== null) item.warc = warcLocation(raw.w_file, raw.w_offset!, raw.w_length!, raw.w_response_id);
      yield item;
    }
  }

  /** Per WARC file, the end of the last page's records held here (what a resume trims to). */
  warcExtents(): Map<string, number> {
    const rows = this.#extents.all() as { file: string; end: number }[];
    return new Map(rows.map(({ file, end }) => [file, end]));
  }

  /** Where the WARC records of the page recorded for `url` lie, when written. */
  warcOf(url: string): WarcLocation | undefined {
    const seq = this.seqOf(url);
    const row = seq === undefined ? undefined : (this.#warc.get(seq) as { file: string; offset: number; length: number; response_id: string | null } | undefined);
    return row && warcLocation(row.file, row.offset, row.length, row.response_id);
  }
}
