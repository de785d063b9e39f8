/**
 * The shared frontier: one crawl's queue in Redis, claimed from by any number of `linkscent
 * crawl` processes (`crawl --frontier redis://…`). The scripts and the data model are in
 * `lua-scripts.ts`; this class runs them and keeps this worker's side:
 *
 *   - its id (host name, pid, a random suffix) and the URLs it holds, whose leases it renews
 *     every third of the lease, so only a worker that stops living loses them;
 *   - the last counts Redis replied (queued, recorded), for progress without a round trip;
 *   - whether the crawl's page budget, counted over every worker, is spent;
 *   - its crawl store, where a page is written before Redis counts it (`shared-recorder.ts`).
 *
 * The per-process claim rule (`CrawlState.decide`) is not asked: the claim script applies the
 * same rules (per-host concurrency, maxPagesPerHost) to every worker's URLs at once.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Frontier } from '../../crawl/frontier.ts';
import type { CrawlStore } from '../../store/crawl-store.ts';
import type { FrontierEntry, FrontierRow, LinkText, PageExtras, PageRecord } from '../../store/records.ts';
import { wasRequested } from '../../store/records.ts';
import { BACK_OFF, CLAIM, COMMIT, DROP, ENQUEUE, RELEASE, RENEW, REQUEUE, SLOT } from './lua-scripts.ts';
import { attachRecorder, type SettledPages } from './shared-recorder.ts';
import { RedisConnection, type RedisReply } from './redis-connection.ts';
import { crawlPrefix, KEY } from './redis-keys.ts';
import { sharedRobots } from './shared-robots.ts';
import { CrawlOptionsError, errorLine, StopCrawlError } from '../../crawl/crawl-errors.ts';
import type { SharedPoliteness } from '../../crawl/default-fetcher.ts';
import type { RedisFrontierUrl } from './redis-url.ts';
import type { OnlineModels } from '../../crawl/online-learning.ts';
import type { SharedLearning } from '../../crawl/shared-learning.ts';
import { RedisSharedLearning, storeLearnerId } from './shared-learning.ts';

/** How long a worker with nothing to claim waits before it asks Redis again. */
export const SHARED_POLL_MS = 100;
/** URLs per ENQUEUE call: one script call stays short while other workers wait on Redis. */
const ENQUEUE_BATCH = 500;

/** The crawl limits every worker must share, as the claim and commit scripts apply them. */
export interface SharedLimits {
  maxPages: number;
  perHostConcurrency: number;
  maxPagesPerHost: number | null;
  /** The host budget's pages per step (`crawl/host-budget.ts`); null or absent: none. The crawl's is its first worker's. */
  hostBudget?: number | null;
  /** Relevance at or above which a judged page is on topic, for the host budget. Default 0.5. */
  relevanceThreshold?: number;
}

/** What the frontier keeps with a URL besides its score (P info). */
interface UrlInfo {
  depth: number;
  parent: string | null;
  context?: LinkText;
  viaOnTopic?: boolean;
}

export class RedisFrontier implements Frontier {
  readonly kind = 'redis';
  readonly pollMs = SHARED_POLL_MS;
  readonly worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  /** A page is on disk in this worker's store before Redis counts it (`record`). */
  readonly recordsDurably = true;
  readonly prefix: string;
  /** URLs this worker holds, their claimed rows by URL: the leases it renews. */
  readonly #held = new Map<string, FrontierRow>();
  readonly #renewal: NodeJS.Timeout;
  #queued = 0;
  #recorded = 0;
  #budgetSpent = false;
  #renewing: Promise<unknown> = Promise.resolve();
  #store: CrawlStore | undefined;
  /** The store's recorder tag in this crawl (`shared-recorder.ts`). */
  #tag = '';
  /** The limits the scripts apply; maxPages becomes the crawl's own when this worker joins it. */
  private readonly limits: SharedLimits;

  private constructor(
    readonly connection: RedisConnection,
    readonly url: RedisFrontierUrl,
    limits: SharedLimits,
  ) {
    this.limits = { ...limits };
    this.prefix = crawlPrefix(url.crawl);
    // Unref'd: a crawl that is only waiting is kept alive by its own timers, not by this one.
    this.#renewal = setInterval(() => void this.#renew(), Math.floor(url.leaseMs / 3)).unref();
  }

