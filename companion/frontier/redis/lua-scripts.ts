/**
 * The shared frontier's Lua scripts. Each runs atomically in Redis, so no two workers, in one
 * process or many, can interleave inside a claim, a commit or a requeue (Frontera's claim, a
 * read followed by a ZREM, is not atomic, and two spiders could take one URL).
 *
 * Data model, every key under the crawl's prefix P = `linkscent:{NAME}:` (`redis-keys.ts`; the
 * braces are a hash tag, so on a Redis Cluster every key of one crawl lives in one slot, as
 * scripts that derive keys need):
 *
 *   P state        HASH  fingerprint → qSEQ (queued) | lSEQ (leased) | dTAG (done) | x (dropped):
 *                        the exact dedupe, and the URL's discovery number SEQ while it waits.
 *                        TAG is the recorder that committed the page (a worker's crawl store,
 *                        `shared-recorder.ts`), empty for a redirect target marked done: what a
 *                        resumed worker asks to settle a page it recorded when it was killed
 *                        (RECORDED_BY). Base 36 and at most 4 characters for 1.6 million stores,
 *                        it fits the allocation 'd' alone took (Redis 7.0, measured: 72.4 MB of
 *                        hash for a million fingerprints either way).
 *                        The fingerprint is the first 64 bits of SHA-1 of the URL
 *                        (`redis.sha1hex`, 16 hex digits); two URLs collide with probability
 *                        ≈ n²/2⁶⁵, about 3·10⁻⁴ over 10⁸ URLs, the only way a URL can be lost (no
 *                        Bloom filter: its false positives drop URLs silently, as scrapy-redis
 *                        found, and its issue for one was never built).
 *   P queue        ZSET  "INV|host|url" → score, every queued URL. Redis orders a sorted set by
 *                        score, then by member; INV = 999999999999 − SEQ, 12 digits, so walking
 *                        it from the top (ZREVRANGE) gives the best score first and, among equal
 *                        scores, the URL found first: the SQLite frontier's order (score DESC,
 *                        seq), so one process crawls in the same order on either frontier.
 *   P meta         HASH  the crawl's settings (strategy, maxPages, hostBudget, …, `RedisFrontier.join`),
 *                        its id, and `recorders`, the last recorder TAG given
 *   P seq          STR   the last discovery number given
 *   P info         HASH  URL → JSON {depth, parent, context, viaOnTopic} while queued or leased
 *   P hostq        HASH  host → its queued URLs
 *   P leases       ZSET  URL → lease expiry (ms, Redis's clock)
 *   P owner        HASH  URL → "worker \t score \t host \t SEQ" of the lease
 *   P host:HOST    HASH  leased (URLs leased now), next (earliest next request start, ms),
 *                        fetched (pages requested)
 *   P counts       HASH  queued, pages (records), recorded (pages requested), dropped, reaped,
 *                        duplicates
 *   P retired      SET   workers whose crawl store a later process took over (RETIRE): their
 *                        commits are refused, so one that reaches Redis after its worker was
 *                        killed cannot count a page the store no longer has
 *   P budget       HASH  the shared host budget (`crawl/host-budget.ts`): f|HOST pages requested,
 *                        o|HOST of them judged on topic, s|HOST its steps down now
 *   P hqm:HOST     SET   HOST's members of P queue, while the crawl has a host budget (a step
 *                        moves them without a scan of the queue)
 *   P learn:counts HASH  the shared online learning's summed count increments
 *                        (`crawl/learning-delta.ts` names the fields)
 *   P learn:version STR  bumped by every push of increments: workers refresh when it moved
 *   P learn:pushed HASH  a worker's store id → the last page (its fetch order) it pushed
 *
 * Time is Redis's (`TIME`), one clock for every machine. Keys derived inside a script (host:HOST)
 * are not declared in KEYS: fine on one Redis; on a cluster the hash tag keeps them with the
 * declared ones.
 */
import { STEP } from '../../crawl/host-budget.ts';

