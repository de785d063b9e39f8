/**
 * Crawl progress: the snapshot the crawler reports after every settled page, and a reporter
 * that shows it on stderr (stdout stays machine-readable). On a TTY it is one line rewritten
 * in place at most ten times a second; elsewhere (a log file, CI) a plain line every few
 * seconds, so a log is not flooded by one line per page.
 */

export interface CrawlProgress {
  /** Pages fetched over the whole crawl (resumed runs included); robots-denied not counted. */
  fetched: number;
  /** Pages fetched by this run. */
  fetchedThisRun: number;
  maxPages: number;
  /** URLs waiting in the frontier. */
  queued: number;
  inFlight: number;
  /** Pages whose outcome was not ok (HTTP errors, timeouts, …), over the whole crawl. */
  errors: number;
  /** Pages the page judge scored, and of those the ones at or above the relevance threshold. */
  judged: number;
  relevant: number;
  /** relevant / judged: the running harvest-rate estimate; null with no judge. */
  harvest: number | null;
  elapsedMs: number;
  /** fetchedThisRun per second of this run. */
  pagesPerSecond: number;
  /** true on the final report. */
  done: boolean;
}

/** One line, the same words on a TTY and in a log. */
export function formatProgress(p: CrawlProgress): string {
  const parts = [
    `${p.fetched}/${p.maxPages} pages`,
    `${p.queued} queued`,
    p.harvest === null ? null : `harvest ${(p.harvest * 100).toFixed(1)}% (${p.relevant}/${p.judged})`,
    `${p.pagesPerSecond.toFixed(1)} pages/s`,
    `${p.errors} errors`,
  ];
  return parts.filter((s) => s !== null).join(' · ');
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface ProgressReporterOptions {
  /** Default process.stderr. */
  stream?: ProgressStream;
  /** Seconds between plain lines when not a TTY. Default 5 000 ms. */
  intervalMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/** Returns an `onProgress` callback that draws on the stream. */
export function createProgressReporter(options: ProgressReporterOptions = {}): (p: CrawlProgress) => void {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  const interval = tty ? 100 : (options.intervalMs ?? 5000);
  const now = options.now ?? Date.now;
  let last = -Infinity;
  return (progress) => {
    const t = now();
    if (!progress.done && t - last < interval) return;
    last = t;
    const line = formatProgress(progress);
    if (tty) stream.write(`\r\x1b[2K${line}${progress.done ? '\n' : ''}`);
    else stream.write(`crawl: ${line}\n`);
  };
}
