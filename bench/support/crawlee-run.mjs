/**
 * The throughput baseline: crawlee's CheerioCrawler over the local web, run as its own process
 * by `crawl-bench.ts` so its memory is its own; plain JavaScript, so neither crawler's process
 * carries tsx's loader:
 *
 *     node --import ./bench/support/loopback-guard.mjs bench/support/crawlee-run.mjs '<json>'
 *
 * with `{seed, maxPages, concurrency, origins, storageDir}`. It does what a plain crawlee crawl
 * does, the same work per page as `linkscent crawl` minus the scoring: fetch, parse (cheerio),
 * every `<a href>` resolved (crawlee honours `<base href>`) and enqueued when it lies on one of
 * the local web's origins. Prints one JSON line: `{handled, failed, seconds, pagesPerSecond}`.
 *
 * Settings, each to make the comparison about the crawler and not about its defaults:
 * - concurrency fixed: minConcurrency = maxConcurrency = desiredConcurrency = C;
 * - system-status throttling off: every overload ratio (CPU, memory, event loop, client) set to
 *   1, and the snapshotter's limits raised (memory ratio 1, a blocked event loop only past
 *   1 s, 1,000 client errors), so the autoscaled pool never scales down because the machine is
 *   busy (LinkScent does not either); `maybeRunIntervalSecs` 0.05 so a freed slot is refilled
 *   without waiting 0.5 s;
 * - no retries (`maxRequestRetries: 0`): a 404 is one request, as in LinkScent's count;
 * - no session pool, no cookies; no delay between requests (crawlee's default);
 * - storage in memory: `persistStorage: false`, CRAWLEE_STORAGE_DIR pointed at a directory
 *   under bench/data/tmp by the caller, purged on start.
 */
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';

/**
 * @typedef {object} RunOptions
 * @property {string} seed
 * @property {number} maxPages
 * @property {number} concurrency
 * @property {string[]} origins `http://127.0.0.N:PORT` prefixes links must start with to be enqueued.
 */

/** @type {RunOptions} */
const options = JSON.parse(process.argv[2] ?? '{}');
const origins = options.origins.map((origin) => `${origin}/`);
const onWeb = (url) => origins.some((origin) => url.startsWith(origin));

const config = new Configuration({ persistStorage: false, purgeOnStart: true, headless: true, availableMemoryRatio: 0.9 });
const overload = { maxCpuOverloadedRatio: 1, maxMemoryOverloadedRatio: 1, maxEventLoopOverloadedRatio: 1, maxClientOverloadedRatio: 1 };

let handled = 0;
let failed = 0;
const crawler = new CheerioCrawler(
  {
    minConcurrency: options.concurrency,
    maxConcurrency: options.concurrency,
    maxRequestsPerCrawl: options.maxPages,
    maxRequestRetries: 0,
    useSessionPool: false,
    persistCookiesPerSession: false,
    requestHandlerTimeoutSecs: 30,
    navigationTimeoutSecs: 30,
    autoscaledPoolOptions: {
      desiredConcurrency: options.concurrency,
      maybeRunIntervalSecs: 0.05,
      systemStatusOptions: overload,
      snapshotterOptions: { maxUsedMemoryRatio: 1, maxBlockedMillis: 1000, maxClientErrors: 1000 },
    },
    async requestHandler({ enqueueLinks }) {
      handled++;
      await enqueueLinks({
        strategy: 'all',
        transformRequestFunction: (request) => (onWeb(request.url) ? request : false),
      });
    },
    failedRequestHandler() {
      failed++;
    },
  },
  config,
);

const started = process.hrtime.bigint();
await crawler.run([options.seed]);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(JSON.stringify({ handled, failed, seconds, pagesPerSecond: (handled + failed) / seconds }));
process.exit(0);
