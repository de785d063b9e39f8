/**
 * Parse threads: the crawl's HTML parsing and context extraction off the event loop.
 *
 * Why: a crawl's event loop fetches, parses, scores and commits, one page after the other, and
 * on a machine with a second core it was the one thing busy. Profiled on the crawl bench's local
 * web (nb, 2,000 pages, concurrency 8, `node --cpu-prof`), the event loop was busy 92 % of the
 * time, and parsing (htmlparser2 and the segment builder, `segmentsFromHtml`) was its largest
 * part: 17 % of it, 22 % for bfs. A page's parse needs nothing but its HTML and URL, so it can
 * run on another core while the event loop fetches, scores and commits other pages.
 *
 * A pool of threads (`worker_threads`), each running `parsePage` (`parse-page.ts`), the function
 * the event loop runs when there are none: a page's segments and contexts are the same on either
 * (test/companion/parse). A page goes to the thread with the fewest pages waiting. What crosses
 * over is kept cheap for the event loop, which pays for it: a page goes as its undecoded bytes
 * (one copy, whose buffer is moved rather than cloned; the thread decodes it), and its segments
 * come back packed (`packed-page.ts`). A crawl's link rules are sent to a thread once, before
 * its first page. The threads start with the pool's first page (`#want`), and until one has
 * loaded (its script bundled, `thread-script.ts`, then run: about 200 ms), pages are parsed on the
 * event loop, so the first requests do not wait.
 *
 * A thread that dies (its heap's limit reached on a hostile page, a crash) fails the pages it
 * held, each with one line naming what happened, and a new one takes its place; after
 * `MAX_RESTARTS` deaths the pool parses on the event loop, and says so once.
 *
 * One pool per process and thread count, shared by the crawls running in it (the service runs
 * many): `acquireParsePool`. Idle threads do not keep the process alive.
 */
import { Worker } from 'node:worker_threads';
import type { CompiledLinkRules } from '../crawl/link-rules.ts';
import { holdYoungGeneration } from '../platform/heap-growth.ts';
import { unpackPage } from './packed-page.ts';
import type { PageRequest, ParseReply, ParseRequest } from './parse-messages.ts';
import { parsePage, type PageToParse, type ParsedPage } from './parse-page.ts';
import { MAX_PARSE_THREADS } from './thread-count.ts';
import { parseThreadScript } from './thread-script.ts';

/** Thread deaths after which a pool stops starting new ones. */
export const MAX_RESTARTS = 3;

/**
 * A thread's heap. Old generation: a page is bounded in bytes by the fetch layer (5 MB by
 * default), but its segments can take several times that; a page that still blows the limit
 * costs its thread, not the crawl. Young generation: a thread keeps nothing between pages, and
 * V8's default semi-spaces let it hold 30 MB more of garbage (crawl bench, bfs: RSS 342 → 311 MB).
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 4 };

/** What a thread runs: the bundled parse thread, or (tests) a script file of its own. */
type ThreadScript = { code: string } | { file: URL };

/**
 * Put before the bundled thread's code: its first statement, which runs once the thread's heap
 * exists, wakes the event loop waiting in `ParseThread`'s constructor (see there).
 */
const STARTED_SIGNAL = `{const s=require('node:worker_threads').workerData;Atomics.store(s,0,1);Atomics.notify(s,0);}\n`;

/** Most ms the event loop waits for a new thread's first statement (one that never starts: the thread's own error says why). */
const START_WAIT_MS = 2000;

export interface ParsePoolOptions {
  /** A script file the threads run instead of the parse thread's bundle; tests give failing ones. */
  entry?: URL;
}

interface Waiting {
  resolve(parsed: ParsedPage): void;
  reject(error: Error): void;
}

/** One worker thread and the pages it holds. */
class ParseThread {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  /** The numbers of the link rules this thread has been sent. */
  readonly #rules = new Set<number>();
  #ready = false;
  #gone = false;
  #settleLoad!: () => void;
  /** Resolves once the thread has loaded its modules, or died trying. */
  readonly loaded = new Promise<void>((resolve) => {
    this.#settleLoad = resolve;
  });

