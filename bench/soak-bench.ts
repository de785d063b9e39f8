/**
 * `npm run bench -- soak`, or on its own: `node --import tsx bench/soak-bench.ts`.
 *
 * Issue 13 item 12, "the service stays responsive": the real service (`linkscent serve`, a child
 * process of its own, so its RSS is its own and the bench's clients do not share its event loop)
 * with 20 crawls and 200 server-sent-event clients for 5 minutes, on the Debian documentation web
 * of `support/local-web.ts` (one loopback address per site; `support/loopback-guard.mjs` preloaded
 * in the service, so the documents' links to real sites never leave the machine).
 *
 *   1. a model: `collect` (300 pages breadth-first from the portal at concurrency 1, so the same pages every run; on topic = a URL matching
 *      `*\/text/scalc/*`, LibreOffice Calc's help) and `train --positive` (the pattern kept in
 *      the model, so the nb crawls judge pages and learn online), command-line children
 *   2. the service started on a free port with a fresh home; the model uploaded
 *   3. 20 crawls through `POST /api/crawls`: 12 nb with the model, 4 bfs with the model (judged
 *      and labelled by its pattern), 4 bfs without; seeds alternate between the portal and a
 *      site's hub; maxPages 1,000, 2,000 or 4,000 so some end during the soak; delay 0,
 *      concurrency 4: the crawls take all the CPU they can get, the worst case for the service
 *   4. 200 event streams (`GET /api/crawls/:id/events`), 10 per crawl, opened at once
 *   5. for the soak's length, `GET /api/crawls` on a new connection every 100 ms: its latency
 *      from request to last byte, p50 / p90 / p99 / max; the service's RSS read from
 *      /proc/<pid>/status every 500 ms (peak = VmHWM, end = VmRSS at the end)
 *   6. at the end every crawl still running is stopped (`POST …/stop`), and every stream must
 *      get its `end` event: how many did, and how late after the crawl ended (a crawl that ended
 *      on its own: the `updatedAt` of its final crawl.json, written as it ended; a stopped one:
 *      when the stop was sent)
 *
 * Goals (the issue's): p99 ≤ 200 ms, RSS ≤ 500 MB, every stream ends.
 *
 * Knobs: LINKSCENT_SOAK_SECONDS (default 300), LINKSCENT_BENCH_PORT (the local web's port,
 * default 8474 here so the soak can run next to the other benches), LINKSCENT_SOAK_NODE_OPTIONS
 * (extra node flags for the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`; the service
 * is stopped with SIGTERM, so the profile is written). Everything written goes into a temporary
 * directory, removed at the end (LINKSCENT_SOAK_KEEP=1 keeps it). Figures depend on the load
 * of the machine, printed at the start and the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { linkscent, ROOT } from './support/cli-child.ts';
import { startLocalWeb, type LocalWeb } from './support/local-web.ts';
import { sseFrames } from '../tools/sse-frames.ts';
import { fmt, loadLine, table } from './support/measure.ts';

const SECONDS = Number(process.env.LINKSCENT_SOAK_SECONDS) || 300;
const WEB_PORT = Number(process.env.LINKSCENT_BENCH_PORT) || 8474;
const CRAWLS = 20;
const CLIENTS = 200;
const POLL_EVERY_MS = 100;
const TOPIC_PATTERN = '*/text/scalc/*';
const MAX_PAGES = [1000, 2000, 4000];
/** How long the streams get to end once the last crawl is stopped. */
const END_GRACE_MS = 60_000;
const GUARD = join(ROOT, 'bench', 'support', 'loopback-guard.mjs');
const CLI = join(ROOT, 'companion', 'bin', 'linkscent.mjs');

interface Service {
  child: ChildProcess;
  port: number;
  token: string;
  home: string;
  stderr: string[];
}

interface Reply {
  status: number;
  text: string;
  ms: number;
}

