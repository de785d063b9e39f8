/**
 * robots.txt, fetched once per origin and kept for the run (RFC 9309, with Google's documented
 * conventions where the RFC leaves room):
 *
 * - 2xx: parsed with robots-parser; only the first 500 KiB are read (Google's limit), the
 *   rest ignored, cut back to the last whole line; rules past a bound on matching work are
 *   dropped before parsing (`robots-budget.ts`), so no file can make every URL slow.
 * - 3xx: followed, up to 5 hops (RFC 9309 §2.3.1.2); more is treated as "no robots.txt".
 * - 4xx other than 429: no usable robots.txt, so everything is allowed.
 * - 5xx, 429, timeouts and network errors: the site is unreachable or overloaded, so everything
 *   is disallowed *for now*; the verdict expires after `unreachableRetryMs` (default 5 minutes)
 *   and the next question fetches robots.txt again. Google does the same, with longer periods.
 *   A failure that time will not mend (the host name does not resolve, no route to it) is marked
 *   not `transient`, so a crawl does not wait on it. When the host itself gave no answer at all
 *   (refused, not resolvable, timed out: no HTTP status), the verdict says so (`noAnswer`): the
 *   host is unreachable, which is not the same as robots.txt forbidding anything.
 *
 * Concurrent callers for one origin share one in-flight fetch. A caller's signal stops that
 * caller's wait, not the fetch the others share; `close()` ends every fetch still in flight.
 * Crawl-delay is read for our user agent's group (or `*`) and capped at `maxCrawlDelayMs`, so a
 * hostile `Crawl-delay: 86400` cannot park a worker for a day.
 *
 * Several crawl processes on one shared frontier (`shared`) fetch a host's robots.txt once per
 * crawl: one process fetches it, the others read what it stored. Only lasting answers (rules,
 * allow-all) are shared; "unreachable for now" is each process's own, and asked again.
 */
import robotsParser from 'robots-parser';
import type { Dispatcher } from 'undici';
import { classifyFetchFailure } from './fetch-errors.ts';
import type { FetchOptions } from './fetch-options.ts';
import { sharedAgent } from './http-agent.ts';
import { REDIRECT_STATUSES, discardBody, dropBody, headerValue, sendGet, withDeadline } from './http-exchange.ts';
import { BodyReader } from './response-body.ts';
import { boundRobotsRules } from './robots-budget.ts';
import type { NoAnswer, RobotsAccess } from './types.ts';

/** Google reads the first 500 KiB of a robots.txt and ignores the rest. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
const MAX_ROBOTS_REDIRECTS = 5;

export interface RobotsCacheOptions {
  /** Matched against robots.txt groups (robots-parser keys on the text before the first `/`). */
  userAgent: string;
  /** Timeouts and the User-Agent for robots.txt requests (maxBytes is replaced by 500 KiB). */
  fetch: FetchOptions;
  /** Defaults to the shared keep-alive Agent. */
  dispatcher?: Dispatcher;
  /** How long "unreachable, disallow all" stands before robots.txt is asked for again. Default 300 000. */
  unreachableRetryMs?: number;
  /** Upper bound on an honoured Crawl-delay, in ms. Default 30 000. */
  maxCrawlDelayMs?: number;
  /** robots.txt answers shared with other crawl processes (`frontier/redis/shared-robots.ts`). Default none. */
  shared?: SharedRobots;
}

/** A robots.txt answer that lasts for the crawl, in plain data, as processes share it. */
export type LastingRobots = { kind: 'rules'; status: number; text: string; droppedRules: number } | { kind: 'allow-all'; status: number; reason: string };

export interface SharedRobots {
  /**
   * What one process fetched for `origin`: the first to ask runs `fetchHere` and stores a lasting
   * answer; the others wait for it and read it. Undefined when the answer did not last (the
   * fetcher found robots.txt unreachable): each process then asks for itself.
   */
  once(origin: string, fetchHere: () => Promise<LastingRobots | undefined>, signal: AbortSignal): Promise<LastingRobots | undefined>;
}

type RobotsRules = ReturnType<typeof robotsParser>;