  /** Connects (or throws `RedisUnreachableError`, one line). */
  static async connect(url: RedisFrontierUrl, limits: SharedLimits): Promise<RedisFrontier> {
    const frontier = new RedisFrontier(await RedisConnection.open(url), url, limits);
    await frontier.#renew(); // seen in P workers from the start
    return frontier;
  }

  /**
   * This worker's own crawl store, where it keeps the pages it records (set before the crawl
   * runs). A store a killed worker left is settled first (`shared-recorder.ts`): what it recorded
   * and Redis did not count is undone, and the URLs it held are queued again.
   */
  async attach(store: CrawlStore): Promise<SettledPages> {
    const { tag, settled } = await attachRecorder(this.connection, this.prefix, this.url.crawl, this.worker, store);
    this.#store = store;
    this.#tag = tag;
    return settled;
  }

  /**
   * Joins the crawl in Redis, starting it when this worker is the first: its strategy must be the
   * one the crawl started with (scores of two conventions in one frontier would be nonsense), its
   * maxPages is the crawl's (the starting worker's), and this worker's seeds are added to the
   * crawl's (queued once, however many workers bring them).
   * Returns every seed of the crawl: what a seed-hosts scope is of.
   */
  async join(strategy: string, fingerprint: string | null, seeds: readonly FrontierEntry[]): Promise<string[]> {
    const { client } = this.connection;
    const metaKey = this.prefix + KEY.meta;
    await client.hSetNX(metaKey, 'strategy', strategy);
    await client.hSetNX(metaKey, 'startedAt', new Date().toISOString());
    const started = await client.hGet(metaKey, 'strategy');
    if (started !== strategy) {
      throw new CrawlOptionsError(`the shared crawl "${this.url.crawl}" at ${this.url.shown} was started with strategy ${started}; join it with --strategy ${started}, or use another ?crawl= name`);
    }
    if (fingerprint !== null) await client.hSetNX(metaKey, 'fingerprint', fingerprint);
    // maxPages is the crawl's, set by the worker that started it: every worker stops at one count.
    await client.hSetNX(metaKey, 'maxPages', String(this.limits.maxPages));
    this.limits.maxPages = Number(await client.hGet(metaKey, 'maxPages'));
    // So is the host budget, kept by the scripts themselves (`lua-scripts.ts`, COMMIT).
    await client.hSetNX(metaKey, 'hostBudget', String(this.limits.hostBudget ?? 0));
    const seedKey = this.prefix + 'seeds';
    if (seeds.length > 0) await client.sAdd(seedKey, seeds.map((seed) => seed.url));
    const all = await client.sMembers(seedKey);
    if (all.length === 0) throw new CrawlOptionsError(`no crawl "${this.url.crawl}" at ${this.url.shown} to join: give seed URLs to start it`);
    await this.enqueue(seeds);
    return all.sort();
  }

  /** What the fetcher shares through Redis: robots.txt answers and host slots. */
  politeness(): SharedPoliteness {
    return {
      robots: sharedRobots(this.connection, this.prefix),
      acquireSlot: (host, delayMs, signal) => this.acquireSlot(host, delayMs, signal),
      backOff: (host, delayMs) => this.backOff(host, delayMs),
    };
  }