/** One request on a new connection; `ms` from the request to the reply's last byte. */
function call(service: Service, path: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string> = { host: `127.0.0.1:${service.port}`, authorization: `Bearer ${service.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = httpRequest({ host: '127.0.0.1', port: service.port, path, method: body === undefined ? 'GET' : 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `linkscent serve` in a child, on a free port, its home `home`; resolves once it printed its token. */
function startService(home: string): Promise<Service> {
  const extra = (process.env.LINKSCENT_SOAK_NODE_OPTIONS ?? '').split(/\s+/).filter((flag) => flag !== '');
  const child = spawn(process.execPath, [...extra, '--import', GUARD, CLI, 'serve', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, LINKSCENT_HOME: home, TMPDIR: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => stderr.push(...chunk.split('\n').filter((line) => line !== '')));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const token = /pairing token: (\S+)/.exec(out)?.[1];
      if (port && token) resolve({ child, port: Number(port), token, home, stderr });
    });
    child.on('exit', (code) => reject(new Error(`linkscent serve exited ${code} before it listened: ${stderr.slice(-3).join(' / ')}`)));
  });
}

/** The service's memory now, from /proc: resident (VmRSS) and peak resident (VmHWM), bytes. */
function serviceMemory(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

interface Stream {
  crawl: string;
  status: number;
  events: number;
  /** Epoch ms of its `end` event. */
  endAt?: number;
  closedAt?: number;
  error?: string;
}

/** A client of a crawl's events, counting them until `end`. */
function openStream(service: Service, crawl: string): Stream {
  const stream: Stream = { crawl, status: 0, events: 0 };
  const req = httpRequest(
    { host: '127.0.0.1', port: service.port, path: `/api/crawls/${crawl}/events`, headers: { host: `127.0.0.1:${service.port}`, authorization: `Bearer ${service.token}` }, agent: false },
    (res) => {
      stream.status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on(
        'data',
        sseFrames((event) => {
          stream.events++;
          if (event === 'end') stream.endAt ??= Date.now();
        }),
      );
      res.on('end', () => (stream.closedAt = Date.now()));
      res.on('error', (error) => (stream.error = error.message));
    },
  );
  req.on('error', (error) => (stream.error = error.message));
  req.end();
  return stream;
}

const percentile = (sorted: readonly number[], p: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
const ms = (x: number) => `${fmt(x, 3)} ms`;
const mbOf = (bytes: number) => `${fmt(bytes / 1e6, 3)} MB`;
const sleep = (t: number) => new Promise((resolve) => setTimeout(resolve, t));

interface CrawlPlan {
  id?: string;
  kind: 'nb' | 'bfs + model' | 'bfs';
  seed: string;
  maxPages: number;
  stoppedAt?: number;
}

function plans(web: LocalWeb): CrawlPlan[] {
  return Array.from({ length: CRAWLS }, (_, i) => ({
    kind: i % 5 < 3 ? 'nb' : i % 5 === 3 ? 'bfs + model' : 'bfs',
    seed: i % 2 === 0 ? web.portal : web.sites[i % web.sites.length]!.hub,
    maxPages: MAX_PAGES[i % MAX_PAGES.length]!,
  }));
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'linkscent-soak-'));
  const web = await startLocalWeb({ port: WEB_PORT });
  let service: Service | undefined;
  try {
    console.log(`soak bench: ${web.sites.length} sites + portal ${web.portal}; ${CRAWLS} crawls, ${CLIENTS} event streams, ${SECONDS} s; ${loadLine()}`);
    const labeled = join(work, 'labeled.jsonl');
    const modelFile = join(work, 'model.json');
    const env = { TMPDIR: work };
    await linkscent(['collect', web.portal, '--positive', TOPIC_PATTERN, '--max-pages', '300', '--delay-ms', '0', '--concurrency', '1', '--topic', 'calc', '--out', labeled], env);
    const trained = await linkscent(['train', labeled, '--out', modelFile, '--features', '2', '--positive', TOPIC_PATTERN], env);
    console.log(`model: ${trained.stdout.trim().split('\n').at(-1)}`);

    service = await startService(join(work, 'home'));
    const pid = service.child.pid!;
    const uploaded = await call(service, '/api/models', readFileSync(modelFile, 'utf8'));
    if (uploaded.status !== 201) throw new Error(`POST /api/models: ${uploaded.status} ${uploaded.text}`);
    const { modelId } = JSON.parse(uploaded.text) as { modelId: string };

    let peakRss = 0;
    let lastRss = 0;
    const memoryTimer = setInterval(() => {
      const memory = serviceMemory(pid);
      if (memory) [peakRss, lastRss] = [Math.max(peakRss, memory.peak), memory.rss];
    }, 500);

    // The bench's own event loop (the local web, the streams, the poller): a delay here would be
    // counted against the service, so it is printed.
    const benchLoop = monitorEventLoopDelay({ resolution: 10 });
    benchLoop.enable();
    const crawls = plans(web);
    const soakStart = Date.now();
    await Promise.all(
      crawls.map(async (plan) => {
        const body = { seeds: [plan.seed], maxPages: plan.maxPages, delayMs: 0, concurrency: 4, ...(plan.kind === 'bfs' ? {} : { modelId, strategy: plan.kind === 'nb' ? 'nb' : 'bfs' }) };
        const reply = await call(service!, '/api/crawls', JSON.stringify(body));
        if (reply.status !== 201) throw new Error(`POST /api/crawls: ${reply.status} ${reply.text}`);
        plan.id = (JSON.parse(reply.text) as { id: string }).id;
      }),
    );
    const streams = Array.from({ length: CLIENTS }, (_, i) => openStream(service!, crawls[i % CRAWLS]!.id!));

    // The soak: GET /api/crawls every POLL_EVERY_MS, one at a time.
    const latencies: number[] = [];
    let failures = 0;
    const soakEnd = soakStart + SECONDS * 1000;
    while (Date.now() < soakEnd) {
      const started = performance.now();
      const reply = await call(service, '/api/crawls').catch(() => undefined);
      if (reply?.status === 200) latencies.push(reply.ms);
      else failures++;
      if (process.env.LINKSCENT_SOAK_TRACE === '1') console.log(`${((Date.now() - soakStart) / 1000).toFixed(1)} s: GET /api/crawls ${reply ? ms(reply.ms) : 'failed'}`);
      await sleep(Math.max(0, POLL_EVERY_MS - (performance.now() - started)));
    }

    // Stop what still runs; every stream must end.
    const listed = JSON.parse((await call(service, '/api/crawls')).text) as { id: string; state: string; progress: { fetched: number } }[];
    const endedOnTheirOwn = listed.filter((info) => info.state !== 'running').length;
    await Promise.all(
      crawls.map(async (plan) => {
        if (listed.find((info) => info.id === plan.id)?.state !== 'running') return;
        plan.stoppedAt = Date.now();
        await call(service!, `/api/crawls/${plan.id}/stop`, '');
      }),
    );
    const graceEnd = Date.now() + END_GRACE_MS;
    while (streams.some((s) => s.endAt === undefined && s.error === undefined && s.closedAt === undefined) && Date.now() < graceEnd) await sleep(100);
    clearInterval(memoryTimer);
    const endMemory = serviceMemory(pid);
    if (endMemory) [peakRss, lastRss] = [Math.max(peakRss, endMemory.peak), endMemory.rss];

    // How late each stream's end came after its crawl ended.
    const final = JSON.parse((await call(service, '/api/crawls')).text) as { id: string; state: string; progress: { fetched: number; pagesPerSecond: number } }[];
    const endedAt = new Map<string, number>();
    for (const plan of crawls) {
      const record = JSON.parse(readFileSync(join(service.home, 'crawls', plan.id!, 'crawl.json'), 'utf8')) as { updatedAt: number };
      endedAt.set(plan.id!, plan.stoppedAt ?? record.updatedAt);
    }
    const lateness = streams.flatMap((s) => (s.endAt === undefined ? [] : [Math.max(0, s.endAt - endedAt.get(s.crawl)!)])).sort((a, b) => a - b);
    const ended = streams.filter((s) => s.endAt !== undefined).length;
    const refused = streams.filter((s) => s.status !== 200).length;

    const rows: string[][] = [['crawl', 'strategy', 'seed', 'maxPages', 'state', 'fetched', 'pages/s', 'ended']];
    crawls.forEach((plan, i) => {
      const info = final.find((c) => c.id === plan.id)!;
      const seed = plan.seed === web.portal ? 'portal' : new URL(plan.seed).hostname;
      rows.push([String(i + 1), plan.kind, seed, String(plan.maxPages), info.state, String(info.progress.fetched), fmt(info.progress.pagesPerSecond, 3), plan.stoppedAt ? 'stopped at the end' : 'on its own']);
    });
    console.log(table(rows));
    latencies.sort((a, b) => a - b);
    console.log(
      `\nGET /api/crawls, ${latencies.length} requests over ${SECONDS} s (${failures} failed): p50 ${ms(percentile(latencies, 50))} · p90 ${ms(percentile(latencies, 90))} · p99 ${ms(percentile(latencies, 99))} · max ${ms(latencies.at(-1) ?? Number.NaN)}  (goal p99 ≤ 200 ms)`,
    );
    benchLoop.disable();
    console.log(`the bench's own event loop delay: p99 ${ms(benchLoop.percentile(99) / 1e6)} · max ${ms(benchLoop.max / 1e6)}`);
    console.log(`service RSS: peak ${mbOf(peakRss)} · at the end ${mbOf(lastRss)}  (goal ≤ 500 MB; the service's own process, /proc/${pid}/status)`);
    console.log(
      `event streams: ${ended}/${CLIENTS} got end (${refused} refused, ${streams.filter((s) => s.error).length} cut); ${endedOnTheirOwn} crawls ended on their own, ${CRAWLS - endedOnTheirOwn} stopped at the end; end after the crawl ended: p50 ${ms(percentile(lateness, 50))} · max ${ms(lateness.at(-1) ?? Number.NaN)}`,
    );
    const pages = final.reduce((n, c) => n + c.progress.fetched, 0);
    console.log(`pages fetched by all crawls: ${pages} (${fmt(pages / SECONDS, 3)} pages/s); service log lines: ${service.stderr.length}; ${loadLine()}`);
    const json = process.env.LINKSCENT_BENCH_JSON;
    if (json) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(
        json,
        JSON.stringify({ seconds: SECONDS, latencyMs: { p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), max: latencies.at(-1), n: latencies.length }, rss: { peak: peakRss, end: lastRss }, streams: { ended, of: CLIENTS, latenessMs: { p50: percentile(lateness, 50), max: lateness.at(-1) } }, pages }, null, 2),
      );
    }
  } finally {
    if (service) await stopService(service);
    await web.close();
    if (process.env.LINKSCENT_SOAK_KEEP === '1') console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** SIGTERM, as Ctrl-C would: the service winds its crawls down and exits (a --cpu-prof is written). */
async function stopService(service: Service): Promise<void> {
  if (service.child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => service.child.once('exit', () => resolve()));
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

await main();