/** What is known about one origin's robots.txt. */
export type RobotsVerdict =
  | { kind: 'rules'; rules: RobotsRules; status: number; droppedRules: number; text: string }
  | { kind: 'allow-all'; status: number; reason: string }
  | { kind: 'disallow-all'; status: number; reason: string; until: number; transient: boolean; noAnswer?: NoAnswer };

export type { RobotsAccess } from './types.ts';

export class RobotsCache {
  private readonly entries = new Map<string, Promise<RobotsVerdict>>();
  /** Aborted by `close()`: every robots.txt fetch still in flight ends. */
  private readonly closing = new AbortController();
  private readonly unreachableRetryMs: number;
  private readonly maxCrawlDelayMs: number;

  constructor(private readonly options: RobotsCacheOptions) {
    this.unreachableRetryMs = options.unreachableRetryMs ?? 300_000;
    this.maxCrawlDelayMs = options.maxCrawlDelayMs ?? 30_000;
  }

  /** Whether our user agent may fetch `url`. Non-HTTP or unparsable URLs are never allowed. */
  async isAllowed(url: string, signal?: AbortSignal): Promise<boolean> {
    return (await this.access(url, signal)) === 'allowed';
  }

  /**
   * Like `isAllowed`, telling a refusal by the rules from robots.txt being unreachable for now:
   * then `{ unreachableUntil }`, when the verdict expires and robots.txt is asked for again.
   * Rejects with `signal`'s reason when it aborts before the answer.
   */
  async access(url: string, signal?: AbortSignal): Promise<RobotsAccess> {
    const parsed = parseHttpUrl(url);
    if (!parsed) return 'denied';
    if (parsed.pathname === '/robots.txt') return 'allowed';
    const verdict = await unlessAborted(this.verdict(parsed.origin), signal);
    if (verdict.kind === 'allow-all') return 'allowed';
    if (verdict.kind === 'disallow-all') {
      const { until, reason, transient, noAnswer } = verdict;
      return { unreachableUntil: until, reason, transient, ...(noAnswer ? { noAnswer } : {}) };
    }
    return (verdict.rules.isAllowed(parsed.href, this.options.userAgent) ?? true) ? 'allowed' : 'denied';
  }

  /** The origin's Crawl-delay for our user agent in ms (capped), or undefined when none is set. */
  async crawlDelayMs(url: string, signal?: AbortSignal): Promise<number | undefined> {
    const parsed = parseHttpUrl(url);
    if (!parsed) return undefined;
    const verdict = await unlessAborted(this.verdict(parsed.origin), signal);
    if (verdict.kind !== 'rules') return undefined;
    const seconds = verdict.rules.getCrawlDelay(this.options.userAgent);
    if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return undefined;
    return Math.min(Math.round(seconds * 1000), this.maxCrawlDelayMs);
  }

  /** The cached verdict for an origin, fetching robots.txt when unknown or expired. */
  verdict(origin: string): Promise<RobotsVerdict> {
    const cached = this.entries.get(origin);
    if (cached) {
      // An expired "unreachable" verdict is replaced; a pending or settled other one is reused.
      const fresh = cached.then((v) => (v.kind === 'disallow-all' && Date.now() >= v.until ? undefined : v));
      return fresh.then((v) => v ?? this.refetch(origin, cached));
    }
    return this.refetch(origin, undefined);
  }

  /** Ends every robots.txt fetch in flight (their origins read as unreachable); the cache is done. */
  close(): void {
    this.closing.abort();
  }

  private refetch(origin: string, expired: Promise<RobotsVerdict> | undefined): Promise<RobotsVerdict> {
    const current = this.entries.get(origin);
    // Another caller already replaced the expired entry: share its fetch.
    if (current && current !== expired) return current;
    const pending = this.load(origin);
    this.entries.set(origin, pending);
    return pending;
  }

