/**
 * The shared frontier's Lua scripts. Each runs atomically in Redis, so no two workers, in one
 * process or many, can interleave inside a claim, a commit or a requeue (Frontera's claim, a
 * read followed by a ZREM, is not atomic, and two spiders could take one URL).
 *
 * Data model, every key under the crawl's prefix P = `linkscent:{NAME}:` (`redis-keys.ts`; the
 * braces are a hash tag, so on a Redis Cluster every key of one crawl lives in one slot, as
 * scripts that derive keys need):
 *
 *   P state        HASH  fingerprint → q (queued) | l (leased) | d (done) | x (dropped): the
 *                        exact dedupe. The fingerprint is the first 64 bits of SHA-1 of the URL
 *                        (`redis.sha1hex`); two URLs collide with probability ≈ n²/2⁶⁵, about
 *                        3·10⁻⁴ over 10⁸ URLs, the only way a URL can be lost (no Bloom filter:
 *                        its false positives would drop URLs silently, as scrapy-redis found).
 *   P q:HOST       ZSET  URL → score, the host's queued URLs (higher score is crawled sooner)
 *   P hosts        ZSET  host → its best queued score: the claim walks hosts best first
 *   P info         HASH  URL → JSON {depth, parent, context, viaOnTopic} while queued or leased
 *   P leases       ZSET  URL → lease expiry (ms, Redis's clock)
 *   P owner        HASH  URL → "worker \t score \t host" of the lease
 *   P host:HOST    HASH  leased (URLs leased now), next (earliest next request start, ms),
 *                        fetched (pages requested)
 *   P counts       HASH  queued, pages (records), recorded (pages requested), dropped, reaped,
 *                        duplicates
 *
 * Time is Redis's (`TIME`), one clock for every machine. Keys derived inside a script (q:HOST,
 * host:HOST) are not declared in KEYS: fine on one Redis; on a cluster the hash tag keeps them
 * with the declared ones.
 */

/** Helpers every script starts with. ARGV[1] is always the crawl's key prefix. */
const PRELUDE = `
local P = ARGV[1]
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- 64 bits of SHA-1, as 16 hex digits: the URL's key in P state.
local function fp(url) return string.sub(redis.sha1hex(url), 1, 16) end
-- The host's place in P hosts: its best queued score, or gone when nothing is queued.
local function reset_host_best(host)
  local top = redis.call('ZREVRANGE', P .. 'q:' .. host, 0, 0, 'WITHSCORES')
  if #top == 0 then redis.call('ZREM', P .. 'hosts', host) else redis.call('ZADD', P .. 'hosts', top[2], host) end
end
-- Puts a URL on the frontier. New: queued. Queued: keeps the higher of its two scores (seed
-- 000), and the link that gave it. Leased, done or dropped: left alone. Returns 1 when changed.
local function enqueue(url, host, score, info)
  local key = fp(url)
  local st = redis.call('HGET', P .. 'state', key)
  if not st then
    redis.call('HSET', P .. 'state', key, 'q')
    redis.call('ZADD', P .. 'q:' .. host, score, url)
    redis.call('HSET', P .. 'info', url, info)
    redis.call('ZADD', P .. 'hosts', 'GT', score, host)
    redis.call('HINCRBY', P .. 'counts', 'queued', 1)
    return 1
  end
  if st == 'q' and redis.call('ZADD', P .. 'q:' .. host, 'GT', 'CH', score, url) == 1 then
    redis.call('HSET', P .. 'info', url, info)
    redis.call('ZADD', P .. 'hosts', 'GT', score, host)
    return 1
  end
  return 0
end
-- Ends a URL's lease, whoever holds it. Returns {worker, score, host}, or nil when not leased.
local function unlease(url)
  local owner = redis.call('HGET', P .. 'owner', url)
  if not owner then return nil end
  redis.call('HDEL', P .. 'owner', url)
  redis.call('ZREM', P .. 'leases', url)
  local worker, score, host = string.match(owner, '^([^\\t]*)\\t([^\\t]*)\\t(.*)$')
  redis.call('HINCRBY', P .. 'host:' .. host, 'leased', -1)
  return {worker, score, host}
end
local function back_to_queue(url, score, host)
  redis.call('HSET', P .. 'state', fp(url), 'q')
  redis.call('ZADD', P .. 'q:' .. host, score, url)
  redis.call('ZADD', P .. 'hosts', 'GT', score, host)
  redis.call('HINCRBY', P .. 'counts', 'queued', 1)
end
-- A lease held by this worker (its owner field starts with the worker's id).
local function mine(url, worker)
  local owner = redis.call('HGET', P .. 'owner', url)
  return owner and string.sub(owner, 1, #worker + 1) == worker .. '\\t'
end
`;

