/**
 * Fetching one page as a careful crawler does (the "spider" of seed 003): a clear User-Agent,
 * redirects followed by hand with a limit, loop detection and a check on every hop, a deadline
 * per response, a byte cap applied after decompression, non-HTML skipped as early as possible,
 * and the charset honoured. Page-level trouble never throws: it comes back as an `outcome` with
 * one line of `error`, so the crawl loop records it and moves on.
 *
 * The one exception is the caller's own `signal`: when it aborts, `fetchPage` rejects with the
 * signal's reason, so a crawl being stopped does not record its in-flight pages as failed (they
 * stay in the frontier and are fetched again on resume).
 */
import type { Dispatcher } from 'undici';
import { decodeOnRead } from './html-bytes.ts';
import { binaryReason, isHtmlType, isUnknownType, mimeEssence, sniffUntyped, SNIFF_BYTES } from './content-sniff.ts';
import { classifyFetchFailure, isRetryable } from './fetch-errors.ts';
import type { FetchOptions } from './fetch-options.ts';
import { sharedAgent } from './http-agent.ts';
import { ACCEPT_HTML, REDIRECT_STATUSES, discardBody, dropBody, headerValue, sendGet, sentRequest, withDeadline, type ResponseHead } from './http-exchange.ts';
import { BodyReader } from './response-body.ts';
import { parseRetryAfter } from './retry-policy.ts';
import type { FetchedPage, FetchOutcome, HtmlBytes, RobotsCheck } from './types.ts';

export interface FetchPageOptions extends FetchOptions {
  /**
   * Called for every redirect target before anything is asked of its host (robots.txt, DNS): why
   * it may not be followed (out of the crawl's scope, a trap), which ends with `redirect-denied`,
   * or undefined to follow it.
   */
  refuseHop?: (url: string) => string | undefined;
  /** Aborting rejects `fetchPage` with the signal's reason (see the file header). */
  signal?: AbortSignal;
  /**
   * When given, the first URL and every hop are checked: a disallowed one ends with
   * `robots-denied`, one whose host gives no answer with that failure (`network-error`, …).
   */
  robots?: RobotsCheck;
  /** Hand back the last exchange as on the wire (`FetchedPage.raw`) for a page read in full. Default false. */
  keepRaw?: boolean;
}

type Ending = Omit<FetchedPage, 'url' | 'redirects'>;

export async function fetchPage(url: string, options: FetchPageOptions, dispatcher?: Dispatcher): Promise<FetchedPage> {
  const redirects: string[] = [];
  const done = (ending: Ending): FetchedPage => {
    const page: FetchedPage = { url, redirects, ...ending };
    if (page.outcome !== 'ok' && page.retryable === undefined) page.retryable = isRetryable(page);
    return page.body ? decodeOnRead({ ...page, body: page.body }) : page;
  };
  const fail = (finalUrl: string, status: number, outcome: FetchOutcome, error: string): FetchedPage =>
    done({ finalUrl, status, contentType: '', bytes: 0, outcome, error });

  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return fail(url, 0, 'network-error', `invalid URL: ${url.slice(0, 200)}`);
  }
  if (!isHttp(current)) return fail(url, 0, 'network-error', `unsupported scheme ${current.protocol}`);
  const refusal = await robotsRefusal(current.href, options);
  if (refusal) return fail(current.href, 0, refusal.outcome, refusal.reason);

  const agent = dispatcher ?? sharedAgent(options.connectTimeoutMs);
  const seen = new Set([withoutHash(current)]);
  for (;;) {
    const step = await exchange(current.href, options, agent);
    if (step.kind === 'page') return done(step.ending);

    const { status, location } = step;
    if (location === undefined) return fail(current.href, status, 'http-error', `HTTP ${status} redirect without a Location header`);
    let target: URL;
    try {
      target = new URL(location, current);
    } catch {
      return fail(current.href, status, 'http-error', `HTTP ${status} redirect to an invalid Location: ${location.slice(0, 200)}`);
    }
    redirects.push(target.href);
    if (!isHttp(target)) return fail(current.href, status, 'redirect-denied', `redirect to unsupported scheme ${target.protocol}`);
    if (seen.has(withoutHash(target))) return fail(current.href, status, 'redirect-loop', `redirect loop back to ${target.href}`);
    if (redirects.length > options.maxRedirects) {
      return fail(current.href, status, 'too-many-redirects', `more than ${options.maxRedirects} redirects`);
    }
    const refused = options.refuseHop?.(target.href);
    if (refused !== undefined) return fail(current.href, status, 'redirect-denied', `redirect to ${target.href} refused: ${refused}`);
    const hopRefusal = await robotsRefusal(target.href, options);
    if (hopRefusal) {
      const why = hopRefusal.outcome === 'robots-denied' ? ' disallowed by robots.txt' : `: ${hopRefusal.reason}`;
      return fail(current.href, status, hopRefusal.outcome, `redirect to ${target.href}${why}`);
    }
    seen.add(withoutHash(target));
    current = target;
  }
}

/** Why robots.txt keeps `url` from being fetched (or its host gave no answer at all), or undefined. */
async function robotsRefusal(url: string, options: FetchPageOptions): Promise<{ outcome: FetchOutcome; reason: string } | undefined> {
  if (!options.robots) return undefined;
  const access = await options.robots.access(url, options.signal);
  if (access === 'allowed') return undefined;
  if (access !== 'denied' && access.noAnswer) return { outcome: access.noAnswer.outcome, reason: access.noAnswer.message };
  return { outcome: 'robots-denied', reason: 'disallowed by robots.txt' };
}