  /** `onGone` hears once, with one line, that the thread died; its waiting pages are failed already. */
  constructor(script: ThreadScript, onGone: (thread: ParseThread, reason: string) => void) {
    // No execArgv: the parent's preloads (`--import` of a loader or a network guard, a profiler's
    // flags) are for its own work, and a thread cannot load a TypeScript preload anyway.
    const options = { execArgv: [], resourceLimits: THREAD_HEAP };
    // Making the thread's heap sets V8's young generation growth back to its default for every
    // isolate, the event loop's too (platform/heap-growth.ts), and a scavenge of the event loop's
    // before it is held again can double its new space, twice at times (8 → 33.5 MB at the
    // frontier bench's nb RSS peak, issue 14). So the event loop waits here, allocating nothing,
    // until the thread's first statement runs (40 ms on an idle machine, once per thread; the
    // pool starts its threads with its first page, after a crawl's first request), then holds it.
    if ('code' in script) {
      const started = new Int32Array(new SharedArrayBuffer(4));
      this.#worker = new Worker(STARTED_SIGNAL + script.code, { ...options, eval: true, workerData: started });
      Atomics.wait(started, 0, 0, START_WAIT_MS);
      holdYoungGeneration();
    } else {
      this.#worker = new Worker(script.file, options);
    }
    this.#worker.unref();
    this.#worker.once('online', holdYoungGeneration); // a test's script file, or a thread slower than START_WAIT_MS
    const gone = (reason: string) => {
      if (this.#gone) return;
      this.#gone = true;
      this.#settleLoad();
      const error = new Error(`the parse thread stopped while parsing the page: ${reason}`);
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
      onGone(this, reason);
    };
    this.#worker.on('message', (reply: ParseReply) => this.#answer(reply));
    this.#worker.on('error', (error) => gone(error.message.split('\n')[0]!));
    this.#worker.on('exit', (code) => gone(`exit code ${code}`));
  }

  /** Loaded, alive, and so taking pages. */
  get usable(): boolean {
    return this.#ready && !this.#gone;
  }

  /** Pages sent and not yet answered. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /** `rules`: the link rules the page names, sent first unless this thread has them. */
  parse(request: PageRequest, rules: CompiledLinkRules | undefined): Promise<ParsedPage> {
    return new Promise((resolve, reject) => {
      // A thread holding pages keeps the process alive: the crawl awaits them.
      if (this.#waiting.size === 0) this.#worker.ref();
      this.#waiting.set(request.id, { resolve, reject });
      if (request.links && rules && !this.#rules.has(request.links.rules)) {
        this.#rules.add(request.links.rules);
        this.#post({ rules: request.links.rules, source: rules.source });
      }
      if (typeof request.html === 'string') {
        this.#post(request);
      } else {
        // A copy of the bytes, whose buffer moves to the thread: the page keeps its own (its
        // WARC record, a hook reading its text), which may also be a view into a larger one.
        const bytes = new Uint8Array(request.html.bytes);
        this.#post({ ...request, html: { ...request.html, bytes } }, [bytes.buffer]);
      }
    });
  }

  /** Tells the thread it may drop the rules numbered `id`, if it was sent them. */
  forget(id: number): void {
    if (this.#rules.delete(id) && !this.#gone) this.#post({ forget: id });
  }

  #post(message: ParseRequest, transfer: ArrayBuffer[] = []): void {
    this.#worker.postMessage(message, transfer);
  }

  async terminate(): Promise<void> {
    this.#gone = true;
    await this.#worker.terminate();
  }

  #answer(reply: ParseReply): void {
    if ('ready' in reply) {
      this.#ready = true;
      this.#settleLoad();
      return;
    }
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#worker.unref();
    if ('parsed' in reply) {
      waiting.resolve({ ...reply.parsed, page: unpackPage(reply.parsed.page) });
    } else {
      const error = new Error(reply.error.message);
      error.name = reply.error.name;
      waiting.reject(error);
    }
  }
}

export class ParsePool {
  readonly size: number;
  /** Settles once the threads are started, or failed to (see `#failed`). */
  readonly #started: Promise<void>;
  #script: ThreadScript | undefined;
  /** Threads asked for: by the first page, or by `loaded()`. Started once the script is there. */
  #wanted = false;
  readonly #threads: ParseThread[] = [];
  readonly #listeners = new Set<(line: string) => void>();
  #deaths = 0;
  #nextId = 0;
  /** The number each crawl's link rules go to the threads under. */
  readonly #ruleIds = new WeakMap<CompiledLinkRules, number>();
  #nextRulesId = 0;
  #closed = false;

