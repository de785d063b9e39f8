/**
 * The crawls of the service (docs/service-api.md "Life of a crawl"): each runs in this process in
 * the background, whether or not a client is connected, in its own directory `crawls/<id>/`.
 *
 *   create   checks the request, copies the model file in, writes crawl.json (running), runs
 *   pause    state paused, then abort: the crawler requeues what it had in flight, the frontier stays
 *   resume   waits for the paused run to wind down, then runCrawl({ resume: true })
 *   stop     state stopped (final), then abort
 *   startup  every crawl whose crawl.json says running is resumed; the crawl store guarantees
 *            that no page reported fetched is lost or fetched again
 *   close    every run is aborted but stays `running` on disk, so the next start resumes it
 *
 * This file keeps the crawls and their life cycle; `crawl-entry.ts` one crawl's record and
 * listeners, `crawl-run.ts` one run, `crawl-model.ts` the model file in and the labels file out.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Topic } from '../../shared/model/types.ts';
import { FINAL_STATES, type CrawlInfo } from '../../shared/service-api/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { writeFileAtomic } from '../platform/atomic-file.ts';
import { ensureDirectory } from '../platform/output-paths.ts';
import { oneLine } from '../platform/one-line.ts';
import { CrawlEntry, newCrawlId, type CrawlListener } from './crawl-entry.ts';
import { chooseTopic, crawlLabelsFile } from './crawl-model.ts';
import { CRAWL_FILE, initialProgress, MODEL_FILE, readCrawlRecord, type CrawlRecord } from './crawl-record.ts';
import type { CrawlPlan } from './crawl-request.ts';
import { startRun, type RunDeps } from './crawl-run.ts';
import { HttpError } from './http-io.ts';
import { DecodedModels, type ModelRegistry } from './model-registry.ts';
import { PageTurns } from './page-turns.ts';

export type { CrawlListener } from './crawl-entry.ts';

export interface CrawlManagerOptions {
  crawlsDir: string;
  models: ModelRegistry;
  log: (line: string) => void;
  /** A Redis URL every crawl runs on (`RunDeps.frontier`); undefined: each crawl's own store. */
  frontier?: string;
}

export class CrawlManager {
  readonly #entries = new Map<string, CrawlEntry>();
  readonly #options: CrawlManagerOptions;
  readonly #runDeps: RunDeps;
  /** The one tokenizer of every crawl: the promise is kept, so crawls starting together share it. */
  #tokenizer: Promise<Tokenizer> | undefined;
  readonly #decoded = new DecodedModels();

  constructor(options: CrawlManagerOptions) {
    this.#options = options;
    const turns = new PageTurns();
    this.#runDeps = {
      log: options.log,
      turn: turns.take,
      models: this.#decoded,
      ...(options.frontier !== undefined ? { frontier: options.frontier } : {}),
      // Not `this.#tokenizer ??= (await import(…)).load…()`: every crawl that asked before the
      // import settled made a tokenizer of its own (seven 50,000-text caches alive in the soak).
      tokenizer: () => (this.#tokenizer ??= import('../platform/jieba-node.ts').then((jieba) => jieba.loadNodeTokenizer())),
    };
  }