/**
 * Puts URLs on the frontier. ARGV: P, then (url, host, score, info) per URL. Returns how many
 * rows changed (new, or a higher score).
 */
export const ENQUEUE = `${PRELUDE}
local changed = 0
for i = 2, #ARGV, 4 do changed = changed + enqueue(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]) end
return changed
`;

/**
 * The claim: first the reaper, then the best URL among hosts whose politeness slot is free.
 *
 * ARGV: P, worker, leaseMs, window (hosts looked at), perHostConcurrency, maxPagesPerHost (0:
 * none), maxPages, then the hosts this worker has set aside (robots.txt unreachable for now).
 *
 * 1. Reaper: leases past their expiry (a worker that died, or one too slow to renew) end, and
 *    their URLs, if not recorded meanwhile, are queued again with their score (64 per claim, so
 *    one claim stays short; the next claims take the rest).
 * 2. Budget: once the crawl's requested pages reach maxPages, nothing more is handed out.
 * 3. Hosts best first (P hosts), at most `window` of them: a host is free when fewer than
 *    perHostConcurrency of its URLs are leased, its next request may start now (`next`, set by
 *    SLOT), and it is under maxPagesPerHost counting its leased URLs. A host at its cap has its
 *    queued URLs dropped (a batch per claim). The free host's best URL is leased to the worker.
 *
 * Returns {'url', url, score, host, info, rank, queued} (rank: 1 + the queued URLs of the
 * hosts passed over that score higher), {'budget'}, or {'none', queued, leased, waitMs} (waitMs:
 * when the soonest host passed over for its delay frees, -1 when none is waiting on one).
 */
export const CLAIM = `${PRELUDE}
local worker, leaseMs, window = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local conc, cap, maxPages = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local now = now_ms()
local counts = P .. 'counts'

for _, url in ipairs(redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', now, 'LIMIT', 0, 64)) do
  local o = unlease(url)
  if o and redis.call('HGET', P .. 'state', fp(url)) == 'l' then
    back_to_queue(url, o[2], o[3])
    redis.call('HINCRBY', counts, 'reaped', 1)
  end
end

if tonumber(redis.call('HGET', counts, 'recorded') or '0') >= maxPages then return {'budget'} end

local aside = {}
for i = 8, #ARGV do aside[ARGV[i]] = true end
local passed = {}
local soonest = -1
for _, host in ipairs(redis.call('ZREVRANGE', P .. 'hosts', 0, window - 1)) do
  if not aside[host] then
    local h = redis.call('HMGET', P .. 'host:' .. host, 'leased', 'next', 'fetched')
    local leased, nextAt, fetched = tonumber(h[1] or '0'), tonumber(h[2] or '0'), tonumber(h[3] or '0')
    if cap > 0 and fetched >= cap then
      local q = P .. 'q:' .. host
      local urls = redis.call('ZRANGE', q, 0, 999)
      for _, url in ipairs(urls) do
        redis.call('HSET', P .. 'state', fp(url), 'x')
        redis.call('HDEL', P .. 'info', url)
        redis.call('ZREM', q, url)
      end
      redis.call('HINCRBY', counts, 'queued', -#urls)
      redis.call('HINCRBY', counts, 'dropped', #urls)
      reset_host_best(host)
    elseif leased < conc and (cap == 0 or fetched + leased < cap) and nextAt <= now then
      local popped = redis.call('ZPOPMAX', P .. 'q:' .. host)
      local url, score = popped[1], popped[2]
      reset_host_best(host)
      redis.call('HSET', P .. 'state', fp(url), 'l')
      local queued = redis.call('HINCRBY', counts, 'queued', -1)
      redis.call('ZADD', P .. 'leases', now + leaseMs, url)
      redis.call('HSET', P .. 'owner', url, worker .. '\\t' .. score .. '\\t' .. host)
      redis.call('HINCRBY', P .. 'host:' .. host, 'leased', 1)
      local rank = 1
      for _, other in ipairs(passed) do rank = rank + redis.call('ZCOUNT', P .. 'q:' .. other, '(' .. score, '+inf') end
      return {'url', url, score, host, redis.call('HGET', P .. 'info', url) or '{}', tostring(rank), tostring(queued)}
    else
      table.insert(passed, host)
      if leased < conc and nextAt > now and (soonest < 0 or nextAt - now < soonest) then soonest = nextAt - now end
    end
  end
end
return {'none', redis.call('HGET', counts, 'queued') or '0', tostring(redis.call('ZCARD', P .. 'leases')), tostring(soonest)}
`;

