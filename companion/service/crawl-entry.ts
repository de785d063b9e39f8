/**
 * One crawl of the service as it lives in memory: its record (crawl.json), its directory, its
 * current run and the listeners of its progress. Every change of state is written to crawl.json
 * (atomically) before listeners hear of it, so a kill at any moment leaves a state that is true.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { CrawlInfo } from '../../shared/service-api/types.ts';
import type { CrawlProgress } from '../crawl/progress.ts';
import { oneLine } from '../platform/one-line.ts';
import type { CrawlStore } from '../store/crawl-store.ts';
import { CRAWL_FILE, toInfo, writeCrawlRecord, type CrawlRecord } from './crawl-record.ts';
import { HttpError } from './http-io.ts';

export type CrawlListener = (info: CrawlInfo) => void;

/** How often a running crawl's progress is saved to crawl.json besides its state changes. */
const PROGRESS_SAVE_MS = 2000;

/** One `runCrawl` of a crawl: a crawl that is paused and resumed has several, one at a time. */
export interface Run {
  controller: AbortController;
  done: Promise<void>;
  /** Aborted because the service is closing: the crawl stays `running` on disk. */
  shutdown: boolean;
  lastProgress?: CrawlProgress;
  /** A second connection to the crawl store, for the labeled links the hooks learn. */
  labels?: CrawlStore;
}

export class CrawlEntry {
  run?: Run;
  readonly listeners = new Set<CrawlListener>();
  /** Bumped by each resume, so that only the latest of two quick resumes starts a run. */
  generation = 0;
  #savedAt = 0;

  constructor(
    readonly record: CrawlRecord,
    readonly dir: string,
    private readonly log: (line: string) => void,
  ) {}

  get id(): string {
    return this.record.id;
  }

  info(): CrawlInfo {
    return toInfo(this.record);
  }

  setState(state: CrawlRecord['state']): void {
    this.record.state = state;
    this.save();
    this.notify();
  }

  /** Saves crawl.json; a failure is logged, not thrown: the crawl goes on and the next save retries. */
  save(): void {
    this.#savedAt = Date.now();
    const file = join(this.dir, CRAWL_FILE);
    try {
      writeCrawlRecord(file, this.record);
    } catch (error) {
      this.log(`serve: ${oneLine(error)}`); // "cannot write <file>: <why>"
    }
  }

  /** Saves when the last save is older than `PROGRESS_SAVE_MS` (progress changes many times a second). */
  saveIfDue(): void {
    if (Date.now() - this.#savedAt >= PROGRESS_SAVE_MS) this.save();
  }

  notify(): void {
    const info = this.info();
    for (const listener of this.listeners) {
      try {
        listener(info);
      } catch (error) {
        this.log(`serve: a progress listener failed: ${oneLine(error)}`);
      }
    }
  }

  /** 409: the crawl's state does not allow what was asked. */
  conflict(wanted: string): HttpError {
    return new HttpError(409, `crawl ${this.id} is ${this.record.state} and cannot be ${wanted}`);
  }
}

/** Short and URL-safe: 9 random bytes are 12 base64url characters. */
export function newCrawlId(): string {
  return randomBytes(9).toString('base64url');
}