  #run(script: string, args: readonly (string | number)[]): Promise<RedisReply> {
    return this.connection.run(script, [this.prefix, ...args]);
  }

  async claim(_decide: unknown, claimWindow: number, excludedHosts: readonly string[]): Promise<FrontierRow | undefined> {
    const { perHostConcurrency, maxPagesPerHost, maxPages } = this.limits;
    const reply = (await this.#run(CLAIM, [this.worker, this.url.leaseMs, Math.max(1, claimWindow), perHostConcurrency, maxPagesPerHost ?? 0, maxPages, ...excludedHosts])) as string[];
    if (reply[0] === 'retired') throw this.#retired();
    if (reply[0] === 'budget') {
      this.#budgetSpent = true;
      this.#recorded = Number(reply[1]);
      return undefined;
    }
    if (reply[0] !== 'url') {
      this.#queued = Number(reply[1]);
      return undefined;
    }
    const [, url, score, host, infoJson, rank, queued] = reply as [string, string, string, string, string, string, string];
    this.#queued = Number(queued);
    const info = JSON.parse(infoJson) as Partial<UrlInfo>;
    const row: FrontierRow = {
      url,
      score: Number(score),
      depth: info.depth ?? 0,
      parent: info.parent ?? null,
      host,
      seq: 0,
      discoveredAt: 0,
      state: 'in-flight',
      reason: null,
      claimRank: Number(rank),
    };
    if (info.context) row.context = info.context;
    if (info.viaOnTopic !== undefined) row.viaOnTopic = info.viaOnTopic;
    this.#held.set(url, row);
    return row;
  }

  async enqueue(entries: readonly FrontierEntry[]): Promise<number> {
    let changed = 0;
    for (let at = 0; at < entries.length; at += ENQUEUE_BATCH) {
      changed += Number(await this.#run(ENQUEUE, entryArgs(entries.slice(at, at + ENQUEUE_BATCH))));
    }
    return changed;
  }

  async requeue(url: string): Promise<void> {
    this.#held.delete(url);
    await this.#run(REQUEUE, [this.worker, url]);
  }

  async drop(url: string, _reason: string): Promise<void> {
    this.#held.delete(url);
    await this.#run(DROP, [this.worker, url]);
  }

  /**
   * The worker's own store first, then Redis (`shared-recorder.ts` says why this order, and how a
   * kill anywhere in it is settled). The page is written there unconfirmed and synced to disk;
   * then Redis decides, atomically, whether this worker is the one that records the URL, and the
   * page is confirmed, or undone. Undefined when another worker recorded it, or when the crawl's
   * budget was spent first (the URL is queued again, and this worker stops). A Redis that does not
   * answer stops the crawl, the page left unconfirmed for `--resume` to settle.
   */
  async record(page: PageRecord, children: readonly FrontierEntry[], extras: PageExtras): Promise<PageRecord | undefined> {
    const store = this.#store!;
    const claimed = this.#held.get(page.url);
    const host = claimed?.host ?? new URL(page.url).hostname;
    // Its claimed row goes with it, for online learning's link into the page (`recordUnconfirmed`).
    const entry = claimed && claimedEntry(claimed);
    const stored = store.recordUnconfirmed(page, entry, Date.now(), extras);
    const seq = stored.seq!;
    try {
      await store.durable();
    } catch (error) {
      this.#held.delete(page.url);
      throw new StopCrawlError(`the crawl store could not be synced to disk: ${errorLine(error)}`, { cause: error });
    }
    const finalHost = page.finalUrl === page.url ? host : new URL(page.finalUrl).hostname;
    const judged = page.relevance === undefined ? '' : page.relevance >= (this.limits.relevanceThreshold ?? 0.5) ? '1' : '0';
    let reply: string[];
    try {
      reply = (await this.#run(COMMIT, [this.worker, this.#tag, page.url, host, page.finalUrl, finalHost, wasRequested(page.outcome) ? 1 : 0, this.limits.maxPages, judged, ...entryArgs(children)])) as string[];
    } catch (error) {
      // Counted or not, Redis cannot say now: the page stays unconfirmed here, and the crawl stops.
      throw new StopCrawlError(`${errorLine(error)}; ${page.url} stays recorded in this worker's store, unconfirmed: --resume settles it`, { cause: error });
    } finally {
      this.#held.delete(page.url); // renewed until Redis answered
    }
    if (reply[0] === 'ok') {
      store.unconfirmed.confirm(seq);
      this.#queued = Number(reply[2]);
      this.#recorded = Number(reply[1]);
      if (this.#recorded >= this.limits.maxPages) this.#budgetSpent = true;
      return stored;
    }
    store.unconfirmed.undo(seq);
    if (reply[0] === 'retired') throw this.#retired();
    if (reply[0] === 'budget') {
      this.#budgetSpent = true;
      this.#recorded = Number(reply[1]);
    }
    return undefined;
  }

  queued(): number {
    return this.#queued;
  }

  async queuedByHost(hosts: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (hosts.length === 0) return counts;
    const values = await this.connection.client.hmGet(this.prefix + KEY.hostQueued, [...hosts]);
    hosts.forEach((host, i) => {
      const n = Number(values[i] ?? 0);
      if (n > 0) counts.set(host, n);
    });
    return counts;
  }

  async activeElsewhere(setAside: readonly string[]): Promise<boolean> {
    if (this.#budgetSpent) return false;
    const [queued, recorded] = await this.connection.client.hmGet(this.prefix + KEY.counts, ['queued', 'recorded']);
    this.#recorded = Number(recorded ?? 0);
    if (this.#recorded >= this.limits.maxPages) {
      this.#budgetSpent = true;
      return false;
    }
    this.#queued = Number(queued ?? 0);
    if ((await this.connection.client.zCard(this.prefix + KEY.leases)) > 0) return true;
    // URLs of hosts this worker set aside (robots.txt unreachable) are not work it can do now.
    const aside = [...(await this.queuedByHost(setAside)).values()].reduce((a, b) => a + b, 0);
    return this.#queued > aside;
  }

  recordedEverywhere(): number {
    return this.#recorded;
  }

  budgetSpent(): boolean {
    return this.#budgetSpent;
  }

  /**
   * Waits for the host's politeness slot across every worker (`SLOT`); the result, called when
   * the request is over, starts the delay again from then (`RELEASE`). The release is sent before
   * the page's commit on the same connection, so Redis runs it first.
   */
  async acquireSlot(host: string, delayMs: number, signal: AbortSignal | undefined): Promise<() => void> {
    for (;;) {
      signal?.throwIfAborted();
      const waitMs = Number(await this.#run(SLOT, [host, delayMs]));
      if (waitMs <= 0) return () => void this.#run(RELEASE, [host, delayMs]).catch(() => {});
      await sleep(waitMs, signal);
    }
  }

  /**
   * Online learning shared by every worker of this crawl (`shared-learning.ts`). `models` as loaded
   * from the model file; every worker must have loaded the one the crawl started with, since the
   * shared counts are added to each worker's own copy of it.
   */
  async shareLearning(models: OnlineModels, store: CrawlStore, fingerprint: string | null): Promise<SharedLearning> {
    const started = await this.connection.client.hGet(this.prefix + KEY.meta, 'fingerprint');
    if ((started ?? null) !== fingerprint) {
      throw new CrawlOptionsError(`online learning on the shared crawl "${this.url.crawl}" needs every worker to load the model it started with (another model or topic was given here); load that one, or crawl with --no-online`);
    }
    return new RedisSharedLearning(this.connection, this.prefix, storeLearnerId(store), models);
  }

  backOff(host: string, delayMs: number): void {
    void this.#run(BACK_OFF, [host, delayMs]).catch(() => {});
  }

  /** Renews this worker's leases (one call at a time) and says it is alive. */
  #renew(): Promise<unknown> {
    this.#renewing = this.#renewing.then(() => this.#run(RENEW, [this.worker, this.url.leaseMs, ...this.#held.keys()])).catch(() => {});
    return this.#renewing;
  }

  /** The crawl stops when this worker was retired: its store belongs to a later process now. */
  #retired(): StopCrawlError {
    return new StopCrawlError(`this worker (${this.worker}) was retired from the shared crawl: another process took over its crawl directory`);
  }

  async close(): Promise<void> {
    clearInterval(this.#renewal);
    await this.#renewing;
    await this.connection.client.zRem(this.prefix + KEY.workers, this.worker).catch(() => {});
    await this.connection.close();
  }
}

/** A claimed row as the store keeps it with the page (`CrawlStore.recordUnconfirmed`). */
function claimedEntry({ url, score, depth, parent, host, context, viaOnTopic }: FrontierRow): FrontierEntry {
  return { url, score, depth, parent, host, ...(context ? { context } : {}), ...(viaOnTopic !== undefined ? { viaOnTopic } : {}) };
}

/** ENQUEUE/COMMIT's (url, host, score, info) per entry. */
function entryArgs(entries: readonly FrontierEntry[]): (string | number)[] {
  return entries.flatMap((entry) => {
    const info: UrlInfo = { depth: entry.depth, parent: entry.parent };
    if (entry.context) info.context = entry.context;
    if (entry.viaOnTopic !== undefined) info.viaOnTopic = entry.viaOnTopic;
    return [entry.url, entry.host, redisScore(entry.score), JSON.stringify(info)];
  });
}

/** A score as Redis reads one: ±inf spelled its way (a strategy's certain link may score Infinity). */
function redisScore(score: number): string {
  if (score === Infinity) return '+inf';
  if (score === -Infinity || Number.isNaN(score)) return '-inf';
  return String(score);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
