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
 * The state is written to crawl.json (atomically) before the run is told, so a kill at any moment
 * leaves a state that is true or a crawl that resumes.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeModelFile } from '../../shared/model/model-file.ts';
import type { LabeledLink, Topic } from '../../shared/model/types.ts';
import { FINAL_STATES, type CrawlInfo } from '../../shared/service-api/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { oneLine } from '../cli/errors.ts';
import { runCrawl } from '../crawl/crawler.ts';
import type { CrawlProgress } from '../crawl/progress.ts';
import { createStrategy, type CrawlStrategy } from '../crawl/strategies/index.ts';
import { labelsFileText } from '../model/link-model-file.ts';
import { CrawlStore, STORE_FILE } from '../store/crawl-store.ts';
import { writeFileAtomic } from '../platform/atomic-file.ts';
import {
  CRAWL_FILE,
  infoProgress,
  initialProgress,
  MODEL_FILE,
  readCrawlRecord,
  toInfo,
  writeCrawlRecord,
  type CrawlRecord,
} from './crawl-record.ts';
import type { CrawlPlan } from './crawl-request.ts';
import { checkTopicPatterns, topicCrawlParts } from './crawl-topic.ts';
import { HttpError } from './http-io.ts';
import { inspectModelText, type ModelRegistry } from './model-registry.ts';

export type CrawlListener = (info: CrawlInfo) => void;

/** How often a running crawl's progress is saved to crawl.json besides its state changes. */
const PROGRESS_SAVE_MS = 2000;

interface Run {
  controller: AbortController;
  done: Promise<void>;
  /** Aborted because the service is closing: the crawl stays `running` on disk. */
  shutdown: boolean;
  lastProgress?: CrawlProgress;
  /** A second connection to the crawl store, for the labeled links the hooks learn. */
  labels?: CrawlStore;
}

interface Entry {
  record: CrawlRecord;
  dir: string;
  run?: Run;
  listeners: Set<CrawlListener>;
  savedAt: number;
  /** Bumped by each resume, so that only the latest of two quick resumes starts a run. */
  generation: number;
}

export interface CrawlManagerOptions {
  crawlsDir: string;
  models: ModelRegistry;
  log: (line: string) => void;
}

export class CrawlManager {
  readonly #entries = new Map<string, Entry>();
  readonly #options: CrawlManagerOptions;
  #tokenizer: Tokenizer | undefined;

