/**
 * What a page fetch gives back, in a file of its own: the fetcher (`fetch-page.ts`), the
 * decisions over its result (`fetch-errors.ts`, `retry-policy.ts`) and the crawl loop all read
 * these types, and none of them needs the fetcher itself to do so.
 */
import type { CharsetSource } from './charset.ts';

export type FetchOutcome =
  | 'ok' | 'not-html' | 'binary' | 'too-large' | 'http-error' | 'robots-denied' | 'redirect-denied'
  | 'redirect-loop' | 'too-many-redirects' | 'timeout' | 'network-error'
  /** The address the host resolves to is one the crawl may not connect to (`address-guard.ts`). */
  | 'address-denied';

export interface FetchedPage {
  /** The URL asked for, as given. */
  url: string;
  /** The last URL requested (after redirects that were followed). */
  finalUrl: string;
  /** HTTP status of the last response; 0 when none arrived (refused, reset, DNS, connect timeout). */
  status: number;
  /** Media type without parameters (`text/html`); sniffed when the header had none; '' if unknown. */
  contentType: string;
  /** The charset the HTML was decoded with, normalised (`utf-8`, `gb18030`, `big5`, …). */
  charset?: string;
  /** Decoded body bytes read (0 when the body was skipped unread). */
  bytes: number;
  /** Each redirect target in order, including a refused last one; empty when none. */
  redirects: string[];
  /** Decoded text, only for HTML pages read in full (`outcome: 'ok'`); decoded from `body` on first read when it is given. */
  html?: string;
  /**
   * The undecoded body of an HTML page read in full, when the fetcher left decoding to whoever
   * reads `html` (`html-bytes.ts`): a crawl decodes it on a parse thread.
   */
  body?: HtmlBytes;
  outcome: FetchOutcome;
  /** One clear line when outcome is not 'ok'. */
  error?: string;
  /** Whether trying again later may succeed (set when outcome is not 'ok'); see fetch-errors.ts. */
  retryable?: boolean;
  /** Where `charset` came from: byte order mark, header, meta tag, default or the GB18030 fallback. */
  charsetSource?: CharsetSource;
  /** True when `contentType` was sniffed from the body because the header had none. */
  sniffed?: boolean;
  /** Bytes on the wire for the last response's body (differs from `bytes` when compressed). */
  wireBytes?: number;
  /** An error response's Retry-After in ms from when it arrived (429, 503), when given and valid. */
  retryAfterMs?: number;
  /** The last exchange as on the wire, for a page read in full (`ok`) when the caller asked (`keepRaw`). */
  raw?: RawExchange;
}

/** An HTML body as read (content coding undone) and the Content-Type header it came with, whose charset is evidence (`charset.ts`). */
export interface HtmlBytes {
  bytes: Uint8Array;
  contentType?: string;
}

/**
 * One HTTP exchange as it went over the wire, what a WARC request and response record hold.
 * undici speaks HTTP/1.1 and does not report the response's version: it is taken to be 1.1.
 */
export interface RawExchange {
  request: {
    method: 'GET';
    /** The request line's target: path and query. */
    target: string;
    /** The headers undici wrote, in order (`http-exchange.ts` `sentRequest`). */
    headers: [string, string][];
  };
  response: {
    status: number;
    statusText: string;
    /** As received: names in their case, in order, repeats apart; values as latin1 strings. */
    headers: [string, string][];
  };
  /**
   * The body after de-chunking, its Content-Encoding still applied: the buffers read, not a copy
   * (for an uncoded body, the very bytes the page was decoded from).
   */
  body: Buffer[];
  /** When the request was sent (ISO 8601). */
  sentAt: string;
}

/** How a request that got no HTTP answer failed: timed out, a network error, or refused by the address guard. */
export type NoAnswerOutcome = 'timeout' | 'network-error' | 'address-denied';

/** The origin gave no HTTP answer at all: how its connection failed, as a page fetch records it. */
export interface NoAnswer {
  outcome: NoAnswerOutcome;
  /** One line: `connection refused`, `host not found (DNS)`, … */
  message: string;
}

/**
 * What robots.txt says of one URL: yes, no, or nothing because it was unreachable (until when,
 * why, whether asking again later may help, and whether the host gave no answer at all).
 */
export type RobotsAccess = 'allowed' | 'denied' | { unreachableUntil: number; reason: string; transient: boolean; noAnswer?: NoAnswer };

/** A robots checker: RobotsCache fits; kept structural so tests and callers can pass their own. */
export interface RobotsCheck {
  /** Rejects with `signal`'s reason when it aborts before the answer. */
  access(url: string, signal?: AbortSignal): Promise<RobotsAccess>;
}