/**
 * Records a settled URL, once: a page is recorded by the first worker to commit it, even when
 * two raced (the first one's lease ran out while it fetched and another claimed the URL).
 *
 * ARGV: P, url, host, finalUrl, finalHost, requested (1: the page was requested, 0: robots.txt
 * or the address rule refused it), maxPages, then (url, host, score, info) per child.
 *
 * Returns {'duplicate'} when the URL is done already; {'budget'} when the crawl's requested
 * pages reached maxPages before this one (the URL goes back to the queue, as a run stopped at
 * maxPages leaves its fetches in flight); else {'ok', recorded, queued}. A recorded URL's lease
 * ends whoever holds it; a redirect target that is queued is marked done too (not fetched again
 * under its own name), one leased by another worker is left to it.
 */
export const COMMIT = `${PRELUDE}
local url, host, finalUrl, finalHost = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local requested, maxPages = ARGV[6] == '1', tonumber(ARGV[7])
local counts = P .. 'counts'
local key = fp(url)
local st = redis.call('HGET', P .. 'state', key)
if st == 'd' then
  redis.call('HINCRBY', counts, 'duplicates', 1)
  return {'duplicate'}
end
if tonumber(redis.call('HGET', counts, 'recorded') or '0') >= maxPages then
  local o = unlease(url)
  if o and st == 'l' then back_to_queue(url, o[2], o[3]) end
  return {'budget'}
end
if st == 'q' then
  redis.call('ZREM', P .. 'q:' .. host, url)
  reset_host_best(host)
  redis.call('HINCRBY', counts, 'queued', -1)
end
unlease(url)
redis.call('HSET', P .. 'state', key, 'd')
redis.call('HDEL', P .. 'info', url)
redis.call('HINCRBY', counts, 'pages', 1)
if requested then
  redis.call('HINCRBY', counts, 'recorded', 1)
  redis.call('HINCRBY', P .. 'host:' .. host, 'fetched', 1)
end
if finalUrl ~= url then
  local fkey = fp(finalUrl)
  local fst = redis.call('HGET', P .. 'state', fkey)
  if fst == 'q' then
    redis.call('ZREM', P .. 'q:' .. finalHost, finalUrl)
    reset_host_best(finalHost)
    redis.call('HDEL', P .. 'info', finalUrl)
    redis.call('HINCRBY', counts, 'queued', -1)
  end
  if fst ~= 'l' then redis.call('HSET', P .. 'state', fkey, 'd') end
end
for i = 8, #ARGV, 4 do enqueue(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]) end
return {'ok', redis.call('HGET', counts, 'recorded') or '0', redis.call('HGET', counts, 'queued') or '0'}
`;