  constructor(options: CrawlManagerOptions) {
    this.#options = options;
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
      const entry: Entry = { record, dir, listeners: new Set(), savedAt: 0, generation: 0 };
      this.#entries.set(record.id, entry);
      if (record.state === 'running') {
        log(`serve: resuming crawl ${record.id} (${record.progress.fetched}/${record.plan.maxPages} pages)`);
        this.#startRun(entry, true);
      }
    }
  }

  list(): CrawlInfo[] {
    return [...this.#entries.values()]
      .map((entry) => toInfo(entry.record))
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  }

  info(id: string): CrawlInfo {
    return toInfo(this.#entry(id).record);
  }

  /** Starts a crawl; 400 for a model or topic that cannot guide it. */
  async create(plan: CrawlPlan): Promise<CrawlInfo> {
    let modelText: string | undefined;
    let topic: Topic | null = null;
    if (plan.modelId !== null) {
      try {
        modelText = this.#options.models.text(plan.modelId);
      } catch (error) {
        if (error instanceof HttpError) throw new HttpError(400, `modelId: ${error.message}`);
        throw error;
      }
      topic = await chooseTopic(modelText, plan.modelId, plan.topicId);
    }
    const id = newCrawlId();
    const dir = join(this.#options.crawlsDir, id);
    mkdirSync(dir, { recursive: true });
    if (modelText !== undefined) writeFileAtomic(join(dir, MODEL_FILE), modelText);
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
    const entry: Entry = { record, dir, listeners: new Set(), savedAt: 0, generation: 0 };
    this.#save(entry);
    this.#entries.set(id, entry);
    this.#startRun(entry, false);
    return toInfo(record);
  }

  pause(id: string): CrawlInfo {
    const entry = this.#entry(id);
    if (entry.record.state === 'paused') return toInfo(entry.record);
    if (entry.record.state !== 'running') throw conflict(entry, 'paused');
    this.#setState(entry, 'paused');
    entry.run?.controller.abort();
    return toInfo(entry.record);
  }

  async resume(id: string): Promise<CrawlInfo> {
    const entry = this.#entry(id);
    if (entry.record.state === 'running') return toInfo(entry.record);
    if (entry.record.state !== 'paused') throw conflict(entry, 'resumed');
    this.#setState(entry, 'running');
    const generation = ++entry.generation;
    // The paused run may still be winding down (fetches being abandoned): one run per store.
    await entry.run?.done;
    // Re-read: a pause or stop may have come while we waited (TypeScript's narrowing cannot know).
    const state = entry.record.state as CrawlRecord['state'];
    if (state === 'running' && entry.generation === generation && entry.run === undefined) this.#startRun(entry, true);
    return toInfo(entry.record);
  }

  stop(id: string): CrawlInfo {
    const entry = this.#entry(id);
    if (entry.record.state === 'stopped') return toInfo(entry.record);
    if (FINAL_STATES.has(entry.record.state)) throw conflict(entry, 'stopped');
    this.#setState(entry, 'stopped');
    entry.run?.controller.abort();
    return toInfo(entry.record);
  }

  /** Calls `listener` on every change of the crawl; returns the unsubscribe function. */
  subscribe(id: string, listener: CrawlListener): () => void {
    const entry = this.#entry(id);
    entry.listeners.add(listener);
    return () => entry.listeners.delete(listener);
  }

  /** `pages.jsonl`'s path (it may not exist yet: a crawl that has fetched nothing). */
  pagesFile(id: string): string {
    return join(this.#entry(id).dir, 'pages.jsonl');
  }

  /**
   * The crawl's topic and learned labels as a model file (a Dexie export without a model): the
   * extension merges it, adding the examples it does not have yet.
   */
  async labelsFile(id: string): Promise<string> {
    const entry = this.#entry(id);
    const topicRef = entry.record.topic;
    if (topicRef === null) throw new HttpError(409, `crawl ${id} was started without a model, so it has no topic and learns no labels`);
    const topic = decodeModelFile(readFileSync(join(entry.dir, MODEL_FILE), 'utf8')).topics.find((t) => t.id === topicRef.id);
    if (!topic) throw new Error(`crawl ${id}: its model.json lost topic ${topicRef.id}`);
    const links = this.#labeledLinks(entry).filter((link) => link.topic === topic.id && link.source === 'crawl');
    return labelsFileText(topic, links);
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

  #entry(id: string): Entry {
    const entry = this.#entries.get(id);
    if (!entry) throw new HttpError(404, `no crawl "${id}"`);
    return entry;
  }

  #labeledLinks(entry: Entry): LabeledLink[] {
    if (entry.run?.labels) return entry.run.labels.labeledLinks();
    if (!existsSync(join(entry.dir, STORE_FILE))) return [];
    const store = CrawlStore.open(entry.dir, { create: false });
    try {
      return store.labeledLinks();
    } finally {
      store.close();
    }
  }

  #startRun(entry: Entry, resume: boolean): void {
    const run: Run = { controller: new AbortController(), shutdown: false, done: Promise.resolve() };
    entry.run = run;
    run.done = this.#execute(entry, run, resume);
  }

  async #execute(entry: Entry, run: Run, resume: boolean): Promise<void> {
    const { plan } = entry.record;
    const elapsedBefore = entry.record.elapsedBeforeMs;
    try {
      const { strategy, topic } = await this.#strategyFor(entry);
      const parts = topicCrawlParts({
        topic,
        scoresAreModel: plan.strategy === 'nb',
        seeds: plan.seeds,
        sameSite: plan.sameSite,
        addLabels: (links) => {
          run.labels ??= CrawlStore.open(entry.dir, { create: false });
          run.labels.addLabeledLinks(links);
        },
      });
      // A crawl killed after crawl.json was written but before its store was made starts afresh.
      const resumeStore = resume && existsSync(join(entry.dir, STORE_FILE));
      const summary = await runCrawl({
        seeds: resumeStore ? [] : plan.seeds,
        outDir: entry.dir,
        maxPages: plan.maxPages,
        maxDepth: plan.maxDepth,
        concurrency: plan.concurrency,
        delayMs: plan.delayMs,
        strategy,
        resume: resumeStore,
        hooks: parts.hooks,
        pageJudge: parts.pageJudge,
        relevanceThreshold: parts.relevanceThreshold,
        signal: run.controller.signal,
        onProgress: (progress) => this.#progress(entry, run, progress, elapsedBefore),
        log: (line) => this.#options.log(`crawl ${entry.record.id}: ${line}`),
      });
      this.#ended(entry, run, summary.stoppedBy === 'aborted' ? undefined : { state: 'done' });
    } catch (error) {
      this.#options.log(`crawl ${entry.record.id} failed: ${oneLine(error)}`);
      this.#ended(entry, run, { state: 'failed', error: oneLine(error) });
    } finally {
      run.labels?.close();
      run.labels = undefined;
    }
  }

  async #strategyFor(entry: Entry): Promise<{ strategy: CrawlStrategy; topic: Topic | null }> {
    const { plan, topic } = entry.record;
    if (topic === null) return { strategy: createStrategy('bfs'), topic: null };
    const [{ loadLinkScorer }, { loadNodeTokenizer }] = await Promise.all([import('../model/link-model-file.ts'), import('../platform/jieba-node.ts')]);
    this.#tokenizer ??= loadNodeTokenizer();
    const loaded = await loadLinkScorer(join(entry.dir, MODEL_FILE), this.#tokenizer, topic.id);
    const strategy =
      plan.strategy === 'nb' ? createStrategy('nb', { scorer: loaded.scorer, modelFingerprint: loaded.fingerprint }) : createStrategy('bfs');
    return { strategy, topic: loaded.topic };
  }

  #progress(entry: Entry, run: Run, progress: CrawlProgress, elapsedBefore: number): void {
    if (entry.run !== run) return;
    run.lastProgress = progress;
    entry.record.progress = infoProgress(progress, elapsedBefore);
    if (Date.now() - entry.savedAt >= PROGRESS_SAVE_MS) this.#save(entry);
    this.#notify(entry);
  }

  /** A run is over: its time is added up, and the crawl is done or failed unless paused, stopped or closing. */
  #ended(entry: Entry, run: Run, outcome: { state: 'done' | 'failed'; error?: string } | undefined): void {
    // The run's last report (its final one) is already in record.progress; bank its time.
    entry.record.elapsedBeforeMs += run.lastProgress?.elapsedMs ?? 0;
    if (entry.run === run) entry.run = undefined;
    if (outcome !== undefined && entry.record.state === 'running' && !run.shutdown) {
      entry.record.state = outcome.state;
      if (outcome.error !== undefined) entry.record.error = outcome.error;
    }
    this.#save(entry);
    this.#notify(entry);
  }

  #setState(entry: Entry, state: CrawlRecord['state']): void {
    entry.record.state = state;
    this.#save(entry);
    this.#notify(entry);
  }

  #save(entry: Entry): void {
    entry.savedAt = Date.now();
    try {
      writeCrawlRecord(join(entry.dir, CRAWL_FILE), entry.record);
    } catch (error) {
      this.#options.log(`serve: cannot save ${join(entry.dir, CRAWL_FILE)}: ${oneLine(error)}`);
    }
  }

  #notify(entry: Entry): void {
    const info = toInfo(entry.record);
    for (const listener of entry.listeners) {
      try {
        listener(info);
      } catch (error) {
        this.#options.log(`serve: a progress listener failed: ${oneLine(error)}`);
      }
    }
  }
}

