/**
 * The shared crawl's key names (the data model is in `lua-scripts.ts`). The crawl's name sits in
 * a hash tag, `{NAME}`, so a Redis Cluster keeps every key of one crawl in one slot.
 */

/** The prefix of every key of crawl `name`: `linkscent:{name}:`. */
export function crawlPrefix(name: string): string {
  return `linkscent:{${name}}:`;
}

/** The keys read from outside the scripts. */
export const KEY = {
  meta: 'meta',
  counts: 'counts',
  leases: 'leases',
  queue: 'queue',
  hostQueued: 'hostq',
  workers: 'workers',
  state: 'state',
  info: 'info',
  learnCounts: 'learn:counts',
  learnVersion: 'learn:version',
  learnPushed: 'learn:pushed',
  robots: (origin: string) => `robots:${origin}`,
  robotsLock: (origin: string) => `robots-lock:${origin}`,
} as const;
