/**
 * Extension benchmark (`node --import tsx bench/extension-bench.ts`, or `npm run bench`): the
 * built extension in Debian's Chromium, a page of 5,000 links with Chinese anchors and text.
 *
 *   1. dist/chromium is rebuilt when older than its sources (test/support/ensure-built.ts).
 *   2. A topic is created on the options page: on-topic pattern the Debian FAQ and New
 *      Maintainers' Guide, off-topic the GIMP and LibreOffice manuals (served on loopback from
 *      bench/data/sites, see bench/extension/doc-pages.ts). Browsing those pages trains it, as a
 *      user would; no button is pressed.
 *   3. Each run loads a new 5,000-link page (bench/extension/bench-page.ts) in a new tab; its
 *      links match no pattern, so the model gives every verdict. Figures are medians of RUNS
 *      runs (after one warm-up), min and max beside them:
 *        - baseline: pages of the same kind in a second Chromium without the extension
 *          (DOMContentLoaded, load), each baseline run just before an extension run, so both
 *          see the same machine load;
 *        - time from navigation start until every link has its verdict: the content script's
 *          `linkscent:settled` User Timing mark (extension/content/paint.ts `SETTLED_MARK`),
 *          left when the last batch's verdicts are painted; on-topic links carry
 *          `data-linkscent-level`, the others are scored below the threshold and left alone;
 *        - the first highlight: when the first link got its level (a MutationObserver added
 *          before any page script, disconnected at that first change);
 *        - where that time goes: when the service worker received the page's `page/settings`
 *          (the content script started) and its first `page/links` (extraction done), from a
 *          listener the benchmark adds to the service worker, and how many batches went;
 *        - at the default per-page cap (settings `maxLinksPerPage`, 2,000) and at 5,000;
 *        - main-thread tasks, in separate traced runs (tracing slows the page, so the timings
 *          above come from runs without it): the longest task of the content script, their sum,
 *          and the page's own longest task (bench/extension/main-thread-trace.ts says why a
 *          trace and not `longtask`);
 *        - the scoring Worker's throughput in contexts per second, through its own comlink port
 *          (bench/extension/worker-probe.ts), with texts new to its tokenizer cache and again.
 *
 * Environment: LINKSCENT_BENCH_RUNS (default 5), LINKSCENT_BENCH_LINKS (default 5000),
 * LINKSCENT_CHROMIUM (default /usr/bin/chromium), LINKSCENT_BENCH_VERBOSE=1 (one line per run on
 * stderr), LINKSCENT_BENCH_TRACE_DIR (keep the traced runs' raw traces there), LINKSCENT_BENCH_JSON
 * (write the figures there as JSON; scripts/bench.mjs sets it), LINKSCENT_BENCH_GENERATED=1 (generated
 * text even when bench/data/sites is there), LINKSCENT_BENCH_WORKER_PROFILE=<prefix> (after the figures,
 * one more page run and one more cold probe with V8's profiler on the scoring Worker, written to
 * <prefix>-page.cpuprofile and <prefix>-probe.cpuprofile; bench/extension/worker-profile.ts). Without
 * Chromium it says so and exits 0.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import type { Topic } from '../shared/model/types.ts';
import { distDir, ensureBuilt } from '../test/support/ensure-built.ts';
import { benchPage, distinctContexts, generatedPool, pageContexts } from './extension/bench-page.ts';
import { startBenchServer, type BenchServer } from './extension/bench-server.ts';
import { haveDocs, loadDocCorpus, OFF_TOPIC_SITES, ON_TOPIC_SITES, type BenchContext } from './extension/doc-pages.ts';
import { MainThreadTrace, type TaskSummary } from './extension/main-thread-trace.ts';
import { probeLinks, probeWorker, type ProbeResult, type ProbeSet } from './extension/worker-probe.ts';
import { devtoolsArgs, WorkerProfiler } from './extension/worker-profile.ts';

const CHROMIUM = process.env['LINKSCENT_CHROMIUM'] ?? '/usr/bin/chromium';
const RUNS = positiveInt('LINKSCENT_BENCH_RUNS', 5);
const LINKS = positiveInt('LINKSCENT_BENCH_LINKS', 5000);
const DEFAULT_CAP = 2000;
const SETTLED_MARK = 'linkscent:settled';
const LEVEL = 'data-linkscent-level';
const VERBOSE = process.env['LINKSCENT_BENCH_VERBOSE'] === '1';
const TRACE_DIR = process.env['LINKSCENT_BENCH_TRACE_DIR'] || undefined;
const WORKER_PROFILE = process.env['LINKSCENT_BENCH_WORKER_PROFILE'] || undefined;
/** The scoring Worker's name (extension/offscreen/offscreen.ts). */
const WORKER_NAME = 'linkscent-worker';

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not "${raw}"`);
  return n;
}

const BASE_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function launch(profile: string, extension: string | null): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    // Extensions need Chromium's new headless mode, asked for by flag (as the e2e test does).
    headless: false,
    viewport: { width: 1280, height: 800 },
    args: extension
      ? [...BASE_ARGS, `--disable-extensions-except=${extension}`, `--load-extension=${extension}`, ...(WORKER_PROFILE ? devtoolsArgs() : [])]
      : BASE_ARGS,
  });
}

// ---- in-page measurements (strings: the page runs them as they are) ----------------------

interface PageTimes {
  timeOrigin: number;
  responseEnd: number;
  domContentLoaded: number;
  load: number;
}

const NAVIGATION_JS = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return { timeOrigin: performance.timeOrigin, responseEnd: nav.responseEnd, domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
})()`;

