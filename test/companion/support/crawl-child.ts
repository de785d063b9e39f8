/**
 * A crawl in its own process, for the kill -9 test: `node --import tsx crawl-child.ts
 * <seed> <outDir> <maxPages> <resume 0|1>`. Prints one JSON summary line on stdout when done.
 */
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';

const [seed, outDir, maxPages, resume] = process.argv.slice(2);
const summary = await runCrawl({
  seeds: resume === '1' ? [] : [seed!],
  outDir: outDir!,
  maxPages: Number(maxPages),
  strategy: createStrategy('bfs'),
  concurrency: 3,
  perHostConcurrency: 3,
  delayMs: 0,
  resume: resume === '1',
  log: () => {},
});
process.stdout.write(`${JSON.stringify(summary)}\n`);
