/**
 * Online learning shared through the crawl's Redis (`crawl/shared-learning.ts` says what, and
 * `crawl/online-learning.ts` when). Keys under the crawl's prefix P (`lua-scripts.ts`):
 *
 *   P learn:counts   HASH  every worker's count increments, summed (`HINCRBY`, in `LEARN`)
 *   P learn:version  STR   moved by every push, in the same script: the model's version
 *   P learn:pushed   HASH  a worker's store id → the last page it pushed (the push's dedupe key)
 *
 * The model a worker scores with is the taught model (its model file, as loaded) plus
 * `learn:counts`, rebuilt whole (`fromRows`, every invariant checked) whenever the version moved:
 * one read of the hash per update, O(learned vocabulary). A log of increments read from the last
 * version would read less on long crawls; the whole hash keeps a restarted worker's rebuild and a
 * running worker's refresh one code path.
 *
 * A worker's id here is its crawl directory's, not its process's (`RedisFrontier.worker` changes
 * at every start): a restarted worker must be recognised by what it already pushed.
 */
import { randomBytes } from 'node:crypto';
import { LevelClassifier, type LevelRows } from '../../../shared/model/level-classifier.ts';
import { NaiveBayes, type NbRows } from '../../../shared/model/naive-bayes.ts';
import type { CountDelta } from '../../crawl/learning-delta.ts';
import { mergeLevelRows, mergeLinkRows } from '../../crawl/learning-delta.ts';
import type { OnlineModels } from '../../crawl/online-learning.ts';
import type { SharedLearning } from '../../crawl/shared-learning.ts';
import type { CrawlStore } from '../../store/crawl-store.ts';
import type { FrontierRow, LinkText } from '../../store/records.ts';
import { LEARN, RESCORE } from './lua-scripts.ts';
import type { RedisConnection } from './redis-connection.ts';
import { KEY } from './redis-keys.ts';

/** Rows per RESCORE call: one script call stays short while other workers wait on Redis. */
const RESCORE_BATCH = 500;

export class RedisSharedLearning implements SharedLearning {
  readonly #taughtLinks: NbRows;
  readonly #taughtLevels: LevelRows | undefined;
  #version = -1;

  /**
   * `models` as loaded from the model file, before anything was learned: what the shared counts
   * are added to. `storeId`: this worker's crawl directory's id (`storeLearnerId`).
   */
  constructor(
    private readonly connection: RedisConnection,
    private readonly prefix: string,
    private readonly storeId: string,
    private readonly models: OnlineModels,
  ) {
    this.#taughtLinks = models.links.toRows();
    this.#taughtLevels = models.levels?.toRows();
  }

  get version(): number {
    return Math.max(0, this.#version);
  }

  async push(upToSeq: number, delta: CountDelta): Promise<void> {
    const args: (string | number)[] = [this.prefix, this.storeId, upToSeq];
    for (const [field, by] of delta.counts) args.push(field, by);
    await this.connection.run(LEARN, args);
  }

  async pushedUpTo(): Promise<number> {
    return Number((await this.connection.client.hGet(this.prefix + KEY.learnPushed, this.storeId)) ?? 0);
  }

  async refresh(): Promise<boolean> {
    const { client } = this.connection;
    const version = Number((await client.get(this.prefix + KEY.learnVersion)) ?? 0);
    if (version === this.#version) return false;
    // The counts and their version in one transaction, so the version names what was read.
    const [read, counts] = (await client.multi().get(this.prefix + KEY.learnVersion).hGetAll(this.prefix + KEY.learnCounts).exec()) as unknown as [string | null, Record<string, string>];
    this.models.links.assign(NaiveBayes.fromRows(mergeLinkRows(this.#taughtLinks, counts)));
    if (this.models.levels && this.#taughtLevels) this.models.levels.assign(LevelClassifier.fromRows(mergeLevelRows(this.#taughtLevels, counts)));
    this.#version = Number(read ?? 0);
    return true;
  }

  async bestQueued(limit: number): Promise<FrontierRow[]> {
    const { client } = this.connection;
    const members = await client.zRangeWithScores(this.prefix + KEY.queue, 0, limit - 1, { REV: true });
    if (members.length === 0) return [];
    const parsed = members.map(({ value, score }) => {
      const rest = value.slice(13); // "INV|" (12 digits and a bar), then host|url
      const bar = rest.indexOf('|');
      return { host: rest.slice(0, bar), url: rest.slice(bar + 1), score };
    });
    const infos = await client.hmGet(this.prefix + KEY.info, parsed.map((row) => row.url));
    return parsed.map(({ host, url, score }, i) => {
      const info = JSON.parse(infos[i] ?? '{}') as { depth?: number; parent?: string | null; context?: LinkText; viaOnTopic?: boolean };
      const row: FrontierRow = { url, host, score, depth: info.depth ?? 0, parent: info.parent ?? null, seq: 0, discoveredAt: 0, state: 'queued', reason: null };
      if (info.context) row.context = info.context;
      if (info.viaOnTopic !== undefined) row.viaOnTopic = info.viaOnTopic;
      return row;
    });
  }

  async setScores(scores: readonly { url: string; host: string; score: number }[]): Promise<void> {
    for (let at = 0; at < scores.length; at += RESCORE_BATCH) {
      const args: (string | number)[] = [this.prefix];
      for (const { url, host, score } of scores.slice(at, at + RESCORE_BATCH)) args.push(url, host, redisScore(score));
      await this.connection.run(RESCORE, args);
    }
  }
}

/** This crawl directory's id as a shared learner: made once, kept in its store's meta. */
export function storeLearnerId(store: CrawlStore): string {
  const kept = store.getMeta<{ id: string }>('sharedLearner');
  if (kept) return kept.id;
  const id = randomBytes(8).toString('hex');
  store.setMeta('sharedLearner', { id });
  return id;
}

/** A score as Redis reads one (±inf spelled its way). */
function redisScore(score: number): string {
  if (score === Infinity) return '+inf';
  if (score === -Infinity || Number.isNaN(score)) return '-inf';
  return String(score);
}