/**
 * Before any page script: when the first link gets its level, from navigation start. The
 * observer disconnects at that first highlight, so it costs the page nothing after it.
 */
const FIRST_HIGHLIGHT_INIT = `(() => {
  const observer = new MutationObserver((records) => {
    if (records.some((r) => r.target instanceof Element && r.target.hasAttribute('${LEVEL}'))) {
      window.__linkscentFirstHighlight = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['${LEVEL}'] });
})();`;

interface Settled extends PageTimes {
  /** ms after navigation start; null when no link was lit. */
  firstHighlight: number | null;
  settledAt: number;
  onTopic: number;
  total: number;
}

/** Resolves with the first `linkscent:settled` mark (buffered, so one left earlier counts). */
const settledJs = (timeoutMs: number) => `new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no ${SETTLED_MARK} mark within ${timeoutMs} ms')), ${timeoutMs});
  const observer = new PerformanceObserver((list) => {
    const mark = list.getEntriesByName('${SETTLED_MARK}')[0];
    if (!mark) return;
    observer.disconnect();
    clearTimeout(timer);
    const nav = performance.getEntriesByType('navigation')[0];
    resolve({ timeOrigin: performance.timeOrigin, responseEnd: nav.responseEnd, domContentLoaded: nav.domContentLoadedEventEnd,
      load: nav.loadEventEnd, firstHighlight: window.__linkscentFirstHighlight ?? null, settledAt: mark.startTime,
      onTopic: mark.detail.onTopic, total: mark.detail.total });
  });
  observer.observe({ type: 'mark', buffered: true });
})`;

// ---- the service worker's view of a page ----------------------------------------------------

interface LogEntry {
  t: number;
  type: string;
  links: number;
  url: string;
}

/** Adds (once per service-worker life) a listener that only records content messages. */
const INSTALL_LOG_JS = `(() => {
  if (self.linkscentBenchLog) return false;
  self.linkscentBenchLog = [];
  chrome.runtime.onMessage.addListener((message, sender) => {
    if (message && typeof message.type === 'string' && message.type.startsWith('page/')) {
      self.linkscentBenchLog.push({ t: Date.now(), type: message.type, links: Array.isArray(message.links) ? message.links.length : 0, url: sender.url || '' });
    }
    return undefined; // not an answer: the extension's own listener replies
  });
  return true;
})()`;

// ---- statistics and printing ----------------------------------------------------------------

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const rows: string[][] = [];
/** The same figures for LINKSCENT_BENCH_JSON (scripts/bench.mjs passes a path). */
const figures: { section: string; label: string; unit: string; median: number | null; min: number | null; max: number | null; runs: number[] }[] = [];
let section = '';
function row(label: string, values: readonly number[], unit: string, digits = 0): void {
  figures.push({
    section,
    label: label.trim(),
    unit,
    median: values.length ? median(values) : null,
    min: values.length ? Math.min(...values) : null,
    max: values.length ? Math.max(...values) : null,
    runs: [...values],
  });
  if (values.length === 0) {
    rows.push([label, 'n/a', '', '', unit]);
    return;
  }
  const f = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  rows.push([label, f(median(values)), f(Math.min(...values)), f(Math.max(...values)), unit]);
}
function heading(text: string): void {
  section = text;
  rows.push([text]);
}