/** Helpers every script starts with. ARGV[1] is always the crawl's key prefix. */
const PRELUDE = `
local P = ARGV[1]
-- The crawl's host budget: pages per step, set in P meta by the worker that started the crawl
-- (RedisFrontier.join); 0: none, and no per-host index is kept.
local BUDGET = tonumber(redis.call('HGET', P .. 'meta', 'hostBudget') or '0')
local STEP = ${STEP}
-- A score as queued on HOST: lowered by the host's budget steps.
local function penalised(score, host)
  if BUDGET == 0 then return score end
  local steps = tonumber(redis.call('HGET', P .. 'budget', 's|' .. host) or '0')
  if steps == 0 then return score end
  return tonumber(score) - STEP * steps
end
local function index_member(host, m, add)
  if BUDGET == 0 then return end
  if add then redis.call('SADD', P .. 'hqm:' .. host, m) else redis.call('SREM', P .. 'hqm:' .. host, m) end
end
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- 64 bits of SHA-1, as 16 hex digits: the URL's key in P state.
local function fp(url) return string.sub(redis.sha1hex(url), 1, 16) end
-- A queued URL's member in P queue (see the file's header).
local function member(seq, host, url) return string.format('%012d', 999999999999 - tonumber(seq)) .. '|' .. host .. '|' .. url end
local function parse_member(m)
  local host, url = string.match(string.sub(m, 14), '^([^|]*)|(.*)$')
  return 999999999999 - tonumber(string.sub(m, 1, 12)), host, url
end
local function queued_change(host, n)
  redis.call('HINCRBY', P .. 'counts', 'queued', n)
  if redis.call('HINCRBY', P .. 'hostq', host, n) <= 0 then redis.call('HDEL', P .. 'hostq', host) end
end
-- Puts a URL on the frontier. New: queued. Queued: keeps the higher of its two scores (seed
-- 000), and the link that gave it. Leased, done or dropped: left alone. Returns 1 when changed.
local function enqueue(url, host, score, info)
  score = penalised(score, host)
  local key = fp(url)
  local st = redis.call('HGET', P .. 'state', key)
  if not st then
    local seq = redis.call('INCR', P .. 'seq')
    redis.call('HSET', P .. 'state', key, 'q' .. seq)
    redis.call('ZADD', P .. 'queue', score, member(seq, host, url))
    index_member(host, member(seq, host, url), true)
    redis.call('HSET', P .. 'info', url, info)
    queued_change(host, 1)
    return 1
  end
  if string.sub(st, 1, 1) == 'q' and redis.call('ZADD', P .. 'queue', 'GT', 'CH', score, member(string.sub(st, 2), host, url)) == 1 then
    redis.call('HSET', P .. 'info', url, info)
    return 1
  end
  return 0
end
-- A queued URL taken off the queue (claimed, recorded, dropped); its state is the caller's.
local function unqueue(seq, host, url)
  redis.call('ZREM', P .. 'queue', member(seq, host, url))
  index_member(host, member(seq, host, url), false)
  queued_change(host, -1)
end
-- Ends a URL's lease, whoever holds it. Returns {worker, score, host, seq}, or nil when not leased.
local function unlease(url)
  local owner = redis.call('HGET', P .. 'owner', url)
  if not owner then return nil end
  redis.call('HDEL', P .. 'owner', url)
  redis.call('ZREM', P .. 'leases', url)
  local worker, score, host, seq = string.match(owner, '^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t(.*)$')
  redis.call('HINCRBY', P .. 'host:' .. host, 'leased', -1)
  return {worker, score, host, seq}
end
local function back_to_queue(url, score, host, seq)
  redis.call('HSET', P .. 'state', fp(url), 'q' .. seq)
  redis.call('ZADD', P .. 'queue', score, member(seq, host, url))
  index_member(host, member(seq, host, url), true)
  queued_change(host, 1)
end
-- A lease held by this worker (its owner field starts with the worker's id).
local function mine(url, worker)
  local owner = redis.call('HGET', P .. 'owner', url)
  return owner and string.sub(owner, 1, #worker + 1) == worker .. '\\t'
end
-- The URL's state letter and SEQ.
local function state_of(url)
  local st = redis.call('HGET', P .. 'state', fp(url))
  if not st then return nil, nil end
  return string.sub(st, 1, 1), string.sub(st, 2)
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
 * The claim: first the reaper, then the SQLite frontier's claim rule (`CrawlState.decide`,
 * `FrontierQueries.claim`) over the shared queue, for every worker at once.
 *
 * ARGV: P, worker, leaseMs, window (rows looked at), perHostConcurrency, maxPagesPerHost (0:
 * none), maxPages, then the hosts this worker has set aside (robots.txt unreachable for now).
 *
 * 1. Reaper: leases past their expiry (a worker that died, or one too slow to renew) end, and
 *    their URLs, if not recorded meanwhile, are queued again with their score and discovery
 *    number (64 per claim, so one claim stays short; the next claims take the rest).
 * 2. Budget: once the crawl's requested pages reach maxPages, nothing more is handed out.
 * 3. The queue from its best row down, `window` rows at most (rows of set-aside hosts neither
 *    taken nor counted; at most 4,096 of them read): a row whose host reached maxPagesPerHost is
 *    dropped; one whose host has perHostConcurrency URLs leased, or would reach the cap with the
 *    leased ones, or whose next request may not start yet (`next`, set by SLOT and RELEASE), is
 *    passed over; the first other row is leased to the worker.
 *
 * Returns {'url', url, score, host, info, rank, queued} (rank: 1 + the queued rows ranked above
 * it, passed over or set aside), {'budget', recorded}, {'none', queued}, or {'retired'} when the
 * worker was retired (RETIRE): a process taken for dead that still runs (stopped, not killed)
 * would only fetch pages whose COMMIT is refused, holding their URLs meanwhile.
 */
export const CLAIM = `${PRELUDE}
local worker, leaseMs, window = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local conc, cap, maxPages = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
if redis.call('SISMEMBER', P .. 'retired', worker) == 1 then return {'retired'} end
local now = now_ms()
local counts = P .. 'counts'

