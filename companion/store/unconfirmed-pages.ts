/**
 * Pages a worker recorded for a shared frontier before Redis answered (`unconfirmed_pages`,
 * schema.ts). The worker writes the page first, marked here, then commits it in Redis
 * (`frontier/redis/redis-frontier.ts`, `record`): Redis's answer either confirms the page (the
 * mark goes) or refuses it (another worker recorded the URL first, the crawl's budget was
 * spent), and then the page is undone, as if it had never been written. A page is thus never
 * counted by the crawl without being in some worker's store; a worker killed before the answer
 * leaves its mark, which its `--resume` settles (`frontier/redis/shared-recorder.ts`).
 *
 * An unconfirmed page is not yet one of the store's pages for what reads them as a record
 * (`CrawlStore.pages`, pages.jsonl, and online learning, which stops before the first one).
 */
import type Database from 'better-sqlite3';

export class UnconfirmedPages {
  readonly #mark: Database.Statement;
  readonly #confirm: Database.Statement;
  readonly #list: Database.Statement;
  readonly #pageUrls: Database.Statement;
  readonly #deletes: Database.Statement[];
  readonly #deleteFrontierRow: Database.Statement;
  readonly #undo: (seq: number) => boolean;

  constructor(db: Database.Database) {
    this.#mark = db.prepare(`INSERT INTO unconfirmed_pages (seq) VALUES (?)`);
    this.#confirm = db.prepare(`DELETE FROM unconfirmed_pages WHERE seq = ?`);
    this.#list = db.prepare(`SELECT u.seq, p.url FROM unconfirmed_pages u JOIN pages p ON p.seq = u.seq ORDER BY u.seq`);
    this.#pageUrls = db.prepare(`SELECT url, final_url FROM pages WHERE seq = ?`);
    this.#deletes = ['page_texts', 'warc_records', 'pages', 'unconfirmed_pages'].map((table) => db.prepare(`DELETE FROM ${table} WHERE seq = ?`));
    // The page's frontier rows (its URL's, its redirect target's) go with it, unless another page
    // of the store still stands for that URL.
    this.#deleteFrontierRow = db.prepare(
      `DELETE FROM frontier WHERE url = @url AND NOT EXISTS (SELECT 1 FROM pages WHERE url = @url OR final_url = @url)`,
    );
    this.#undo = db.transaction((seq: number) => {
      const urls = this.#pageUrls.get(seq) as { url: string; final_url: string } | undefined;
      for (const remove of this.#deletes) remove.run(seq);
      if (urls === undefined) return false;
      for (const url of new Set([urls.url, urls.final_url])) this.#deleteFrontierRow.run({ url });
      return true;
    });
  }

  /** Marks page `seq` unconfirmed; called inside the page's own transaction. */
  mark(seq: number): void {
    this.#mark.run(seq);
  }

  /** Redis counted page `seq`: it is one of the store's pages like any other. */
  confirm(seq: number): void {
    this.#confirm.run(seq);
  }

  /**
   * Redis did not count page `seq`: its row, its extras and the frontier rows it wrote are
   * deleted in one transaction. False when no such page was there.
   */
  undo(seq: number): boolean {
    return this.#undo(seq);
  }

  /** The unconfirmed pages, in fetch order. */
  list(): { seq: number; url: string }[] {
    return this.#list.all() as { seq: number; url: string }[];
  }
}