  constructor(size: number, options: ParsePoolOptions = {}) {
    if (!Number.isInteger(size) || size < 1 || size > MAX_PARSE_THREADS) throw new RangeError(`a parse pool has 1 to ${MAX_PARSE_THREADS} threads, got ${size}`);
    this.size = size;
    const script: Promise<ThreadScript> = options.entry ? Promise.resolve({ file: options.entry }) : parseThreadScript().then((code) => ({ code }));
    this.#started = script.then(
      (ready) => {
        if (this.#closed) return;
        this.#script = ready;
        if (this.#wanted) this.#startAll();
      },
      (error: unknown) => this.#report(`crawl: the parse threads could not be built (${String((error as Error)?.message ?? error).split('\n')[0]}); parsing on the main thread`),
    );
  }

  /** `log` hears the pool's one-line reports (a thread that died) while it is listening. */
  listen(log: (line: string) => void): () => void {
    this.#listeners.add(log);
    return () => this.#listeners.delete(log);
  }

  /**
   * The page parsed (`parsePage`): by the least busy thread, or here and now while no thread is
   * ready. Rejects with the parse's own error, or with one naming a thread that died.
   */
  parse(job: PageToParse): ParsedPage | Promise<ParsedPage> {
    this.#want();
    let thread: ParseThread | undefined;
    for (const candidate of this.#threads) {
      if (candidate.usable && (!thread || candidate.waiting < thread.waiting)) thread = candidate;
    }
    if (!thread || this.#closed) return parsePage(job);
    const { html, pageUrl, window, links } = job;
    const request: PageRequest = { id: this.#nextId++, html, pageUrl, window };
    if (links) {
      let rules = this.#ruleIds.get(links.rules);
      if (rules === undefined) this.#ruleIds.set(links.rules, (rules = this.#nextRulesId++));
      request.links = { askedUrl: links.askedUrl, rules };
    }
    return thread.parse(request, links?.rules);
  }

  /** The crawl that used `rules` has ended: the threads drop them. */
  forget(rules: CompiledLinkRules): void {
    const id = this.#ruleIds.get(rules);
    if (id === undefined) return;
    this.#ruleIds.delete(rules);
    for (const thread of this.#threads) thread.forget(id);
  }

  /** Resolves once every thread started so far has loaded (or died): pages go to threads from then on. */
  async loaded(): Promise<void> {
    this.#want();
    await this.#started;
    await Promise.all(this.#threads.map((thread) => thread.loaded));
  }

  /** Pages waiting in the threads (the pool's backlog). */
  get waiting(): number {
    return this.#threads.reduce((sum, thread) => sum + thread.waiting, 0);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#threads.splice(0).map((thread) => thread.terminate()));
  }

  /**
   * The threads start with the pool's first page, not with the pool: starting one blocks the
   * event loop until the thread runs (`ParseThread`), which at a crawl's start would come before
   * its first request; with its first page, that request has been answered, and the page is
   * parsed here meanwhile as it would have been anyway.
   */
  #want(): void {
    if (this.#wanted) return;
    this.#wanted = true;
    if (this.#script && !this.#closed) this.#startAll();
  }

  #startAll(): void {
    for (let i = 0; i < this.size; i++) this.#start();
  }

  #start(): void {
    this.#threads.push(new ParseThread(this.#script!, (thread, reason) => this.#gone(thread, reason)));
  }

  #gone(thread: ParseThread, reason: string): void {
    const at = this.#threads.indexOf(thread);
    if (at < 0 || this.#closed) return; // terminated by close()
    this.#threads.splice(at, 1);
    this.#deaths++;
    if (this.#deaths <= MAX_RESTARTS) {
      this.#report(`crawl: a parse thread stopped (${reason}); starting another`);
      this.#start();
    } else if (this.#threads.length === 0) {
      this.#report(`crawl: a parse thread stopped (${reason}), the ${this.#deaths}th time; parsing on the main thread from now on`);
    }
  }

  #report(line: string): void {
    for (const log of this.#listeners) log(line);
  }
}

const shared = new Map<number, { pool: ParsePool; users: number }>();

/** A pool's use by one crawl: its parse, until `release`. */
export interface ParsePoolLease {
  readonly pool: ParsePool;
  parse: ParsePool['parse'];
  /** Done with the pool: the threads drop the crawl's link rules, and the last crawl to release it stops them. */
  release(): Promise<void>;
}

/**
 * The process's pool of `threads` threads, started by the first crawl that asks and stopped when
 * the last one releases it. `log` hears its reports while the lease is held.
 */
export function acquireParsePool(threads: number, log: (line: string) => void): ParsePoolLease {
  let entry = shared.get(threads);
  if (!entry) {
    entry = { pool: new ParsePool(threads), users: 0 };
    shared.set(threads, entry);
  }
  entry.users++;
  const { pool } = entry;
  const unlisten = pool.listen(log);
  const rulesUsed = new Set<CompiledLinkRules>();
  let released = false;
  return {
    pool,
    parse: (job) => {
      if (job.links) rulesUsed.add(job.links.rules);
      return pool.parse(job);
    },
    async release() {
      if (released) return;
      released = true;
      unlisten();
      for (const rules of rulesUsed) pool.forget(rules);
      const current = shared.get(threads);
      if (!current || current.pool !== pool || --current.users > 0) return;
      shared.delete(threads);
      await pool.close();
    },
  };
}
