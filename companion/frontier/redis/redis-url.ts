/**
 * The `--frontier` value of a shared crawl: `redis://[user:password@]host[:port][/db]`, with two
 * optional query parameters, checked here so that a bad one is one clear line before anything
 * connects:
 *
 *   crawl=NAME   which crawl in that database (several may share one Redis); default `linkscent`
 *   lease=MS     how long a claimed URL stays a worker's before it is queued again for the others,
 *                renewed by the living worker every third of it; default 60 000
 *
 * A worker that dies (kill -9) holds its URLs until its leases run out, so `lease` trades how
 * soon they are fetched by the others against how long a slow page may take: keep it well above
 * the fetch timeout (30 s by default) since a lease is renewed only between event-loop turns.
 */

export const DEFAULT_CRAWL_NAME = 'linkscent';
export const DEFAULT_LEASE_MS = 60_000;
/** Bounds on `lease`: shorter leases would be renewed more often than a busy worker can. */
export const LEASE_MS_RANGE = [1_000, 3_600_000] as const;
const CRAWL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export interface RedisFrontierUrl {
  /** The connection URL as node-redis takes it (no query). */
  connectUrl: string;
  /** The URL as printed: no password. */
  shown: string;
  crawl: string;
  leaseMs: number;
}

export class FrontierUrlError extends Error {
  override readonly name = 'FrontierUrlError';
}

export function parseRedisFrontierUrl(value: string): RedisFrontierUrl {
  const bad = (why: string) => new FrontierUrlError(`--frontier ${JSON.stringify(shownOf(value))}: ${why} (expected redis://host:port/db[?crawl=NAME&lease=MS])`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad('not a URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw bad(`unknown scheme ${url.protocol.replace(/:$/, '')}`);
  if (url.hostname === '') throw bad('no host');
  const db = url.pathname === '' || url.pathname === '/' ? 0 : Number(url.pathname.slice(1));
  if (!Number.isInteger(db) || db < 0 || db > 15 || !/^\/?\d*$/.test(url.pathname)) throw bad(`database must be a number from 0 to 15, got "${url.pathname.slice(1)}"`);
  let crawl = DEFAULT_CRAWL_NAME;
  let leaseMs = DEFAULT_LEASE_MS;
  for (const [key, raw] of url.searchParams) {
    if (key === 'crawl') {
      if (!CRAWL_NAME.test(raw)) throw bad('crawl must be 1 to 64 letters, digits, _ . or -');
      crawl = raw;
    } else if (key === 'lease') {
      const ms = Number(raw);
      if (!Number.isInteger(ms) || ms < LEASE_MS_RANGE[0] || ms > LEASE_MS_RANGE[1]) throw bad(`lease must be whole ms from ${LEASE_MS_RANGE[0]} to ${LEASE_MS_RANGE[1]}`);
      leaseMs = ms;
    } else {
      throw bad(`unknown parameter "${key}"`);
    }
  }
  const base = new URL(url.href);
  base.search = '';
  base.pathname = `/${db}`;
  return { connectUrl: base.href, shown: shownOf(base.href), crawl, leaseMs };
}

/** The URL with any password masked, for messages. */
function shownOf(value: string): string {
  return value.replace(/^(rediss?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}