for _, url in ipairs(redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', now, 'LIMIT', 0, 64)) do
  local o = unlease(url)
  if o and state_of(url) == 'l' then
    back_to_queue(url, o[2], o[3], o[4])
    redis.call('HINCRBY', counts, 'reaped', 1)
  end
end

local recorded = redis.call('HGET', counts, 'recorded') or '0'
if tonumber(recorded) >= maxPages then return {'budget', recorded} end

local aside = {}
for i = 8, #ARGV do aside[ARGV[i]] = true end
local hosts = {}
local scanned, skipped, asideAhead, offset = 0, 0, 0, 0
while scanned < window and asideAhead < 4096 do
  local rows = redis.call('ZREVRANGE', P .. 'queue', offset, offset + 63, 'WITHSCORES')
  if #rows == 0 then break end
  offset = offset + #rows / 2
  for i = 1, #rows, 2 do
    local m, score = rows[i], rows[i + 1]
    local seq, host, url = parse_member(m)
    if aside[host] then
      asideAhead = asideAhead + 1
    else
      scanned = scanned + 1
      local h = hosts[host]
      if not h then
        local raw = redis.call('HMGET', P .. 'host:' .. host, 'leased', 'next', 'fetched')
        h = {tonumber(raw[1] or '0'), tonumber(raw[2] or '0'), tonumber(raw[3] or '0')}
        hosts[host] = h
      end
      local leased, nextAt, fetched = h[1], h[2], h[3]
      if cap > 0 and fetched >= cap then
        unqueue(seq, host, url)
        redis.call('HSET', P .. 'state', fp(url), 'x')
        redis.call('HDEL', P .. 'info', url)
        redis.call('HINCRBY', counts, 'dropped', 1)
        offset = offset - 1
      elseif leased >= conc or (cap > 0 and fetched + leased >= cap) or nextAt > now then
        skipped = skipped + 1
      else
        unqueue(seq, host, url)
        redis.call('HSET', P .. 'state', fp(url), 'l' .. seq)
        redis.call('ZADD', P .. 'leases', now + leaseMs, url)
        redis.call('HSET', P .. 'owner', url, worker .. '\\t' .. score .. '\\t' .. host .. '\\t' .. seq)
        redis.call('HINCRBY', P .. 'host:' .. host, 'leased', 1)
        local queued = redis.call('HGET', counts, 'queued') or '0'
        return {'url', url, score, host, redis.call('HGET', P .. 'info', url) or '{}', tostring(1 + skipped + asideAhead), queued}
      end
      if scanned >= window then break end
    end
  end
end
return {'none', redis.call('HGET', counts, 'queued') or '0'}
`;

/**
 * Records a settled URL, once: a page is recorded by the first worker to commit it, even when
 * two raced (the first one's lease ran out while it fetched and another claimed the URL). The
 * worker has written the page to its own store already (`redis-frontier.ts`, `record`); the
 * URL's state keeps the recorder's TAG, so that a worker killed before it read this reply can
 * tell, when resumed, that the page is its own (RECORDED_BY).
 *
 * ARGV: P, worker, recorder TAG, url, host, finalUrl, finalHost, requested (1: the page was
 * requested, 0: robots.txt or the address rule refused it), maxPages, judged ('1' on topic, '0'
 * off, '' not judged), then (url, host, score, info) per child.
 *
 * With a host budget, a requested page counts for its host once, here, where it is recorded
 * once: after every BUDGET pages of a host without one on topic, the host's queued URLs drop a
 * STEP (its children below included), and its first on-topic page lifts every step it took, as
 * `crawl/host-budget.ts` does in one process, with the counts of every worker.
 *
 * Returns {'retired'} when the worker was retired (its store taken over by a later process:
 * nothing is counted); {'duplicate'} when the URL is done already; {'budget', recorded} when the
 * crawl's requested pages reached maxPages before this one (the URL goes back to the queue, as a
 * run stopped at maxPages leaves its fetches in flight); else {'ok', recorded, queued}. A
 * recorded URL's lease ends whoever holds it; a redirect target that is queued is marked done
 * too (not fetched again under its own name), one leased by another worker is left to it, and
 * one recorded already keeps its recorder.
 */
export const COMMIT = `${PRELUDE}
local worker, tag = ARGV[2], ARGV[3]
local url, host, finalUrl, finalHost = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local requested, maxPages = ARGV[8] == '1', tonumber(ARGV[9])
local counts = P .. 'counts'
if redis.call('SISMEMBER', P .. 'retired', worker) == 1 then return {'retired'} end
local st, seq = state_of(url)
if st == 'd' then
  redis.call('HINCRBY', counts, 'duplicates', 1)
  return {'duplicate'}
end
local recorded = redis.call('HGET', counts, 'recorded') or '0'
if tonumber(recorded) >= maxPages then
  local o = unlease(url)
  if o and st == 'l' then back_to_queue(url, o[2], o[3], o[4]) end
  return {'budget', recorded}
end
if st == 'q' then unqueue(seq, host, url) end
unlease(url)
redis.call('HSET', P .. 'state', fp(url), 'd' .. tag)
redis.call('HDEL', P .. 'info', url)
redis.call('HINCRBY', counts, 'pages', 1)
if requested then
  redis.call('HINCRBY', counts, 'recorded', 1)
  redis.call('HINCRBY', P .. 'host:' .. host, 'fetched', 1)
  if BUDGET > 0 then
    local b = P .. 'budget'
    local fetched = redis.call('HINCRBY', b, 'f|' .. host, 1)
    local on = tonumber(redis.call('HGET', b, 'o|' .. host) or '0')
    if ARGV[10] == '1' then on = redis.call('HINCRBY', b, 'o|' .. host, 1) end
    local steps = tonumber(redis.call('HGET', b, 's|' .. host) or '0')
    local due = 0
    if on == 0 then due = math.floor(fetched / BUDGET) end
    if due ~= steps then
      for _, m in ipairs(redis.call('SMEMBERS', P .. 'hqm:' .. host)) do redis.call('ZINCRBY', P .. 'queue', -STEP * (due - steps), m) end
      if due == 0 then redis.call('HDEL', b, 's|' .. host) else redis.call('HSET', b, 's|' .. host, due) end
    end
  end
end
if finalUrl ~= url then
  local fst, fseq = state_of(finalUrl)
  if fst == 'q' then
    unqueue(fseq, finalHost, finalUrl)
    redis.call('HDEL', P .. 'info', finalUrl)
  end
  if fst ~= 'l' and fst ~= 'd' then redis.call('HSET', P .. 'state', fp(finalUrl), 'd') end
end
for i = 11, #ARGV, 4 do enqueue(ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]) end
return {'ok', redis.call('HGET', counts, 'recorded') or '0', redis.call('HGET', counts, 'queued') or '0'}
`;

/**
 * A worker's crawl store taken over by a later process (`--resume`, `shared-recorder.ts`): its
 * last worker is retired, so a commit of its that reaches Redis late is refused, and the URLs it
 * held go back to the queue now rather than when their leases run out (counted as reaped).
 * ARGV: P, worker. Returns how many URLs were queued again.
 */
export const RETIRE = `${PRELUDE}
local worker = ARGV[2]
redis.call('SADD', P .. 'retired', worker)
redis.call('ZREM', P .. 'workers', worker)
local owners = redis.call('HGETALL', P .. 'owner')
local n = 0
for i = 1, #owners, 2 do
  local url = owners[i]
  if string.sub(owners[i + 1], 1, #worker + 1) == worker .. '\t' then
    local o = unlease(url)
    if state_of(url) == 'l' then
      back_to_queue(url, o[2], o[3], o[4])
      redis.call('HINCRBY', P .. 'counts', 'reaped', 1)
      n = n + 1
    end
  end
end
return n
`;

/**
 * Which of the URLs the recorder TAG committed (their state is dTAG). ARGV: P, TAG, then URLs.
 * Returns 1 or 0 per URL.
 */
export const RECORDED_BY = `${PRELUDE}
local done = 'd' .. ARGV[2]
local answers = {}
for i = 3, #ARGV do
  if redis.call('HGET', P .. 'state', fp(ARGV[i])) == done then answers[#answers + 1] = 1 else answers[#answers + 1] = 0 end
end
return answers
`;

/** A URL this worker abandoned (the run stopped, robots.txt unreachable for now): queued again. ARGV: P, worker, url. */
export const REQUEUE = `${PRELUDE}
local worker, url = ARGV[2], ARGV[3]
if not mine(url, worker) then return 0 end
local o = unlease(url)
if state_of(url) == 'l' then back_to_queue(url, o[2], o[3], o[4]) end
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
 * it was last seen. A lease that ran out and went to another worker is not taken back. A retired
 * worker (RETIRE) is not seen again, nor are its leases renewed: returns -1.
 * ARGV: P, worker, leaseMs, then the worker's URLs.
 */
export const RENEW = `${PRELUDE}
local worker, leaseMs = ARGV[2], tonumber(ARGV[3])
if redis.call('SISMEMBER', P .. 'retired', worker) == 1 then return -1 end
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

/**
 * Online learning's push (`shared-learning.ts`): one update's count increments added to the
 * shared model, and its version moved, at most once per (store, upToSeq). ARGV: P, store id,
 * upToSeq, then (field, increment) pairs. A push whose upToSeq is not above the store's last one
 * is a retry or a restarted worker's second push of the same pages, and changes nothing. Fields
 * that sum to zero (a link moved from one level to another) are deleted. Returns the version.
 */
export const LEARN = `${PRELUDE}
local id, upTo = ARGV[2], tonumber(ARGV[3])
local last = tonumber(redis.call('HGET', P .. 'learn:pushed', id) or '0')
if upTo <= last then return tonumber(redis.call('GET', P .. 'learn:version') or '0') end
for i = 4, #ARGV, 2 do
  if redis.call('HINCRBY', P .. 'learn:counts', ARGV[i], ARGV[i + 1]) == 0 then redis.call('HDEL', P .. 'learn:counts', ARGV[i]) end
end
redis.call('HSET', P .. 'learn:pushed', id, upTo)
return redis.call('INCR', P .. 'learn:version')
`;

/**
 * New scores for queued URLs after online learning, higher or lower (ZADD XX, not GT: what the
 * model learned may make a link worse), lowered by their host's budget steps as when queued. A
 * URL no longer queued (claimed, settled) is left alone.
 * ARGV: P, then (url, host, score) per URL. Returns how many were queued.
 */
export const RESCORE = `${PRELUDE}
local n = 0
for i = 2, #ARGV, 3 do
  local url, host = ARGV[i], ARGV[i + 1]
  local st, seq = state_of(url)
  if st == 'q' then
    redis.call('ZADD', P .. 'queue', 'XX', penalised(ARGV[i + 2], host), member(seq, host, url))
    n = n + 1
  end
end
return n
`;
