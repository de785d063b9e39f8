/**
 * The crawl's WARC files: `DIR/warc/linkscent-<time>-<serial>.warc.gz`, each starting with a
 * `warcinfo` record, then every page's records (`warc-records.ts`), a new file once the next page
 * would take the current one past `maxFileBytes` (a file holds at least one page).
 *
 * Nothing lost, nothing twice. The crawl store is the source of truth, as for pages.jsonl: a
 * page's records are appended and synced to disk, and only then is the page's transaction run,
 * with where its records lie (`warc_records`); appends are one at a time, so the files hold the
 * pages in the order the store committed them. A crawl killed in between leaves records no
 * transaction owns at the end of the last file: opening the writer on a resume trims every file
 * to the end of the last page the store holds and removes files it holds none of, and the page,
 * still queued, is fetched and written again.
 */
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, mkdirSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StopCrawlError } from '../crawl/crawl-errors.ts';
import type { WarcLocation } from '../store/records.ts';
import { WARC_DIR } from './warc-defaults.ts';
import { serializeWarcinfo, type SerializedPage } from './warc-records.ts';

const FILE_NAME = /^linkscent-\d{14}-(\d{5,})\.warc\.gz$/;

export interface WarcWriterOptions {
  /** The crawl directory; files go to `DIR/warc/`. */
  outDir: string;
  /** A new file is started before a page would take the current one past this size. */
  maxFileBytes: number;
  /** The fields of each file's warcinfo record (software, format, robots, description, …). */
  info: Record<string, string>;
}

interface OpenFile {
  name: string;
  fd: number;
  size: number;
  /** Pages in the file (a file is rolled only once it holds one). */
  pages: number;
}

/** The WARC files of a crawl directory, in serial order. */
export function warcFiles(outDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(outDir, WARC_DIR));
  } catch {
    return [];
  }
  return names.filter((name) => FILE_NAME.test(name)).sort((a, b) => serialOf(a) - serialOf(b));
}

function serialOf(name: string): number {
  return Number(FILE_NAME.exec(name)?.[1] ?? 0);
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

export class WarcWriter {
  readonly dir: string;
  readonly #options: WarcWriterOptions;
  #serial: number;
  #file: OpenFile | undefined;
  /** Appends run one at a time, in call order. */
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(options: WarcWriterOptions, serial: number) {
    this.#options = options;
    this.dir = join(options.outDir, WARC_DIR);
    this.#serial = serial;
  }

  /**
   * Opens the crawl's WARC output. `extents` (from the store: per file, the end of its last
   * committed page) trims what a killed run left behind; a new crawl passes an empty map.
   */
  static open(options: WarcWriterOptions, extents: ReadonlyMap<string, number>): WarcWriter {
    const dir = join(options.outDir, WARC_DIR);
    mkdirSync(dir, { recursive: true });
    let last = 0;
    for (const name of warcFiles(options.outDir)) {
      last = Math.max(last, serialOf(name));
      const end = extents.get(name);
      const path = join(dir, name);
      if (end === undefined) rmSync(path, { force: true });
      else if (statSync(path).size > end) truncateSync(path, end);
    }
    return new WarcWriter(options, last + 1);
  }

  /**
   * Appends a page's serialized records, syncs them, then runs `commit` with where they lie,
   * before any other append: the page's transaction. When `commit` throws, or returns undefined
   * (nothing committed: the run stopped first), the records are cut off again. A file that
   * cannot be written stops the crawl (`StopCrawlError`).
   */
  append<T>(page: SerializedPage, commit: (location: WarcLocation) => T): Promise<T> {
    const run = this.#queue.then(() => this.#appendNow(page, commit));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #appendNow<T>(page: SerializedPage, commit: (location: WarcLocation) => T): Promise<T> {
    let file = this.#file;
    if (file && file.pages > 0 && file.size + page.length > this.#options.maxFileBytes) {
      this.#closeFile();
      file = undefined;
    }
    file ??= await this.#openFile();
    const offset = file.size;
    try {
      let at = offset;
      for (const chunk of page.chunks) {
        writeSync(file.fd, chunk, 0, chunk.length, at);
        at += chunk.length;
      }
      fdatasyncSync(file.fd);
      file.size = at;
    } catch (error) {
      this.#cut(file, offset);
      throw new StopCrawlError(`cannot write WARC file ${join(this.dir, file.name)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
    let result: T;
    try {
      result = commit({ file: file.name, offset, length: page.length, ...(page.responseId ? { responseId: page.responseId } : {}) });
    } catch (error) {
      this.#cut(file, offset);
      throw error;
    }
    if (result === undefined) this.#cut(file, offset);
    else file.pages++;
    return result;
  }

  /** Puts the file back to `offset` bytes (records no transaction owns). */
  #cut(file: OpenFile, offset: number): void {
    try {
      ftruncateSync(file.fd, offset);
    } catch {
      // The resume's trim removes them all the same.
    }
    file.size = offset;
  }

  async #openFile(): Promise<OpenFile> {
    const name = `linkscent-${stamp(new Date())}-${String(this.#serial++).padStart(5, '0')}.warc.gz`;
    const warcinfo = await serializeWarcinfo(name, this.#options.info);
    const fd = openSync(join(this.dir, name), 'w');
    try {
      writeSync(fd, warcinfo);
      fdatasyncSync(fd);
    } catch (error) {
      closeSync(fd);
      throw new StopCrawlError(`cannot write WARC file ${join(this.dir, name)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
    this.#file = { name, fd, size: fstatSync(fd).size, pages: 0 };
    return this.#file;
  }

  #closeFile(): void {
    if (this.#file) closeSync(this.#file.fd);
    this.#file = undefined;
  }

  /** Waits for appends under way, then closes the current file. */
  async close(): Promise<void> {
    await this.#queue;
    this.#closeFile();
  }
}