/** A URL this worker abandoned (the run stopped, robots.txt unreachable for now): queued again. ARGV: P, worker, url. */
export const REQUEUE = `${PRELUDE}
local worker, url = ARGV[2], ARGV[3]
if not mine(url, worker) then return 0 end
local o = unlease(url)
if redis.call('HGET', P .. 'state', fp(url)) == 'l' then back_to_queue(url, o[2], o[3]) end
return 1
`;

/** A URL this worker will not fetch (a hook skipped it): dropped. ARGV: P, worker, url. */
export const DROP = `${PRELUDE}
local worker, url = ARGV[2], ARGV[3]
if not mine(url, worker) then return 0 end
unlease(url)
redis.call('HSET', P .. 'state', fp(url), 'x')
redis.call('HDEL', P .. 'info', url)
redis.call('HINCRBY', P .. 'counts', 'dropped', 1)
return 1
`;

/**
 * The living worker's heartbeat: its leases run `leaseMs` from now again, and P workers says when
 * it was last seen. A lease that ran out and went to another worker is not taken back.
 * ARGV: P, worker, leaseMs, then the worker's URLs.
 */
export const RENEW = `${PRELUDE}
local worker, leaseMs = ARGV[2], tonumber(ARGV[3])
local now = now_ms()
redis.call('ZADD', P .. 'workers', now, worker)
local renewed = 0
for i = 4, #ARGV do
  if mine(ARGV[i], worker) then
    redis.call('ZADD', P .. 'leases', 'XX', now + leaseMs, ARGV[i])
    renewed = renewed + 1
  end
end
return renewed
`;

/**
 * A host's politeness slot across every process: a request may start when the host's `next`
 * has passed, and then `next` moves `delayMs` on (start to start, as `fetch/host-scheduler.ts`
 * spaces them in one process; delayMs is max(--delay-ms, the host's Crawl-delay)). Returns 0
 * when the slot is taken, else the ms to wait before asking again. ARGV: P, host, delayMs.
 *
 * RELEASE moves `next` on again from the end of the fetch. Start to start alone was not enough
 * across processes: a worker whose event loop was busy (parsing another page) sent its request
 * tens of ms after its slot began, and the next worker's came sooner than the delay after it
 * (the e2e test measured 78 ms for a 150 ms delay). From the end, two requests to a host are at
 * least the delay apart as the server sees them. The claim hands out a host's URL only while
 * fewer than perHostConcurrency are leased, and a lease ends after its slot's release (one
 * connection, commands in order), so no slot is ever waited on for a holder.
 */
export const SLOT = `${PRELUDE}
local key, delay = P .. 'host:' .. ARGV[2], tonumber(ARGV[3])
local now = now_ms()
local nextAt = tonumber(redis.call('HGET', key, 'next') or '0')
if nextAt > now then return nextAt - now end
redis.call('HSET', key, 'next', now + delay)
return 0
`;

/** The end of a request: the host's next one starts `delayMs` from now at the earliest. ARGV: P, host, delayMs. */
export const RELEASE = `${PRELUDE}
local key = P .. 'host:' .. ARGV[2]
local until_ms = now_ms() + tonumber(ARGV[3])
if tonumber(redis.call('HGET', key, 'next') or '0') < until_ms then redis.call('HSET', key, 'next', until_ms) end
return 0
`;

/** Holds a host's next request back by `ms` (a Retry-After, a retry's backoff). ARGV: P, host, ms. */
export const BACK_OFF = `${PRELUDE}
local key = P .. 'host:' .. ARGV[2]
local until_ms = now_ms() + tonumber(ARGV[3])
if tonumber(redis.call('HGET', key, 'next') or '0') < until_ms then redis.call('HSET', key, 'next', until_ms) end
return 0
`;
