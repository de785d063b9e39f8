/**
 * `npm run bench -- frontier`, or on its own: `node --expose-gc --import tsx bench/frontier-bench.ts`.
 *
 * Issue 14's frontier goals: "peak RSS of a 1,000,000-URL frontier crawl ≤ 300 MB" and "claims
 * stay O(log n) as the frontier grows (claim µs at 10k, 100k, 1M queued)". Two parts:
 *
 *   1. The crawl, through the command line (`support/cli-child.ts`, loopback guard preloaded,
 *      `--scope seed-hosts`): a synthetic loopback site whose every page links 1,000 pages linked
 *      nowhere else (`support/wide-site.ts`), crawled for `CRAWL_PAGES` pages, which queues over
 *      a million distinct URLs. Once `--strategy bfs`, once `--strategy nb` with a model trained
 *      on the same site (`collect --positive '<topic pattern>'` of `COLLECT_PAGES` pages, then
 *      `train`: link classifier and levels, so future value, online learning and the host budget
 *      all run, as users run nb). Printed: pages served (the server's count), URLs queued and
 *      known at the end (the crawl store), peak RSS (VmHWM, polled), what the resident memory was
 *      made of at its polled peak (`support/memory-probe.mjs`: V8's heap by space, external memory,
 *      which holds jieba-wasm's, and the rest), wall time, pages/s, and the rate per 100 pages from
 *      the server's response times against the frontier's size then.
 *   2. The claim's cost against the frontier's size, in this process: a real `CrawlStore` grown
 *      the way a crawl grows it (claim the best URL, record its page with 1,000 new children in
 *      one transaction; 20 hosts, nb-like scores in [0, 1), link contexts kept), and at
 *      `CHECKPOINTS` queued URLs: `claimNext` timed `CLAIMS` times after `WARMUP` (median, p99),
 *      with the crawler's claim rule (4 in flight, 2 per host) and window, with no host set
 *      aside and with one; each claimed URL settled and one new URL queued, untimed, so the size
 *      holds. Also µs per link upserted (new links, and links met again), the progress count
 *      (`counts()`, once a second in a crawl), and SQLite's plan for each claim query.
 *
 * `LINKSCENT_FRONTIER_PARTS=1` or `=2` runs one part alone. No timed assertion: the goals are printed as met or MISSED beside the figures. Figures depend
 * on the machine and its load (printed at the start and the end). Work files go under
 * bench/data/frontier-bench/ (removed at the start).
 */
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { CrawlStore, STORE_FILE } from '../companion/store/crawl-store.ts';
import { CLAIM_SQL, type ClaimDecision } from '../companion/store/frontier-queries.ts';
import type { FrontierEntry, FrontierRow, PageRecord } from '../companion/store/records.ts';
import { DEFAULT_CLAIM_WINDOW, FOCUSED_CLAIM_WINDOW } from '../companion/crawl/strategies/crawl-strategy.ts';
import { seededRandom } from '../shared/random/seeded-random.ts';
import { linkscent, type ChildResult } from './support/cli-child.ts';
import { fmt, indent, loadLine, median, table } from './support/measure.ts';
import { FANOUT, startWideSite, TOPIC_PATTERN, type WideSite } from './support/wide-site.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = join(ROOT, 'bench', 'data', 'frontier-bench');
const CHILD_ENV = { TMPDIR: join(WORK, 'tmp') };
const MEMORY_PROBE = join(ROOT, 'bench', 'support', 'memory-probe.mjs');

/** Pages per crawl: 1,050 × 1,000 links ≈ 1,049,000 URLs queued at the end. */
const CRAWL_PAGES = 1050;
/** Pages `collect` labels the nb model's examples from (12,000 links). */
const COLLECT_PAGES = 12;
/** The issue's goal for the crawl's peak RSS. */
const RSS_GOAL = 300e6;
/** Queued URLs at which claims are timed. */
const CHECKPOINTS = [10_000, 100_000, 1_000_000];
const CLAIMS = 2000;
const WARMUP = 200;
const HOSTS = 20;
/** The crawler's defaults: workers, and pages in flight per host. */
const IN_FLIGHT = 4;
const PER_HOST = 2;

/** `LINKSCENT_FRONTIER_PARTS=2` runs part 2 alone (default: `1,2`). */
const PARTS = new Set((process.env['LINKSCENT_FRONTIER_PARTS'] ?? '1,2').split(','));

const mbOf = (bytes: number) => `${fmt(bytes / 1e6, 4)} MB`;
const us = (ms: number) => `${fmt(ms * 1e3, 3)} µs`;
const count = (n: number) => n.toLocaleString('en-US');

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

// ---------------------------------------------------------------------------------------------
// 1. The crawl, through the command line