  /** The origin's verdict: fetched here, or, with `shared`, by whichever process asked first. */
  private async load(origin: string): Promise<RobotsVerdict> {
    const { shared } = this.options;
    if (!shared) return this.fetchVerdict(origin);
    let fetched: RobotsVerdict | undefined;
    const lasting = await shared
      .once(
        origin,
        async () => {
          fetched = await this.fetchVerdict(origin);
          if (fetched.kind === 'rules') return { kind: 'rules', status: fetched.status, text: fetched.text, droppedRules: fetched.droppedRules };
          if (fetched.kind === 'allow-all') return { kind: 'allow-all', status: fetched.status, reason: fetched.reason };
          return undefined;
        },
        this.closing.signal,
      )
      .catch(() => undefined); // the shared store failing: this process asks for itself
    if (fetched) return fetched;
    if (lasting?.kind === 'rules') return { ...lasting, rules: robotsParser(`${origin}/robots.txt`, lasting.text) };
    if (lasting) return lasting;
    return this.fetchVerdict(origin);
  }

  private async fetchVerdict(origin: string): Promise<RobotsVerdict> {
    const { fetch } = this.options;
    const dispatcher = this.options.dispatcher ?? sharedAgent(fetch.connectTimeoutMs);
    let url = `${origin}/robots.txt`;
    let hop = 0;
    try {
      for (; ; hop++) {
        const result = await withDeadline(fetch.responseTimeoutMs, this.closing.signal, async (signal) => {
          const head = await sendGet(url, { userAgent: this.options.userAgent, accept: 'text/plain,*/*;q=0.1', timeoutMs: fetch.responseTimeoutMs }, dispatcher, signal);
          if (REDIRECT_STATUSES.has(head.status) || head.status < 200 || head.status > 299) {
            await discardBody(head.body);
            return { status: head.status, location: headerValue(head.headers, 'location') };
          }
          const reader = BodyReader.open(head.body, headerValue(head.headers, 'content-encoding'), ROBOTS_MAX_BYTES);
          if (!('readAll' in reader)) {
            dropBody(head.body);
            return { status: head.status, text: '' };
          }
          const end = await reader.readAll();
          let text = new TextDecoder('utf-8').decode(reader.bytes().subarray(0, ROBOTS_MAX_BYTES));
          if (end === 'over-limit') text = text.slice(0, text.lastIndexOf('\n') + 1);
          return { status: head.status, text };
        });
        const { status } = result;
        // Rules found through a redirect still govern the origin that was asked about.
        if ('text' in result) {
          const bounded = boundRobotsRules(result.text ?? '');
          return { kind: 'rules', rules: robotsParser(`${origin}/robots.txt`, bounded.text), status, droppedRules: bounded.dropped, text: bounded.text };
        }
        if (REDIRECT_STATUSES.has(status) && result.location && hop < MAX_ROBOTS_REDIRECTS) {
          const next = parseHttpUrl(new URL(result.location, url).href);
          if (next) {
            url = next.href;
            continue;
          }
        }
        if (REDIRECT_STATUSES.has(status)) return { kind: 'allow-all', status, reason: 'robots.txt redirects too often or nowhere' };
        if (status >= 400 && status < 500 && status !== 429) return { kind: 'allow-all', status, reason: `robots.txt answered HTTP ${status}` };
        return this.unreachable(status, `robots.txt answered HTTP ${status}`, true);
      }
    } catch (err) {
      const failure = classifyFetchFailure(err);
      // At the first hop the origin itself did not answer; at a later one only where robots.txt
      // redirected to, and the origin stays one that answers.
      const noAnswer: NoAnswer | undefined = hop === 0 ? { outcome: failure.outcome, message: failure.message } : undefined;
      return this.unreachable(0, `robots.txt unreachable: ${failure.message}`, failure.retryable, noAnswer);
    }
  }

  private unreachable(status: number, reason: string, transient: boolean, noAnswer?: NoAnswer): RobotsVerdict {
    return { kind: 'disallow-all', status, reason, until: Date.now() + this.unreachableRetryMs, transient, ...(noAnswer ? { noAnswer } : {}) };
  }
}

/** `promise`, or a rejection with `signal`'s reason as soon as it aborts (the work goes on for the others). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

function parseHttpUrl(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
