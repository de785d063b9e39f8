/**
 * robots.txt fetched once per host per crawl, whatever the number of workers: the first worker
 * to ask takes a lock (`SET NX PX`), fetches, and stores a lasting answer for the crawl; the
 * others poll for it while the lock stands. A lock whose holder died runs out after
 * `LOCK_MS`, and the next worker fetches. The stored text is robots.txt as the fetcher kept it
 * (its first 500 KiB, rules past the matching budget dropped: `fetch/robots.ts`), so a stranger's
 * file costs Redis no more than that per host.
 */
import type { LastingRobots, SharedRobots } from '../../fetch/robots.ts';
import type { RedisConnection } from './redis-connection.ts';
import { KEY } from './redis-keys.ts';

/** Longer than a robots.txt fetch may take (its response timeout and 5 redirects, in practice). */
const LOCK_MS = 60_000;
const POLL_MS = 50;

export function sharedRobots(connection: RedisConnection, prefix: string): SharedRobots {
  const { client } = connection;
  return {
    async once(origin, fetchHere, signal): Promise<LastingRobots | undefined> {
      const key = prefix + KEY.robots(origin);
      const lock = prefix + KEY.robotsLock(origin);
      for (;;) {
        signal.throwIfAborted();
        const stored = await client.get(key);
        if (stored !== null) return JSON.parse(stored) as LastingRobots;
        if ((await client.set(lock, '1', { condition: 'NX', expiration: { type: 'PX', value: LOCK_MS } })) === 'OK') {
          try {
            const lasting = await fetchHere();
            if (lasting) await client.set(key, JSON.stringify(lasting));
            return lasting;
          } finally {
            await client.del(lock);
          }
        }
        // Another worker is fetching it. When the lock goes without an answer (robots.txt was
        // unreachable for it), this worker takes the lock and asks for itself.
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
  };
}