/** The topic a crawl follows: `topicId` (an id, then a name), else the file's first trained one. */
async function chooseTopic(text: string, modelId: string, topicId: string | null): Promise<Topic> {
  const { topics } = await inspectModelText(text, modelId);
  const names = topics.map((t) => `"${t.name}" (${t.id})`).join(', ');
  const chosen = topicId === null ? topics.find((t) => t.trained) : (topics.find((t) => t.id === topicId) ?? topics.find((t) => t.name === topicId));
  if (!chosen) throw new HttpError(400, topicId === null ? `model ${modelId} has no trained topic` : `topicId: model ${modelId} has no topic "${topicId}"; it has ${names}`);
  if (!chosen.trained) throw new HttpError(400, `topicId: topic "${chosen.name}" of model ${modelId} has no trained model`);
  const patternError = checkTopicPatterns(chosen.topic);
  if (patternError !== undefined) throw new HttpError(400, patternError);
  return chosen.topic;
}

function conflict(entry: Entry, wanted: string): HttpError {
  return new HttpError(409, `crawl ${entry.record.id} is ${entry.record.state} and cannot be ${wanted}`);
}

/** Short and URL-safe: 9 random bytes are 12 base64url characters. */
function newCrawlId(): string {
  return randomBytes(9).toString('base64url');
}