function printTable(): void {
  const widths = [0, 0, 0, 0];
  for (const r of rows) if (r.length > 1) for (let i = 0; i < 4; i++) widths[i] = Math.max(widths[i]!, r[i]!.length);
  widths[0] = Math.max(widths[0]!, 40);
  const line = (r: readonly string[]) =>
    `  ${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padStart(Math.max(widths[1]!, 6))}  ${r[2]!.padStart(Math.max(widths[2]!, 6))}  ${r[3]!.padStart(Math.max(widths[3]!, 6))}  ${r[4]}`;
  console.log(line(['', 'median', 'min', 'max', '']));
  for (const r of rows) console.log(r.length === 1 ? `\n${r[0]}` : line(r));
}

function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return CHROMIUM;
  }
}

// ---- the runs -----------------------------------------------------------------------------

interface ExtensionRun {
  settled: Settled;
  marked: number;
  /** ms after navigation start, from the service worker's log. */
  settingsAt: number | null;
  firstLinksAt: number | null;
  batches: number;
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`extension-bench: skipped, ${CHROMIUM} is missing (apt-get install chromium, or set LINKSCENT_CHROMIUM)`);
    return;
  }
  const built = ensureBuilt('chromium');
  if (built) console.log(built.trim());
  // A private copy: a rebuild of dist/ by a test running meanwhile must not swap files under us.
  const extension = mkdtempSync(join(tmpdir(), 'linkscent-bench-ext-'));
  cpSync(distDir('chromium'), extension, { recursive: true });

  const docs = process.env['LINKSCENT_BENCH_GENERATED'] !== '1' && haveDocs();
  const corpus = docs ? loadDocCorpus() : null;
  const generated = docs ? null : generatedPool(12_000);
  const pool = distinctContexts(corpus?.contexts ?? generated!);
  const trainingPaths = corpus?.trainingPaths ?? [
    ...Array.from({ length: 15 }, (_, i) => `/site/generated-on/p${i}.html`),
    ...Array.from({ length: 15 }, (_, i) => `/site/generated-off/p${i}.html`),
  ];
  const server = await startBenchServer(generated);
  const onSites = docs ? ON_TOPIC_SITES : ['generated-on'];
  const offSites = docs ? OFF_TOPIC_SITES : ['generated-off'];

  let nextRun = 0;
  const pageFor = () => {
    const run = nextRun++;
    const page = benchPage(pool, LINKS, run);
    return { run, url: server.setPage(run, page.html), ...page };
  };
  const sample = pageFor();
  const contexts = pageContexts(sample.html, sample.url);

  console.log(`LinkScent extension benchmark: ${chromiumVersion()}, headless=new, ${RUNS} runs per figure after one warm-up`);
  console.log(`Machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at start`);
  console.log(
    docs
      ? `Text: Debian documentation in bench/data/sites (${pool.length.toLocaleString('en-US')} distinct link contexts from pages never browsed for training)`
      : 'Text: GENERATED (bench/data/sites is missing, or LINKSCENT_BENCH_GENERATED=1; bench/fetch-debian-docs.sh fetches the real Debian documentation)',
  );
  console.log(
    `Page: ${LINKS.toLocaleString('en-US')} links (${contexts.length.toLocaleString('en-US')} contexts by the shared pipeline), ` +
      `${Math.round(Buffer.byteLength(sample.html) / 1024)} KiB of HTML, ${sample.onTopicSource} links drawn from on-topic pages`,
  );

  const profiles: string[] = [];
  const profile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkscent-bench-'));
    profiles.push(dir);
    return dir;
  };
  const contextsToClose: BrowserContext[] = [];
  try {
    const plain = await launch(profile(), null);
    contextsToClose.push(plain);

    // ---- the extension: topic, training ----------------------------------------------------
    const context = await launch(profile(), extension);
    contextsToClose.push(context);
    await context.addInitScript(FIRST_HIGHLIGHT_INIT);
    let serviceWorker: Worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
    const extensionId = new URL(serviceWorker.url()).host;
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/extension/options/index.html`);
    const send = <T>(message: object): Promise<T> =>
      options.evaluate((m) => (globalThis as unknown as { chrome: { runtime: { sendMessage(m: object): Promise<unknown> } } }).chrome.runtime.sendMessage(m), message) as Promise<T>;
    const stats = () => send<{ topic: Topic | null; counts: { byLabel: { on: number; off: number } } }>({ type: 'stats/get' });

    await options.click('#topic-new');
    await options.fill('#topic-form [name=name]', 'Debian 打包与系统');
    await options.fill('#topic-form [name=positive]', onSites.map((site) => `${server.origin}/site/${site}/*`).join('\n'));
    await options.fill('#topic-form [name=negative]', offSites.map((site) => `${server.origin}/site/${site}/*`).join('\n'));
    await options.click('#topic-form button[type=submit]');
    for (let i = 0; (await stats()).topic === null; i++) {
      if (i > 100) throw new Error('the options page did not create the topic');
      await options.waitForTimeout(100);
    }

    const trainingStart = performance.now();
    const browse = await context.newPage();
    for (const path of trainingPaths) {
      await browse.goto(`${server.origin}${path}`, { waitUntil: 'load' });
      await browse.evaluate(settledJs(60_000));
    }
    await browse.close();
    const trained = await stats();
    const topic = trained.topic!;
    console.log(
      `Topic: trained by browsing ${trainingPaths.length} pages in ${((performance.now() - trainingStart) / 1000).toFixed(1)} s: ` +
        `${trained.counts.byLabel.on} on-topic and ${trained.counts.byLabel.off} off-topic examples, threshold ${topic.threshold}`,
    );

    const ensureLog = async () => {
      serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
      await serviceWorker.evaluate(INSTALL_LOG_JS);
    };

    /** One page load in a new tab; with `trace`, also its main-thread tasks. */
    const extensionRun = async (expected: number, trace: boolean): Promise<{ run: ExtensionRun; tasks: TaskSummary | null }> => {
      await ensureLog();
      const { url, run } = pageFor();
      const page: Page = await context.newPage();
      const tracing = trace ? await MainThreadTrace.start(await context.newCDPSession(page)) : null;
      await page.goto(url, { waitUntil: 'load' });
      const settled = (await page.evaluate(settledJs(120_000))) as Settled;
      const tasks = tracing ? await tracing.stop(url, extensionId, TRACE_DIR === undefined ? undefined : join(TRACE_DIR, `extension-run-${run}.json`)) : null;
      const marked = await page.locator(`[${LEVEL}]`).count();
      await page.close();
      if (settled.total !== expected) console.warn(`  warning: ${url} settled with ${settled.total} links, expected ${expected}`);
      const log = ((await serviceWorker.evaluate('self.linkscentBenchLog.splice(0)')) as LogEntry[]).filter((e) => e.url === url);
      const at = (type: string) => {
        const entry = log.find((e) => e.type === type);
        return entry ? entry.t - settled.timeOrigin : null;
      };
      return { run: { settled, marked, settingsAt: at('page/settings'), firstLinksAt: at('page/links'), batches: log.filter((e) => e.type === 'page/links').length }, tasks };
    };

    /** The same kind of page in the Chromium without the extension; traced until load + 500 ms. */
    const baselineRun = async (trace: boolean): Promise<{ times: PageTimes; tasks: TaskSummary | null }> => {
      const { url } = pageFor();
      const page = await plain.newPage();
      const tracing = trace ? await MainThreadTrace.start(await plain.newCDPSession(page)) : null;
      await page.goto(url, { waitUntil: 'load' });
      const times = (await page.evaluate(NAVIGATION_JS)) as PageTimes;
      if (tracing) await page.waitForTimeout(500);
      const tasks = tracing ? await tracing.stop(url, 'none') : null;
      await page.close();
      return { times, tasks };
    };

    /** RUNS runs after a warm-up, each extension run right after a baseline run (same machine load). */
    const series = async (expected: number, trace: boolean, withBaseline: boolean) => {
      const runs: ExtensionRun[] = [];
      const tasks: TaskSummary[] = [];
      const baseline: PageTimes[] = [];
      const baselineTasks: TaskSummary[] = [];
      for (let i = 0; i <= RUNS; i++) {
        const plainResult = withBaseline ? await baselineRun(trace) : null;
        const result = await extensionRun(expected, trace);
        if (VERBOSE) {
          const r = result.run;
          console.error(
            `  run ${i}${trace ? ' traced' : ''}: cap ${expected}, baseline load ${plainResult?.times.load.toFixed(0) ?? '-'}, ` +
              `ext DCL ${r.settled.domContentLoaded.toFixed(0)} load ${r.settled.load.toFixed(0)} settings ${r.settingsAt?.toFixed(0)} ` +
              `first batch ${r.firstLinksAt?.toFixed(0)} first lit ${r.settled.firstHighlight?.toFixed(0) ?? '-'} settled ${r.settled.settledAt.toFixed(0)} total ${r.settled.total} marked ${r.marked}` +
              (result.tasks ? ` longest ${result.tasks.longestExtensionMs.toFixed(1)} (CPU ${result.tasks.longestExtensionCpuMs.toFixed(1)}; ${result.tasks.longestExtensionInside})` : ''),
          );
        }
        if (i === 0) continue; // warm-up
        runs.push(result.run);
        if (result.tasks) tasks.push(result.tasks);
        if (plainResult) baseline.push(plainResult.times);
        if (plainResult?.tasks) baselineTasks.push(plainResult.tasks);
      }
      return { runs, tasks, baseline, baselineTasks };
    };

    // ---- default cap, then the cap raised to the page's size -------------------------------
    const defaultCap = await series(Math.min(DEFAULT_CAP, contexts.length), false, false);
    const saved = await send<{ ok: boolean; error?: string }>({ type: 'settings/save', settings: { maxLinksPerPage: Math.max(LINKS, DEFAULT_CAP) } });
    if (!saved.ok) throw new Error(`settings/save: ${saved.error}`);
    const full = await series(contexts.length, false, true);
    const traced = await series(contexts.length, true, true);
    const { baseline } = full;
    const { baselineTasks } = traced;

    // ---- the Worker on its own ----------------------------------------------------------------
    const offscreenUrl = `chrome-extension://${extensionId}/extension/offscreen/offscreen.html`;
    const probes: ProbeResult[][] = [];
    for (let i = 0; i <= RUNS; i++) {
      const { html, url } = pageFor();
      const fresh = pageContexts(html, url);
      const salted = probeLinks(fresh, `bench${i}`);
      const sets: ProbeSet[] = [
        { label: 'cold', links: salted, batch: 100 },
        { label: 'warm', links: salted, batch: 100 },
        { label: 'warm-all', links: salted, batch: salted.length },
      ];
      const result = await probeWorker(serviceWorker, offscreenUrl, topic, sets);
      // The fixed cost of a call: 50 calls of one empty link each.
      const blank = probeLinks(fresh.slice(0, 50)).map((link) => ({ ...link, anchor: '', before: '', after: '' }));
      const roundTrip = await probeWorker(serviceWorker, offscreenUrl, topic, [{ label: 'round-trip', links: blank, batch: 1 }]);
      if (i > 0) probes.push([...result, ...roundTrip]);
    }

    // ---- optional: where the Worker's time goes -------------------------------------------
    if (WORKER_PROFILE) {
      let profiler = await WorkerProfiler.start(offscreenUrl, WORKER_NAME);
      await extensionRun(contexts.length, false);
      await profiler.stop(`${WORKER_PROFILE}-page.cpuprofile`);
      const { html, url } = pageFor();
      const salted = probeLinks(pageContexts(html, url), 'profile');
      profiler = await WorkerProfiler.start(offscreenUrl, WORKER_NAME);
      await probeWorker(serviceWorker, offscreenUrl, topic, [{ label: 'cold', links: salted, batch: 100 }]);
      await profiler.stop(`${WORKER_PROFILE}-probe.cpuprofile`);
      console.log(`Worker profiles: ${WORKER_PROFILE}-page.cpuprofile, ${WORKER_PROFILE}-probe.cpuprofile`);
    }

    // ---- the table -------------------------------------------------------------------------
    const f = full.runs;
    heading(`Page load, ms after navigation start (${RUNS} runs each)`);
    row('baseline, no extension: DOMContentLoaded', baseline.map((t) => t.domContentLoaded), 'ms');
    row('baseline, no extension: load event end', baseline.map((t) => t.load), 'ms');
    row('extension: DOMContentLoaded', f.map((r) => r.settled.domContentLoaded), 'ms');
    row('extension: load event end', f.map((r) => r.settled.load), 'ms');

    heading(`Verdicts for all ${contexts.length.toLocaleString('en-US')} links, cap raised to ${Math.max(LINKS, DEFAULT_CAP).toLocaleString('en-US')}`);
    row('content script started (page/settings)', f.flatMap((r) => (r.settingsAt === null ? [] : [r.settingsAt])), 'ms');
    row('first highlight (first link lit)', f.flatMap((r) => (r.settled.firstHighlight === null ? [] : [r.settled.firstHighlight])), 'ms');
    row('extraction done (first page/links)', f.flatMap((r) => (r.firstLinksAt === null ? [] : [r.firstLinksAt])), 'ms');
    row('ALL LINKS HAVE VERDICTS (settled mark)', f.map((r) => r.settled.settledAt), 'ms');
    row('  of which after the load event', f.map((r) => r.settled.settledAt - r.settled.load), 'ms');
    row('  extraction: page/settings → first batch', f.flatMap((r) => (r.settingsAt === null || r.firstLinksAt === null ? [] : [r.firstLinksAt - r.settingsAt])), 'ms');
    row('  batches: first batch → settled', f.flatMap((r) => (r.firstLinksAt === null ? [] : [r.settled.settledAt - r.firstLinksAt])), 'ms');
    row('page/links messages', f.map((r) => r.batches), 'batches');
    row('end-to-end scoring rate (batches phase)', f.flatMap((r) => (r.firstLinksAt === null ? [] : [r.settled.total / ((r.settled.settledAt - r.firstLinksAt) / 1000)])), 'links/s');
    row('links with verdicts (mark detail.total)', f.map((r) => r.settled.total), 'links');
    row('marked on topic (data-linkscent-level)', f.map((r) => r.marked), 'links');

    const d = defaultCap.runs;
    heading(`Default cap (maxLinksPerPage ${DEFAULT_CAP.toLocaleString('en-US')})`);
    row('first highlight (first link lit)', d.flatMap((r) => (r.settled.firstHighlight === null ? [] : [r.settled.firstHighlight])), 'ms');
    row('all capped links have verdicts (settled)', d.map((r) => r.settled.settledAt), 'ms');
    row('  of which after the load event', d.map((r) => r.settled.settledAt - r.settled.load), 'ms');
    row('links with verdicts', d.map((r) => r.settled.total), 'links');
    row('marked on topic', d.map((r) => r.marked), 'links');

    const t = traced.tasks;
    heading('Main thread, from traced runs (CDP Tracing; tracing itself slows tasks)');
    row('longest content-script task', t.map((s) => s.longestExtensionMs), 'ms', 1);
    row('  its CPU time (thread time)', t.map((s) => s.longestExtensionCpuMs), 'ms', 1);
    row('content-script tasks, total time', t.map((s) => s.extensionTotalMs), 'ms');
    row('content-script tasks', t.map((s) => s.extensionTasks), 'tasks');
    row('content-script tasks over 50 ms', t.map((s) => s.extensionOver50), 'tasks');
    row('longest task of the page itself (ext. runs)', t.map((s) => s.longestOtherMs), 'ms', 1);
    row('longest task, baseline (no extension)', baselineTasks.map((s) => s.longestOtherMs), 'ms', 1);
    row('main thread busy, baseline to load+500 ms', baselineTasks.map((s) => s.mainThreadTotalMs), 'ms');
    row('main thread busy, extension to settled', t.map((s) => s.mainThreadTotalMs), 'ms');
    row('traced: all links have verdicts', traced.runs.map((r) => r.settled.settledAt), 'ms');

    heading('Scoring Worker (offscreen document), scoreLinks through its comlink port');
    const probe = (label: string) => probes.map((p) => p.find((r) => r.label === label)!);
    row('texts new to the tokenizer, batches of 100', probe('cold').map((r) => r.contextsPerSecond), 'contexts/s');
    row('same texts again, batches of 100', probe('warm').map((r) => r.contextsPerSecond), 'contexts/s');
    row(`same texts, one call of ${contexts.length}`, probe('warm-all').map((r) => r.contextsPerSecond), 'contexts/s');
    row('one call of one empty link, round trip', probe('round-trip').map((r) => r.ms / r.links), 'ms', 2);
    printTable();
    const jsonPath = process.env['LINKSCENT_BENCH_JSON'];
    if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify({ bench: 'extension', chromium: chromiumVersion(), runs: RUNS, links: LINKS, realText: docs, figures }, null, 2)}\n`);
    console.log(`\nLoad average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (other work on the machine widens min–max)`);

    const worst = t.reduce<TaskSummary | undefined>((a, b) => (a === undefined || b.longestExtensionMs > a.longestExtensionMs ? b : a), undefined);
    if (worst) console.log(`\nLongest content-script task seen: ${worst.longestExtensionMs.toFixed(1)} ms (CPU ${worst.longestExtensionCpuMs.toFixed(1)} ms) at ${worst.longestExtensionAt.toFixed(0)} ms (${worst.longestExtensionInside})`);
  } finally {
    for (const c of contextsToClose) await c.close().catch(() => undefined);
    await server.close();
    for (const dir of [...profiles, extension]) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