  /** Loads every crawl directory and resumes the crawls that were running. */
  start(): void {
    const { crawlsDir, log } = this.#options;
    for (const id of readdirSync(crawlsDir)) {
      const dir = join(crawlsDir, id);
      const file = join(dir, CRAWL_FILE);
      if (!existsSync(file)) continue;
      let record: CrawlRecord;
      try {
        record = readCrawlRecord(file);
      } catch (error) {
        log(`serve: skipping crawl ${id}: ${file} is unreadable (${oneLine(error)})`);
        continue;
      }
      const entry = new CrawlEntry(record, dir, log);
      this.#entries.set(record.id, entry);
      if (record.state === 'running') {
        log(`serve: resuming crawl ${record.id} (${record.progress.fetched}/${record.plan.maxPages} pages)`);
        startRun(entry, true, this.#runDeps);
      }
    }
  }

  list(): CrawlInfo[] {
    return [...this.#entries.values()]
      .map((entry) => entry.info())
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  }

  info(id: string): CrawlInfo {
    return this.#entry(id).info();
  }

  /** Starts a crawl; 400 for a model or topic that cannot guide it. */
  async create(plan: CrawlPlan): Promise<CrawlInfo> {
    let modelFile: Buffer | undefined;
    let topic: Topic | null = null;
    if (plan.modelId !== null) {
      try {
        modelFile = this.#options.models.bytes(plan.modelId);
      } catch (error) {
        if (error instanceof HttpError) throw new HttpError(400, `modelId: ${error.message}`);
        throw error;
      }
      const file = modelFile;
      topic = await this.#decoded.serial(() => chooseTopic(file, plan.modelId!, plan.topicId, this.#decoded));
    }
    const id = newCrawlId();
    const dir = join(this.#options.crawlsDir, id);
    ensureDirectory(dir);
    if (modelFile !== undefined) writeFileAtomic(join(dir, MODEL_FILE), modelFile);
    const record: CrawlRecord = {
      version: 1,
      id,
      createdAt: Date.now(),
      plan,
      topic: topic === null ? null : { id: topic.id, name: topic.name },
      state: 'running',
      progress: initialProgress(plan),
      elapsedBeforeMs: 0,
      updatedAt: Date.now(),
    };
    const entry = new CrawlEntry(record, dir, this.#options.log);
    entry.save();
    this.#entries.set(id, entry);
    startRun(entry, false, this.#runDeps);
    return entry.info();
  }

  pause(id: string): CrawlInfo {
    const entry = this.#entry(id);
    if (entry.record.state === 'paused') return entry.info();
    if (entry.record.state !== 'running') throw entry.conflict('paused');
    entry.setState('paused');
    entry.run?.controller.abort();
    return entry.info();
  }

  async resume(id: string): Promise<CrawlInfo> {
    const entry = this.#entry(id);
    if (entry.record.state === 'running') return entry.info();
    if (entry.record.state !== 'paused') throw entry.conflict('resumed');
    entry.setState('running');
    const generation = ++entry.generation;
    // The paused run may still be winding down (fetches being abandoned): one run per store.
    await entry.run?.done;
    // Re-read: a pause or stop may have come while we waited (TypeScript's narrowing cannot know).
    const state = entry.record.state as CrawlRecord['state'];
    if (state === 'running' && entry.generation === generation && entry.run === undefined) startRun(entry, true, this.#runDeps);
    return entry.info();
  }

  stop(id: string): CrawlInfo {
    const entry = this.#entry(id);
    if (entry.record.state === 'stopped') return entry.info();
    if (FINAL_STATES.has(entry.record.state)) throw entry.conflict('stopped');
    entry.setState('stopped');
    entry.run?.controller.abort();
    return entry.info();
  }

  /** Calls `listener` on every change of the crawl; returns the unsubscribe function. */
  subscribe(id: string, listener: CrawlListener): () => void {
    const entry = this.#entry(id);
    entry.listeners.add(listener);
    return () => entry.listeners.delete(listener);
  }

  /** The crawl's directory (its store, pages.jsonl, WARC files). */
  dir(id: string): string {
    return this.#entry(id).dir;
  }

  /** The jieba tokenizer the crawls share, loaded on first use. */
  tokenizer(): Promise<Tokenizer> {
    return this.#runDeps.tokenizer();
  }

  /** `pages.jsonl`'s path (it may not exist yet: a crawl that has fetched nothing). */
  pagesFile(id: string): string {
    return join(this.#entry(id).dir, 'pages.jsonl');
  }

  /** The crawl's topic and learned labels as a model file (`crawl-model.ts`). */
  labelsFile(id: string): Promise<string> {
    return crawlLabelsFile(this.#entry(id));
  }

  /** Aborts every run; their crawls stay `running` on disk and resume at the next start. */
  async close(): Promise<void> {
    const runs = [...this.#entries.values()].flatMap((entry) => (entry.run ? [entry.run] : []));
    for (const run of runs) {
      run.shutdown = true;
      run.controller.abort();
    }
    await Promise.all(runs.map((run) => run.done));
  }

  #entry(id: string): CrawlEntry {
    const entry = this.#entries.get(id);
    if (!entry) throw new HttpError(404, `no crawl "${id}"`);
    return entry;
  }
}