/** Frontier rows by state, read-only after the crawl. */
function storeStates(out: string): Map<string, number> {
  const db = new Database(join(out, STORE_FILE), { readonly: true });
  try {
    const rows = db.prepare('SELECT state, count(*) AS n FROM frontier GROUP BY state').all() as { state: string; n: number }[];
    return new Map(rows.map(({ state, n }) => [state, n]));
  } finally {
    db.close();
  }
}

/** A crawl of the wide site; the figures from the server's log and the store, not the crawler's report. */
async function crawl(site: WideSite, label: string, out: string, extra: string[]): Promise<void> {
  const from = site.served.length;
  const args = ['crawl', `${site.origin}/`, '--scope', 'seed-hosts', '--max-pages', String(CRAWL_PAGES), '--out', out, '--delay-ms', '0', '--concurrency', '4', '--per-host-concurrency', '4', ...extra];
  console.log(`\n1${label}. linkscent ${args.join(' ').replace(site.origin, '<site>').replaceAll(`${WORK}/`, '')}`);
  console.log(`   ${loadLine()}`);
  const probeOut = join(WORK, `memory-${label}.json`);
  const run: ChildResult = await linkscent(args, {
    ...CHILD_ENV,
    NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${MEMORY_PROBE}`.trim(),
    LINKSCENT_MEMORY_PROBE_OUT: probeOut,
  });
  const served = site.served.slice(from).filter((r) => r.status === 200);
  const times = served.map((r) => r.finishedAt).sort((a, b) => a - b);
  console.log(indent(run.stdout.trim().replaceAll(`${WORK}/`, '')));
  const states = storeStates(out);
  const known = [...states.values()].reduce((a, b) => a + b, 0);
  const span = (times.at(-1)! - times[0]!) / 1e3;
  console.log(`   pages served (200, the server's count): ${served.length}; frontier (crawl store): ${states.get('queued') ?? 0} queued, ${known} URLs known (${[...states].map(([s, n]) => `${s} ${n}`).join(', ')})`);
  console.log(`   peak RSS (VmHWM) ${mbOf(run.peakRss)} (goal ≤ ${mbOf(RSS_GOAL)}: ${run.peakRss <= RSS_GOAL ? 'met' : 'MISSED'}); wall ${fmt(run.wallMs / 1e3, 3)} s; ${fmt(served.length / span, 3)} pages/s from the first page served to the last (${fmt(span, 3)} s)`);
  console.log(`   ${memoryAtPeak(probeOut)}`);
  // Each page served brings FANOUT URLs linked nowhere else: after k pages, ≈ k·(FANOUT − 1) queued.
  const rows: string[][] = [['pages served', 'queued at its end (≈)', 'pages/s over these 100']];
  for (let k = 100; k < times.length; k += 100) {
    rows.push([`${k - 100}–${k}`, count(k * (FANOUT - 1)), fmt(100 / ((times[k]! - times[k - 100]!) / 1e3), 3)]);
  }
  console.log(indent(table(rows)));
}

/** The child's memory at its polled RSS peak (`support/memory-probe.mjs`), in one line. */
function memoryAtPeak(path: string): string {
  const peak = JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>;
  const at = (key: string) => mbOf(peak[key]!);
  const rest = peak['rssAnon']! - peak['heapTotal']! - peak['external']!;
  return `at the polled RSS peak (${fmt(peak['atMs']! / 1e3, 3)} s in): ${at('rss')} = file-backed ${at('rssFile')} (node's code and libraries) + anonymous ${at('rssAnon')}: ` +
    `V8 heap ${at('heapTotal')} (${at('heapUsed')} used; new space ${at('newSpace')}, old ${at('oldSpace')}, large objects ${at('largeObjectSpace')}), ` +
    `external ${at('external')} (jieba-wasm's linear memory ≈ 62 MB of it), the rest ${mbOf(rest)} (malloc: SQLite's page cache, V8's and Node's own)`;
}

/** Collect and train on the wide site: the nb model a user would make for its topic. */
async function trainModel(site: WideSite): Promise<string> {
  const labeled = join(WORK, 'labeled.jsonl');
  const model = join(WORK, 'model.json');
  const collect = await linkscent(['collect', `${site.origin}/`, '--positive', TOPIC_PATTERN, '--scope', 'seed-hosts', '--max-pages', String(COLLECT_PAGES), '--out', labeled, '--delay-ms', '0'], CHILD_ENV);
  const train = await linkscent(['train', labeled, '--out', model, '--positive', TOPIC_PATTERN], CHILD_ENV);
  console.log(`\n   model for nb: collect --positive '${TOPIC_PATTERN}' --max-pages ${COLLECT_PAGES} (${fmt(collect.wallMs / 1e3, 3)} s), train (${fmt(train.wallMs / 1e3, 3)} s):`);
  console.log(indent(indent(`${collect.stdout.trim()}\n${train.stdout.trim()}`.replaceAll(`${WORK}/`, ''))));
  return model;
}

async function crawls(): Promise<void> {
  const site = await startWideSite();
  console.log(`1. crawls of a synthetic site on ${site.origin}: every page links ${FANOUT} pages linked nowhere else, one in ten on the topic (${TOPIC_PATTERN})`);
  try {
    await crawl(site, 'a', join(WORK, 'bfs'), ['--strategy', 'bfs']);
    const model = await trainModel(site);
    await crawl(site, 'b', join(WORK, 'nb'), ['--strategy', 'nb', '--model', model]);
  } finally {
    await site.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Claim cost against the frontier's size

/** A frontier grown as a crawl grows it, with the crawler's claim rule over it. */
class GrowingFrontier {
  readonly store: CrawlStore;
  readonly #random = seededRandom(14); // every run builds the same frontier
  #next = 0;
  queued = 0;
  /** What the crawl holds in flight, oldest first, and per host. */
  readonly #inFlight: FrontierRow[] = [];
  readonly #perHost = new Map<string, number>();
  /** Rows `decide` looked at since the last reset: a claim's walk. */
  looked = 0;

  constructor(dir: string) {
    this.store = CrawlStore.open(dir, { create: true });
  }

  entry(parent: string | null, depth: number): FrontierEntry {
    const n = this.#next++;
    const host = `h${n % HOSTS}.frontier.test`;
    return {
      url: `http://${host}/p/${n}`,
      score: this.#random(),
      depth,
      parent,
      host,
      context: { anchor: `第 ${n} 条链接`, before: '上一条链接的文字', after: '下一条链接的文字' },
      viaOnTopic: true,
    };
  }

  /** The crawler's claim rule (`CrawlState.decide` without a page cap). */
  decide = (row: FrontierRow): ClaimDecision => {
    this.looked++;
    return (this.#perHost.get(row.host) ?? 0) >= PER_HOST ? 'skip' : 'take';
  };

  claim(window: number, excluded: readonly string[] = []): FrontierRow | undefined {
    return this.store.claimNext(this.decide, window, excluded);
  }

  /** A claimed row goes in flight; the oldest one in flight is handed back to `settle`. */
  hold(row: FrontierRow, settle: (row: FrontierRow) => void): void {
    this.#inFlight.push(row);
    this.#perHost.set(row.host, (this.#perHost.get(row.host) ?? 0) + 1);
    if (this.#inFlight.length <= IN_FLIGHT) return;
    const done = this.#inFlight.shift()!;
    this.#perHost.set(done.host, this.#perHost.get(done.host)! - 1);
    settle(done);
  }

  /** Records `row`'s page with `FANOUT` new children in one transaction; ms it took. */
  record(row: FrontierRow): number {
    const children = Array.from({ length: FANOUT }, () => this.entry(row.url, row.depth + 1));
    const page: PageRecord = { url: row.url, finalUrl: row.url, status: 200, depth: row.depth, parent: row.parent, score: row.score, fetchedAt: new Date().toISOString(), bytes: 50_000, contentType: 'text/html', outcome: 'ok' };
    const started = performance.now();
    this.store.recordPage(page, children);
    const took = performance.now() - started;
    this.queued += children.length - 1;
    return took;
  }

  /** A settled row leaves the queue and one new URL joins it (the size holds while claims are timed). */
  replace(row: FrontierRow): void {
    this.store.drop(row.url, 'bench');
    this.store.enqueue([this.entry(row.url, row.depth + 1)]);
  }
}

interface ClaimFigures {
  median: number;
  p99: number;
  looked: number;
}

function timeClaims(frontier: GrowingFrontier, window: number, excluded: readonly string[]): ClaimFigures {
  const took: number[] = [];
  frontier.looked = 0;
  for (let i = 0; i < WARMUP + CLAIMS; i++) {
    if (i === WARMUP) frontier.looked = 0;
    const started = performance.now();
    const row = frontier.claim(window, excluded);
    const ms = performance.now() - started;
    if (!row) throw new Error('the frontier ran dry while claims were timed');
    if (i >= WARMUP) took.push(ms);
    frontier.hold(row, (done) => frontier.replace(done));
  }
  return { median: median(took), p99: quantile(took, 0.99), looked: frontier.looked / CLAIMS };
}

/** µs per link of an upsert of `FANOUT` links already queued (met again, not higher): one transaction. */
function timeMetAgain(frontier: GrowingFrontier): number {
  const known = frontier.store.bestQueued(FANOUT).map((row) => ({ url: row.url, score: row.score / 2, depth: row.depth, parent: row.parent, host: row.host }));
  const started = performance.now();
  frontier.store.enqueue(known);
  return (performance.now() - started) / known.length;
}

/**
 * Median µs of the claim's read without its write: the best 4 queued rows (`bestQueued`, the
 * first query's shape without the set-aside filter). The rest of a claim is the `UPDATE` that
 * marks the row in flight, committed on its own (no fsync: synchronous = NORMAL, store/schema.ts).
 */
function timeRead(frontier: GrowingFrontier): number {
  const took: number[] = [];
  for (let i = 0; i < WARMUP + CLAIMS; i++) {
    const started = performance.now();
    frontier.store.bestQueued(4);
    if (i >= WARMUP) took.push(performance.now() - started);
  }
  return median(took);
}

function plans(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const params = { excluded: JSON.stringify([`h0.frontier.test`]), score: 0.5, seq: 1 };
    return (Object.entries(CLAIM_SQL) as [string, string][])
      .map(([name, sql]) => {
        const used = Object.fromEntries(Object.entries(params).filter(([key]) => sql.includes(`@${key}`)));
        const steps = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(used) as { detail: string }[];
        return `${name}: ${steps.map((s) => s.detail).join(' | ')}`;
      })
      .join('\n');
  } finally {
    db.close();
  }
}

function claimCost(): void {
  const dir = join(WORK, 'store');
  const frontier = new GrowingFrontier(dir);
  console.log(`\n2. claim cost against the frontier's size: a CrawlStore in ${relative(ROOT, dir)}/, grown page by page (claim, then the page recorded with ${FANOUT} new children in one transaction), ${HOSTS} hosts, scores uniform in [0, 1)`);
  console.log(`   claims timed: ${CLAIMS} after ${WARMUP} warm-up, ${IN_FLIGHT} in flight and ${PER_HOST} per host as the crawler's defaults; each claimed URL settled and one new URL queued, untimed; ${loadLine()}`);
  const rows: string[][] = [[
    'queued', 'claim, window 256: median', 'p99', 'rows looked at', 'window 4 (nb): median', 'p99', '1 host set aside: median', 'p99',
    'read alone', 'upsert new link', 'met again', 'counts()', 'store file',
  ]];
  try {
    frontier.store.enqueue([frontier.entry(null, 0)]);
    frontier.queued = 1;
    const recent: number[] = [];
    for (const target of CHECKPOINTS) {
      while (frontier.queued < target) {
        const row = frontier.claim(DEFAULT_CLAIM_WINDOW);
        if (!row) throw new Error('the frontier ran dry while growing');
        recent.push(frontier.record(row) / FANOUT);
        if (recent.length > 50) recent.shift();
      }
      const wide = timeClaims(frontier, DEFAULT_CLAIM_WINDOW, []);
      const focused = timeClaims(frontier, FOCUSED_CLAIM_WINDOW, []);
      const aside = timeClaims(frontier, DEFAULT_CLAIM_WINDOW, ['h0.frontier.test']);
      const metAgain = timeMetAgain(frontier);
      const read = timeRead(frontier);
      const countsStarted = performance.now();
      const counts = frontier.store.counts();
      const countsMs = performance.now() - countsStarted;
      rows.push([
        count(counts.queued), us(wide.median), us(wide.p99), fmt(wide.looked, 3), us(focused.median), us(focused.p99), us(aside.median), us(aside.p99),
        us(read), us(median(recent)), us(metAgain), `${fmt(countsMs, 3)} ms`, mbOf(statSync(frontier.store.path).size),
      ]);
      console.log(`   … ${count(counts.queued)} queued measured; ${loadLine()}`);
    }
    console.log(indent(table(rows)));
    console.log('   read alone: the claim\'s query without its UPDATE (bestQueued(4), median); a claim\'s UPDATE commits on its own, without an fsync (synchronous = NORMAL)');
    console.log('   upsert new link: median over the last 50 pages recorded before the size was reached, per child (the transaction also writes the page row and marks its URL done)');
    console.log(`   SQLite's plans for the claim's queries at ${count(frontier.queued)} queued (SEARCH … USING INDEX walks an index: O(log n) to its first row; SCAN or a TEMP B-TREE sorts every row):`);
    console.log(indent(plans(frontier.store.path)));
  } finally {
    frontier.store.close();
  }
}

async function main(): Promise<void> {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(CHILD_ENV.TMPDIR, { recursive: true });
  console.log(`frontier bench (issue 14: a 1,000,000-URL frontier); ${loadLine()}\n`);
  if (PARTS.has('1')) await crawls();
  if (PARTS.has('2')) claimCost();
  console.log(`\n${loadLine()}; work files in ${relative(ROOT, WORK)}/`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
