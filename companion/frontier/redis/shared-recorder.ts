/**
 * A worker's crawl store as a recorder of a shared crawl: what lets a page go into the store
 * before Redis counts it, and lets a worker killed in between be settled when it is resumed.
 *
 * The order (`RedisFrontier.record`): the page is written to the store, marked unconfirmed
 * (`store/unconfirmed-pages.ts`), and synced to disk (the store's group commit); then Redis's
 * COMMIT counts it and keeps the store's recorder TAG in the URL's state (`lua-scripts.ts`);
 * then the mark goes, or the page is undone when Redis refused it (another worker recorded the
 * URL first, the crawl's budget was spent). Whenever a worker dies, every page Redis counted is
 * in some store, once:
 *
 *   killed before its COMMIT ran      the page is unconfirmed here and not counted: dropped at
 *                                     resume; its URL, still leased to the dead worker, is
 *                                     queued again (RETIRE) and fetched again
 *   killed after its COMMIT ran, before it read the answer
 *                                     unconfirmed here, counted with this store's TAG: kept
 *   refused, killed before the undo   unconfirmed here, counted under another TAG or not at
 *                                     all: dropped
 *   a COMMIT that reaches Redis only after the resume asked (a slow network)
 *                                     refused: the resume retired the dead worker first
 *   taken for dead but still running (stopped, not killed), it wakes after the resume
 *                                     its next CLAIM or COMMIT is refused and it stops; its
 *                                     heartbeat renews nothing (`lua-scripts.ts`)
 *   Redis unreachable at the COMMIT   the crawl stops (`StopCrawlError`), the page unconfirmed
 *                                     here whether or not the COMMIT ran: settled at resume
 *   a power cut                       the page was on disk before its COMMIT was sent; a lost
 *                                     confirmation or undo leaves it unconfirmed: settled
 *
 * The store's meta `sharedRecorder` keeps its part in the crawl: the crawl's name and id, the
 * store's TAG (given by Redis, one per store and crawl), and its last worker, which a resume
 * retires. The worker is written, and synced, before it commits anything.
 */
import { randomBytes } from 'node:crypto';
import { CrawlOptionsError } from '../../crawl/crawl-errors.ts';
import type { CrawlStore } from '../../store/crawl-store.ts';
import { RECORDED_BY, RETIRE } from './lua-scripts.ts';
import type { RedisConnection } from './redis-connection.ts';
import { KEY } from './redis-keys.ts';

/** The store's meta key for its part in a shared crawl. */
const META = 'sharedRecorder';

interface RecorderMeta {
  /** The crawl's name (`?crawl=`) and its id in Redis (a crawl started over there gets another). */
  crawl: string;
  crawlId: string;
  tag: string;
  /** The worker that last recorded into this store. */
  worker: string;
}

/** What a resume found of the pages its store's last worker left unconfirmed. */
export interface SettledPages {
  /** Counted by Redis under this store's TAG: kept. */
  kept: number;
  /** Not counted for this store: undone, to be fetched again by whoever claims them. */
  dropped: number;
  /** URLs the last worker still held, queued again at once. */
  requeued: number;
}

/**
 * Makes `store` this worker's record of the crawl under `prefix` (see the file header), settling
 * what its last worker left unconfirmed. Returns the store's TAG and what was settled.
 */
export async function attachRecorder(
  connection: RedisConnection,
  prefix: string,
  crawl: string,
  worker: string,
  store: CrawlStore,
): Promise<{ tag: string; settled: SettledPages }> {
  const { client } = connection;
  const metaKey = prefix + KEY.meta;
  await client.hSetNX(metaKey, 'id', randomBytes(8).toString('hex'));
  const crawlId = (await client.hGet(metaKey, 'id')) ?? '';
  const kept = store.getMeta<RecorderMeta>(META);
  const unconfirmed = store.unconfirmed.list();
  const settled: SettledPages = { kept: 0, dropped: 0, requeued: 0 };
  if (kept !== undefined && kept.crawl !== crawl && unconfirmed.length > 0) {
    throw new CrawlOptionsError(`${unconfirmed.length} page(s) in this crawl directory await the answer of the shared crawl "${kept.crawl}"; resume it with ?crawl=${kept.crawl} first`);
  }
  let tag: string;
  if (kept !== undefined && kept.crawl === crawl && kept.crawlId === crawlId) {
    tag = kept.tag;
    settled.requeued = Number(await connection.run(RETIRE, [prefix, kept.worker]));
    if (unconfirmed.length > 0) {
      const answers = (await connection.run(RECORDED_BY, [prefix, tag, ...unconfirmed.map(({ url }) => url)])) as number[];
      unconfirmed.forEach(({ seq }, i) => {
        if (answers[i] === 1) {
          store.unconfirmed.confirm(seq);
          settled.kept++;
        } else {
          store.unconfirmed.undo(seq);
          settled.dropped++;
        }
      });
    }
  } else {
    // No part in this crawl yet; or the crawl was started over in Redis, and what this store
    // left unconfirmed was for a crawl that is gone.
    tag = (await client.hIncrBy(metaKey, 'recorders', 1)).toString(36);
    for (const { seq } of unconfirmed) store.unconfirmed.undo(seq);
    settled.dropped = unconfirmed.length;
  }
  store.setMeta(META, { crawl, crawlId, tag, worker } satisfies RecorderMeta);
  await store.durable();
  return { tag, settled };
}