type Step = { kind: 'page'; ending: Ending } | { kind: 'redirect'; status: number; location: string | undefined };

/** One request under its own deadline: a finished page, or a redirect to follow. */
async function exchange(url: string, options: FetchPageOptions, dispatcher: Dispatcher): Promise<Step> {
  // Filled in as the exchange progresses, for the failure report if it breaks midway.
  const progress: { status: number; reader?: BodyReader } = { status: 0 };
  try {
    return await withDeadline(options.responseTimeoutMs, options.signal, async (signal) => {
      const sentAt = new Date().toISOString();
      const head = await sendGet(url, { userAgent: options.userAgent, accept: ACCEPT_HTML, timeoutMs: options.responseTimeoutMs }, dispatcher, signal);
      const status = (progress.status = head.status);
      if (REDIRECT_STATUSES.has(status)) {
        await discardBody(head.body);
        return { kind: 'redirect', status, location: headerValue(head.headers, 'location') };
      }
      const ending = await readPage(url, head, options, (r) => (progress.reader = r));
      if (options.keepRaw && ending.outcome === 'ok' && progress.reader) {
        const sent = sentRequest(url, { userAgent: options.userAgent, accept: ACCEPT_HTML });
        ending.raw = {
          request: { method: 'GET', target: sent.target, headers: sent.headers },
          response: { status, statusText: head.statusText, headers: head.rawHeaders },
          body: progress.reader.wireBody(),
          sentAt,
        };
      }
      return { kind: 'page', ending };
    });
  } catch (err) {
    progress.reader?.cancel();
    if (options.signal?.aborted) throw options.signal.reason;
    const failure = classifyFetchFailure(err);
    return {
      kind: 'page',
      ending: {
        finalUrl: url, status: progress.status, contentType: '', bytes: progress.reader?.decodedBytes ?? 0,
        outcome: failure.outcome, error: failure.message, retryable: failure.retryable,
      },
    };
  }
}

/** Decides from status, headers and the first bytes whether to read the page, then reads it. */
async function readPage(url: string, head: ResponseHead, options: FetchPageOptions, track: (r: BodyReader) => void): Promise<Ending> {
  const { status, headers, body } = head;
  const contentTypeHeader = headerValue(headers, 'content-type');
  const declared = mimeEssence(contentTypeHeader);
  const base = { finalUrl: url, status, contentType: declared, bytes: 0 };

  if (status < 200 || status > 299) {
    await discardBody(body);
    const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));
    return { ...base, outcome: 'http-error', error: `HTTP ${status}`, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  const unknown = isUnknownType(declared);
  if (!unknown && !isHtmlType(declared)) {
    dropBody(body); // not a page: read none of it
    return { ...base, outcome: 'not-html', error: `not HTML: ${declared}` };
  }
  const length = Number(headerValue(headers, 'content-length'));
  if (Number.isFinite(length) && length > options.maxBytes) {
    dropBody(body);
    return { ...base, outcome: 'too-large', error: `Content-Length ${length} exceeds the ${options.maxBytes}-byte limit` };
  }
  const opened = BodyReader.open(body, headerValue(headers, 'content-encoding'), options.maxBytes, options.keepRaw);
  if (!('readAll' in opened)) {
    dropBody(body);
    return { ...base, outcome: 'network-error', retryable: false, error: `unsupported Content-Encoding '${opened.unsupported}'` };
  }
  const reader = opened;
  track(reader);
  const sizes = () => ({ bytes: reader.decodedBytes, wireBytes: reader.wireBytes });
  const tooLarge = (): Ending => ({ ...base, ...sizes(), outcome: 'too-large', error: `body exceeds the ${options.maxBytes}-byte limit` });

  if ((await reader.readAtLeast(SNIFF_BYTES)) === 'over-limit') return tooLarge();
  const first = reader.bytes();
  let contentType = declared;
  let sniffed: boolean | undefined;
  if (unknown) {
    const kind = sniffUntyped(first);
    sniffed = true;
    contentType = kind === 'html' ? 'text/html' : kind === 'binary' ? 'application/octet-stream' : 'text/plain';
    if (kind !== 'html') {
      reader.cancel();
      return { ...base, ...sizes(), contentType, sniffed, outcome: kind === 'binary' ? 'binary' : 'not-html', error: `no Content-Type and the body looks like ${kind === 'binary' ? binaryReason(first) : 'plain text'}` };
    }
  } else {
    const reason = binaryReason(first);
    if (reason) {
      reader.cancel();
      return { ...base, ...sizes(), outcome: 'binary', error: `labelled ${declared} but the body is binary (${reason})` };
    }
  }
  if ((await reader.readAll()) === 'over-limit') return { ...tooLarge(), contentType };
  // Decoded when `html` is first read (`fetchPage`'s `done`, `html-bytes.ts`): by a crawl, on a parse thread.
  const html: HtmlBytes = { bytes: reader.bytes(), ...(contentTypeHeader !== undefined ? { contentType: contentTypeHeader } : {}) };
  return { ...base, ...sizes(), contentType, ...(sniffed ? { sniffed } : {}), body: html, outcome: 'ok' };
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function withoutHash(url: URL): string {
  return url.href.replace(/#.*$/, '');
}
