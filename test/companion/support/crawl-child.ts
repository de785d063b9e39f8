/**
 * A crawl in its own process, for the kill -9 test and the politeness-delay exit test:
 * `node --import tsx crawl-child.ts <seed> <outDir> <maxPages> <resume 0|1> [delayMs] [concurrency]`.
 * Prints one JSON summary line on stdout when done. Nothing here holds the process open: when
 * the crawl is only waiting (a per-host delay), the crawler's own timers must keep it alive.
 */
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';

const [seed, outDir, maxPages, resume, delayMs = '0', concurrency = '3'] = process.argv.slice(2);
const summary = await runCrawl({
  seeds: resume === '1' ? [] : [seed!],
  outDir: outDir!,
  maxPages: Number(maxPages),
  strategy: createStrategy('bfs'),
  concurrency: Number(concurrency),
  perHostConcurrency: Number(concurrency),
  delayMs: Number(delayMs),
  resume: resume === '1',
  log: () => {},
});
process.stdout.write(`${JSON.stringify(summary)}\n`);
